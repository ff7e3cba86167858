"""The entries of a program file: definitions, directives (`.eval`, `.nf`,
`.check`) and lines of fixed text (comments, `.import`s, broken text)."""
from typing import Optional

from .terms import Node
from .ty import show_ty

ONE_LINE, CONTINUATION, SPLIT = 0, 1, 2     # `n : T = b`, `n : T\n  = b`, `n : T\nn = b`


class Def:
    """`name : ty = body`. ty: a type (ty.Ty) or a term (`Eq (fact 4) 24`);
    tparams: implicit type parameters [(name, 'U' or 'Nat')]; fmt: one of
    the layouts above, or None for one line unless it is long. The shadow
    rendering uses shadow_body (a template's core-only text) if given, and
    a recursive definition is preceded by a postulate of its own name."""

    def __init__(self, name, ty, body, tparams=(), fmt=None, shadow_body=None, recursive=False):
        self.name, self.ty, self.body, self.tparams, self.fmt = name, ty, body, list(tparams), fmt
        self.shadow_body: Optional[Node] = shadow_body
        self.recursive = recursive

    def terms(self):
        return ([self.ty] if isinstance(self.ty, Node) else []) + [self.body]

    def signature(self, shadow=False):
        groups = []                                 # {A B : U} → {n : Nat} → …
        for n, k in self.tparams:
            if groups and groups[-1][1] == k:
                groups[-1][0].append(n)
            else:
                groups.append(([n], k))
        ty = self.ty.text(shadow) if isinstance(self.ty, Node) else show_ty(self.ty, shadow)
        return "".join(f"{{{' '.join(ns)} : {k}}} → " for ns, k in groups) + ty

    def render(self, shadow=False):
        sig = self.signature(shadow)
        body = (self.shadow_body if shadow and self.shadow_body else self.body).text(shadow)
        head = f".ax {self.name} : {sig}\n" if shadow and self.recursive else ""
        fmt = None if self.fmt == SPLIT and shadow else self.fmt
        if fmt is None:
            fmt = ONE_LINE if len(f"{self.name} : {sig} = {body}") <= 100 else CONTINUATION
        if fmt == SPLIT:
            return f"{self.name} : {sig}\n{self.name} = {body}"
        if fmt == CONTINUATION:
            return head + f"{self.name} : {sig}\n  = {body}"
        return head + f"{self.name} : {sig} = {body}"


class Directive:
    """`.eval e` (or `.nf e`, `.check e`); ty: e's type and expected: the
    line thorin prints, where the generator knows them. The shadow rendering
    `.check`s an `.eval`."""

    def __init__(self, node, word=".eval", ty=None, expected=None):
        self.node, self.word, self.ty, self.expected = node, word, ty, expected

    def terms(self):
        return [self.node]

    def render(self, shadow=False):
        word = ".check" if shadow and self.word == ".eval" else self.word
        return f"{word} {self.node.text(shadow)}"


class Line:
    """Fixed text: a comment, a blank line, an `.import`, broken text."""

    def __init__(self, text):
        self.text = text

    def terms(self):
        return []

    def render(self, shadow=False):
        return self.text


def file_text(entries, shadow=False):
    return "".join(e.render(shadow) + "\n" for e in entries)

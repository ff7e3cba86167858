"""Terms of every family and their thorin text, with the precedences of
docs/runtime.md: a node renders to (text, level) and is parenthesized where
its context needs a higher level.

`shadow` renders the core language alone (tests/lib/gen/shadow.py): builtin
literals, operators, `if` and annotations become postulates and the prelude's
`id`, so the elaborator checks everything else independently of the builtins.
"""
import math

from .ty import BOOL, F64, I64, NAT, show_nat, show_ty

L_OPEN, L_OR, L_AND, L_CMP, L_ADD, L_MUL, L_APP, L_ATOM = range(8)
OP_LEVEL = {"||": L_OR, "&&": L_AND, "==": L_CMP, "!=": L_CMP, "<": L_CMP, "<=": L_CMP,
            ">": L_CMP, ">=": L_CMP, "+": L_ADD, "-": L_ADD, "*": L_MUL, "/": L_MUL, "%": L_MUL}
OP_NAME = {"||": "or", "&&": "and", "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt",
           ">=": "ge", "+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem"}
I64_MAX = (1 << 63) - 1


class Node:
    def render(self, shadow):
        """(text, precedence level)"""
        raise NotImplementedError

    def children(self):
        return []

    def text(self, shadow=False, lvl=L_OPEN):
        s, level = self.render(shadow)
        return s if level >= lvl else f"({s})"


class Var(Node):
    def __init__(self, name):
        self.name = name

    def render(self, shadow):
        return self.name, L_ATOM


class Raw(Node):
    """Fixed text at a precedence level, using `names` (a literal in it is
    no Lit: the reload test's literal edits leave it alone)."""

    def __init__(self, text, level=L_ATOM, names=()):
        self.raw, self.level, self.names = text, level, set(names)

    def render(self, shadow):
        return self.raw, self.level


def negative(v):
    return v < 0 or isinstance(v, float) and math.copysign(1.0, v) < 0


def number(v):
    return repr(v) if isinstance(v, float) else str(v)


class Lit(Node):
    """A literal of type ty (mutable: the reload test edits literals). A
    negative one renders as `0 - v`, or, signed, as the literal `(-v)`."""

    def __init__(self, ty, value, signed=False):
        self.ty, self.value, self.signed = ty, value, signed

    def render(self, shadow):
        v = self.value
        if self.ty == BOOL:
            return ("true" if v else "false"), L_ATOM
        if shadow:
            return shadow_literal(self.ty, v), L_ATOM
        if not negative(v):
            return number(v), L_ATOM
        if self.signed:
            return f"({number(v)})", L_ATOM
        zero = "0.0" if self.ty == F64 else "0"
        if self.ty == I64 and v == -I64_MAX - 1:        # its magnitude is no I64 literal
            return f"0 - {I64_MAX} - 1", L_ADD
        return f"{zero} - {number(-v)}", L_ADD


def shadow_literal(ty, v):
    if ty == I64:
        return f"L_i{v}" if v >= 0 else f"L_im{-v}"
    if ty == NAT:
        return f"L_n{v}"
    return "L_f" + repr(v).replace("-", "m").replace(".", "_")


class BinOp(Node):
    def __init__(self, op, ty, left, right):
        self.op, self.ty, self.left, self.right = op, ty, left, right   # ty: the operand type

    def children(self):
        return [self.left, self.right]

    def render(self, shadow):
        if shadow:
            name = OP_NAME[self.op] if self.op in ("&&", "||") else f"{OP_NAME[self.op]}_{self.ty.name}"
            return f"L_{name} {self.left.text(True, L_ATOM)} {self.right.text(True, L_ATOM)}", L_APP
        lvl = OP_LEVEL[self.op]
        lmin = lvl + 1 if lvl == L_CMP else lvl           # comparisons do not associate
        return f"{self.left.text(False, lmin)} {self.op} {self.right.text(False, lvl + 1)}", lvl


class TyArg:
    """An explicit implicit argument `{T}` (or `{3}`); erased at run time."""

    def __init__(self, ty):
        self.ty = ty

    def text(self, shadow, lvl=L_OPEN):
        if isinstance(self.ty, int):                    # a Nat argument, e.g. get {I64} {3}
            return "{" + show_nat(self.ty, shadow) + "}"
        return "{" + show_ty(self.ty, shadow) + "}"


class App(Node):
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def children(self):
        return [self.fn] + [a for a in self.args if not isinstance(a, TyArg)]

    def render(self, shadow):
        parts = [self.fn.text(shadow, L_APP)] + [a.text(shadow, L_ATOM) for a in self.args]
        return " ".join(parts), L_APP


def call(name, *args):
    return App(Var(name), list(args))


class Lam(Node):
    def __init__(self, binders, body):
        self.binders, self.body = binders, body         # binders: [(name, type or None)]

    def children(self):
        return [self.body]

    def render(self, shadow):
        bs = " ".join(n if t is None else f"({n} : {show_ty(t, shadow)})" for n, t in self.binders)
        return f"λ {bs}. {self.body.text(shadow)}", L_OPEN


def lam(names, body):
    """λ names. body, without annotations."""
    return Lam([(n, None) for n in names], body)


class Let(Node):
    def __init__(self, name, ty, value, body):
        self.name, self.ty, self.value, self.body = name, ty, value, body   # ty: None when inferred

    def children(self):
        return [self.value, self.body]

    def render(self, shadow):
        ann = "" if self.ty is None else f" : {show_ty(self.ty, shadow)}"
        return f"let {self.name}{ann} = {self.value.text(shadow)}; {self.body.text(shadow)}", L_OPEN


class If(Node):
    def __init__(self, ty, cond, then, els):
        self.ty, self.cond, self.then, self.els = ty, cond, then, els    # ty: for the shadow's ite

    def children(self):
        return [self.cond, self.then, self.els]

    def render(self, shadow):
        if shadow:
            return (f"ite {{{show_ty(self.ty, True)}}} {self.cond.text(True, L_ATOM)} "
                    f"{self.then.text(True, L_ATOM)} {self.els.text(True, L_ATOM)}"), L_APP
        return (f"if {self.cond.text(False, L_OR)} then {self.then.text(False, L_OR)} "
                f"else {self.els.text(False)}"), L_OPEN


class Ann(Node):
    """`(e : A)`: e checked against A, so the whole can be inferred."""

    def __init__(self, node, ty):
        self.node, self.ty = node, ty

    def children(self):
        return [self.node]

    def render(self, shadow):
        if shadow:                                  # the core-only form: the prelude's id
            return f"id {{{show_ty(self.ty, True)}}} {self.node.text(True, L_ATOM)}", L_APP
        return f"({self.node.text(False, L_OR)} : {show_ty(self.ty)})", L_ATOM


class Tuple(Node):
    def __init__(self, fst, snd):
        self.fst, self.snd = fst, snd

    def children(self):
        return [self.fst, self.snd]

    def render(self, shadow):
        return f"({self.fst.text(shadow, L_OR)}, {self.snd.text(shadow, L_OR)})", L_ATOM


class Proj(Node):
    def __init__(self, pair, k):
        self.pair, self.k = pair, k

    def children(self):
        return [self.pair]

    def render(self, shadow):
        return f"{self.pair.text(shadow, L_ATOM)}.{self.k}", L_ATOM


class ArrayLit(Node):
    def __init__(self, elem_ty, elems):
        self.elem_ty, self.elems = elem_ty, elems

    def children(self):
        return list(self.elems)

    def render(self, shadow):
        if shadow:
            args = "".join(" " + e.text(True, L_ATOM) for e in self.elems)
            return f"L_alit{len(self.elems)} {{{show_ty(self.elem_ty, True)}}}{args}", L_APP
        return "[" + ", ".join(e.text(False, L_OR) for e in self.elems) + "]", L_ATOM


class IdxLit(Node):
    """`idx k` or `idx {n} k` at type Idx n."""

    def __init__(self, n, k, explicit):
        self.n, self.k, self.explicit = n, k, explicit

    def children(self):
        return [self.k]

    def render(self, shadow):
        n = f" {{{show_nat(self.n, shadow)}}}" if self.explicit else ""
        return f"idx{n} {self.k.text(shadow, L_ATOM)}", L_APP


def walk(node):
    """node and its subterms, in pre-order, left to right."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(reversed(n.children()))


def size(node):
    return sum(1 for _ in walk(node))


def lits(node):
    return [n for n in walk(node) if isinstance(n, Lit)]


def free_names(node):
    if isinstance(node, Var):
        return {node.name}
    if isinstance(node, Raw):
        return set(node.names)
    if isinstance(node, Lam):
        return free_names(node.body) - {n for n, _ in node.binders}
    if isinstance(node, Let):
        return free_names(node.value) | (free_names(node.body) - {node.name})
    return set().union(*[free_names(c) for c in node.children()])

#!/usr/bin/env python3
"""Checks the typed family of the random-program generator (tests/lib/gen:
typed.py, typed_program.py, library.py, shadow.py, and the model with its
conservative semantics) on its own, without thorin's builtins:

1. the operator semantics the expected values rest on (I64 wrapping, C-like
   truncating division, Nat truncation, F64 printing);
2. every library template's Python value against its thorin text, run by a
   small untyped evaluator of that text;
3. for the programs test_differential.py runs (same count and seed): the
   generation is deterministic; the rendered text parses back (with the
   precedences of docs/runtime.md) to the AST that was evaluated; and an
   independent bidirectional checker accepts every definition and `.eval`
   under the conservative rules (literals and `if` only where a type is
   expected, left operands inferable, implicit arguments determined);
4. given THORIN: the core-only "shadow" rendering (builtins as postulates)
   elaborates with `thorin check`, and each `.check` prints the type the
   generator meant.

  test_gen_programs.py [THORIN] [--count N] [--seed S]
"""
import argparse
import os
import random
import re
import sys
import tempfile

sys.dont_write_bytecode = True          # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from core_model import I64_MAX, I64_MIN  # noqa: E402
from gen import library, semantics, typed, typed_program  # noqa: E402
from gen import terms as G  # noqa: E402
from gen.model import ArrV, Model, Reject  # noqa: E402
from gen.ty import (I64, NAT, BOOL, F64, Fun, Pair, Arr, Idx, Church, Ty,  # noqa: E402
                    fun_type, show_ty, subst, match, tvars_of, uncurry)
import thorin  # noqa: E402

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    if len(FAILURES) <= 20:
        print("FAIL:", msg)


# ------------------------------------------------------------ 1. semantics

def check_semantics():
    I = I64
    table = [
        ("/", I, 7, 2, 3), ("/", I, -7, 2, -3), ("/", I, 7, -2, -3), ("/", I, -7, -2, 3),
        ("%", I, 7, 2, 1), ("%", I, -7, 2, -1), ("%", I, 7, -2, 1), ("%", I, -7, -2, -1),
        ("+", I, I64_MAX, 1, I64_MIN), ("-", I, I64_MIN, 1, I64_MAX),
        ("*", I, 3037000500, 3037000500, -9223372036709301616),
        ("*", I, I64_MAX, I64_MAX, 1), ("*", I, 1 << 62, 4, 0), ("-", I, 0, I64_MIN, I64_MIN),
        ("/", I, I64_MIN, 2, -(1 << 62)), ("%", I, I64_MIN, 3, -2), ("/", I, 0, -5, 0),
        ("-", NAT, 3, 5, 0), ("-", NAT, 5, 3, 2), ("*", NAT, 1 << 64, 1 << 64, 1 << 128),
        ("/", NAT, 7, 2, 3), ("%", NAT, 7, 2, 1), ("+", NAT, (1 << 64) - 1, 1, 1 << 64),
        ("<", I, -1, 0, True), ("<", NAT, 0, 1, True), (">=", I, I64_MIN, I64_MAX, False),
        ("==", BOOL, True, True, True), ("!=", BOOL, True, False, True),
        ("&&", BOOL, True, False, False), ("||", BOOL, False, True, True),
        ("+", F64, 0.5, 0.25, 0.75), ("*", F64, 1.5, 2.0, 3.0), ("/", F64, 3.0, 2.0, 1.5),
    ]
    for op, ty, a, b, want in table:
        got = semantics.binop(op, ty.name, a, b)
        if got != want or type(got) is not type(want):
            fail(f"semantics: {a} {op} {b} at {ty.name} = {got!r}, want {want!r}")
    rng = random.Random(7)
    for _ in range(20000):               # C's identities for truncating division
        a = rng.choice([rng.randint(I64_MIN, I64_MAX), rng.randint(-100, 100)])
        b = rng.choice([rng.randint(-100, 100), rng.randint(I64_MIN, I64_MAX)])
        if b == 0 or (a == I64_MIN and b == -1):
            continue
        q, r = semantics.binop("/", "I64", a, b), semantics.binop("%", "I64", a, b)
        if q * b + r != a or abs(r) >= abs(b) or (r != 0 and (r < 0) != (a < 0)):
            fail(f"semantics: {a} / {b} = {q}, {a} % {b} = {r}")
        s = semantics.binop("+", "I64", a, b)
        if not (I64_MIN <= s <= I64_MAX) or (s - a - b) % (1 << 64):
            fail(f"semantics: {a} + {b} wraps to {s}")
    for bad in [("/", "I64", 1, 0), ("%", "Nat", 1, 0), ("/", "I64", I64_MIN, -1)]:
        try:
            semantics.binop(*bad)
            fail(f"semantics: {bad} did not reject")
        except Reject:
            pass
    shows = [(2.0, "2.0"), (0.5, "0.5"), (-2.5, "-2.5"), (0.125, "0.125"), (9999.75, "9999.75"),
             (-0.0078125, "-0.0078125"), (0.0, "0.0"), (True, "true"), (-5, "-5"), (12, "12"),
             ((1, False), "(1, false)"), (ArrV([1, -2]), "[1, -2]"), (ArrV(), "[]"),
             (ArrV([(1, True)]), "[(1, true)]"), (lambda x: x, "<function>")]
    for v, want in shows:
        if typed.show_value(v) != want:
            fail(f"show: {v!r} prints {typed.show_value(v)!r}, want {want!r}")
    for v in [0.1, 1e20, 10000.0, 1 / 512, -0.0, float("inf"), float("nan")]:
        try:
            typed.show_value(v)
            fail(f"show: F64 {v!r} is printed although its form is not pinned down")
        except Reject:
            pass


# ------------------------------------------------------------ parsing the rendered text

TOKEN = re.compile(r"\s+|(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_']*)|"
                   r"(λ|→|×|\|\||&&|==|!=|<=|>=|[-+*/%<>()\[\]{},.;:=])")
KEYWORDS = {"let", "if", "then", "else"}
ATOM_END = {"id", "num", ")", "]", "proj"}


def tokenize(text):
    toks, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m:
            raise SyntaxError(f"bad character {text[i]!r}")
        if m.group(1):
            if toks and toks[-1][0] == "proj" and toks[-1][3] == i:   # p.1.2 is not p.(1.2)
                raise SyntaxError("number right after a projection")
            toks.append(("num", m.group(1), i, m.end()))
        elif m.group(2):
            kind = m.group(2) if m.group(2) in KEYWORDS else "id"
            toks.append((kind, m.group(2), i, m.end()))
        elif m.group(3):
            s = m.group(3)
            if s == "." and toks and toks[-1][0] in ATOM_END:
                d = re.compile(r"\d+").match(text, m.end())
                if d:
                    toks.append(("proj", int(d.group()), i, d.end()))
                    i = d.end()
                    continue
            toks.append((s, s, i, m.end()))
        i = m.end()
    return toks


class Parser:
    """Terms with the precedences of docs/runtime.md; produces s-expressions."""

    def __init__(self, text):
        self.text, self.toks, self.i = text, tokenize(text), 0

    def peek(self):
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def next(self, want=None):
        t = self.toks[self.i]
        if want is not None and t[0] != want:
            raise SyntaxError(f"expected {want!r}, got {t[1]!r}")
        self.i += 1
        return t

    def type_until(self, *stops):
        """The source text of a type, up to a stop token at bracket depth 0."""
        start, depth = self.toks[self.i][2], 0
        while not (depth == 0 and self.peek() in stops):
            k = self.next()[0]
            depth += k in "({[" and 1 or 0
            depth -= k in ")}]" and 1 or 0
        return self.text[start:self.toks[self.i - 1][3]].strip()

    def expr(self):
        k = self.peek()
        if k == "λ":
            self.next()
            binders = []
            while self.peek() != ".":
                if self.peek() == "(":
                    self.next()
                    name = self.next("id")[1]
                    self.next(":")
                    binders.append((name, self.type_until(")")))
                    self.next(")")
                elif self.peek() == "{":
                    self.next()
                    binders.append(("{" + self.next("id")[1] + "}", None))
                    self.next("}")
                else:
                    binders.append((self.next("id")[1], None))
            self.next(".")
            return ("lam", binders, self.expr())
        if k == "let":
            self.next()
            name = self.next("id")[1]
            ty = None
            if self.peek() == ":":
                self.next()
                ty = self.type_until("=")
            self.next("=")
            v = self.expr()
            self.next(";")
            return ("let", name, ty, v, self.expr())
        if k == "if":
            self.next()
            c = self.expr()
            self.next("then")
            a = self.expr()
            self.next("else")
            return ("if", c, a, self.expr())
        return self.binop(G.L_OR)

    def binop(self, lvl):
        if lvl > G.L_MUL:
            return self.app()
        left = self.binop(lvl + 1)
        while G.OP_LEVEL.get(self.peek()) == lvl:
            op = self.next()[0]
            left = (op, left, self.binop(lvl + 1))
            if lvl == G.L_CMP and G.OP_LEVEL.get(self.peek()) == lvl:
                raise SyntaxError("comparisons do not associate")
        return left

    def starts_atom(self):
        return self.peek() in ("id", "num", "(", "[", "{")

    def app(self):
        head = self.atom()
        args = []
        while self.starts_atom():
            if self.peek() == "{":
                self.next()
                args.append(("tyarg", self.type_until("}")))
                self.next("}")
            else:
                args.append(self.atom())
        return ("app", head, args) if args else head

    def atom(self):
        k = self.peek()
        if k == "id":
            e = ("var", self.next()[1])
        elif k == "num":
            e = ("num", self.next()[1])
        elif k == "(":
            self.next()
            e = self.expr()
            if self.peek() == ",":
                self.next()
                e = ("pair", e, self.expr())
            elif self.peek() == ":":
                self.next()
                e = ("ann", e, self.type_until(")"))
            self.next(")")
        elif k == "[":
            self.next()
            elems = []
            while self.peek() != "]":
                elems.append(self.expr())
                if self.peek() == ",":
                    self.next()
            self.next("]")
            e = ("array", elems)
        else:
            raise SyntaxError(f"unexpected {self.toks[self.i][1] if k else 'end'}")
        while self.peek() == "proj":
            e = ("proj", e, self.next()[1])
        return e

    def whole(self):
        e = self.expr()
        if self.i != len(self.toks):
            raise SyntaxError(f"trailing {self.toks[self.i][1]!r}")
        return e


def sexp(n):
    """The s-expression the parser must produce for the text of node n."""
    if isinstance(n, G.Var):
        return ("var", n.name)
    if isinstance(n, G.Lit):
        if n.ty == BOOL:
            return ("var", "true" if n.value else "false")
        num = repr if n.ty == F64 else str
        if n.value < 0:
            zero = "0.0" if n.ty == F64 else "0"
            return ("-", ("num", zero), ("num", num(-n.value)))
        return ("num", num(n.value))
    if isinstance(n, G.BinOp):
        return (n.op, sexp(n.left), sexp(n.right))
    if isinstance(n, G.App):
        return ("app", sexp(n.fn), [("tyarg", a.text(False)[1:-1]) if isinstance(a, G.TyArg) else sexp(a)
                                    for a in n.args])
    if isinstance(n, G.Lam):
        return ("lam", [(x, None if t is None else show_ty(t)) for x, t in n.binders], sexp(n.body))
    if isinstance(n, G.Let):
        return ("let", n.name, None if n.ty is None else show_ty(n.ty), sexp(n.value), sexp(n.body))
    if isinstance(n, G.If):
        return ("if", sexp(n.cond), sexp(n.then), sexp(n.els))
    if isinstance(n, G.Ann):
        return ("ann", sexp(n.node), show_ty(n.ty))
    if isinstance(n, G.Tuple):
        return ("pair", sexp(n.fst), sexp(n.snd))
    if isinstance(n, G.Proj):
        return ("proj", sexp(n.pair), n.k)
    if isinstance(n, G.ArrayLit):
        return ("array", [sexp(e) for e in n.elems])
    if isinstance(n, G.IdxLit):
        return ("app", ("var", "idx"), ([("tyarg", str(n.n))] if n.explicit else []) + [sexp(n.k)])
    raise TypeError(n)


# ------------------------------------------------------------ 2. templates vs their text

class IndexFn:
    """An array of unknown size (built from an erased implicit size): its function."""

    def __init__(self, f):
        self.f = f

    def __getitem__(self, k):
        return self.f(k)


BUILTINS = Model(semantics.Conservative())         # has the builtins' values


def sx_eval(e, env, glob):
    """An untyped evaluator of parsed template bodies (small inputs: no wrapping)."""
    k = e[0]
    if k == "var":
        x = e[1]
        for name, v in env:
            if name == x:
                return v
        if x in ("true", "false"):
            return x == "true"
        if x in glob:
            return glob[x]
        if x == "build":                   # the size may be an (erased) implicit argument
            return lambda n: lambda f: (BUILTINS.lookup("build")(n)(f) if isinstance(n, int)
                                        else IndexFn(f))
        if x in semantics.Conservative.prims:
            return BUILTINS.lookup(x)
        if x == "idx":
            return lambda k: k
        return library.TYPE                      # a type passed as an argument
    if k == "num":
        return int(e[1])
    if k == "lam":
        binders = [b for b, _ in e[1] if not b.startswith("{")]

        def make(i, env):
            def f(x):
                env2 = [(binders[i], x)] + env
                return make(i + 1, env2) if i + 1 < len(binders) else sx_eval(e[2], env2, glob)
            return f
        return make(0, env) if binders else sx_eval(e[2], env, glob)
    if k == "app":
        f = sx_eval(e[1], env, glob)
        for a in e[2]:
            if a[0] != "tyarg":
                f = f(sx_eval(a, env, glob))
        return f
    if k == "if":
        return sx_eval(e[2] if sx_eval(e[1], env, glob) else e[3], env, glob)
    if k == "pair":
        return (sx_eval(e[1], env, glob), sx_eval(e[2], env, glob))
    if k == "proj":
        return sx_eval(e[1], env, glob)[e[2] - 1]
    if k in G.OP_LEVEL:
        a, b = sx_eval(e[1], env, glob), sx_eval(e[2], env, glob)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "==": lambda: a == b,
                "<=": lambda: a <= b, ">=": lambda: a >= b, "<": lambda: a < b}[k]()
    raise TypeError(e)


def check_templates():
    sfx = "_t"
    church = {"nat": Church("nat", "CN" + sfx), "bool": Church("bool", "CB" + sfx), "list": "CL" + sfx}
    hands = Model(semantics.Conservative())          # runs the templates' Python values
    env = library.TemplateEnv(hands, sfx)
    hand, text = {}, {}
    for t in library.TEMPLATES:
        if t.sig is None:
            continue
        name = t.key + sfx
        hand[name] = t.value(env)
        hands.bind(name, hand[name])
        try:
            text[name] = sx_eval(Parser(t.body.replace("@", sfx)).whole(), [], text)
        except (SyntaxError, TypeError) as ex:
            fail(f"template {t.key}: {ex}")
    rng = random.Random(3)

    def sample(ty):
        if ty in (I64, NAT):
            return rng.randint(0, 5)
        if ty == BOOL:
            return rng.random() < 0.5
        if isinstance(ty, Fun):
            res = uncurry(ty)[1]
            if ty.arg in (I64, NAT) and ty.res in (I64, NAT):
                c = rng.randint(1, 3)
                return lambda x: x * c + 1
            if isinstance(ty.res, Fun) and res in (I64, NAT):
                return lambda x: lambda y: x + 2 * y
            if ty.arg in (I64, NAT) and res == BOOL:
                return lambda x: x % 2 == 0
        if isinstance(ty, Pair):
            return (sample(ty.fst), sample(ty.snd))
        if isinstance(ty, Arr):
            return ArrV(sample(ty.elem) for _ in range(ty.n))
        if isinstance(ty, Church):
            if ty.kind == "nat":
                v = hand["czero" + sfx]
                for _ in range(rng.randint(0, 4)):
                    v = hand["csuc" + sfx](v)
                return v
            if ty.kind == "bool":
                return hand["ctrue" + sfx if rng.random() < 0.5 else "cfalse" + sfx]
            v = hand["cnil" + sfx]
            for _ in range(rng.randint(0, 4)):
                v = hand["ccons" + sfx](sample(ty.elem))(v)
            return v
        raise KeyError(ty)

    def decode(ty, v):
        if isinstance(ty, Church):
            if ty.kind == "nat":
                return v(library.TYPE)(lambda k: k + 1)(0)
            if ty.kind == "bool":
                return v(library.TYPE)(True)(False)
            return v(library.TYPE)(lambda a: lambda r: [decode(ty.elem, a)] + r)([])
        if isinstance(ty, Pair):
            return (decode(ty.fst, v[0]), decode(ty.snd, v[1]))
        if isinstance(ty, Arr):
            return [decode(ty.elem, v[i]) for i in range(ty.n)]
        return v

    for t in library.TEMPLATES:
        if t.sig is None:
            continue
        name = t.key + sfx
        sub = {n: (I64 if k == "U" else 3) for n, k in t.tparams}
        params, res = uncurry(subst(t.sig(church), sub))
        tested = 0
        for _ in range(30):
            try:
                args = [sample(p) for p in params]
            except KeyError:
                continue
            if name not in text:
                break

            def both():
                a, b = hand[name], text[name]
                for x in args:
                    a, b = a(x), b(x)
                return decode(res, a), decode(res, b)
            a, b = hands.run(both, 10 ** 6)
            if a != b:
                fail(f"template {t.key}: Python value {a!r}, its text {b!r}")
                break
            tested += 1
        if tested == 0:
            fail(f"template {t.key}: no test")


# ------------------------------------------------------------ 3. an independent type checker

class NotWellTyped(Exception):
    pass


CONVERSIONS = {"natToI64": Fun(NAT, I64), "i64ToNat": Fun(I64, NAT), "f64ToI64": Fun(F64, I64),
               "natToF64": Fun(NAT, F64), "sqrt": Fun(F64, F64)}
ARITH = {"+", "-", "*", "/", "%"}


class Checker:
    """Bidirectional checking with the conservative rules of gen/typed.py.
    A scheme is (type parameters, type); locals are monomorphic."""

    def __init__(self, defs):
        self.schemes = {}
        for g in library.builtin_globals():
            self.schemes[g.name] = (g.tparams, fun_type(g.params, g.res))
        for n, t in CONVERSIONS.items():
            self.schemes[n] = ([], t)
        for d in defs:
            if isinstance(d.ty, Ty):                 # (not a type definition)
                self.schemes[d.name] = (d.tparams, d.ty)

    def err(self, node, msg):
        raise NotWellTyped(f"{msg}: {node.text()}")

    def infer(self, n, sc):
        if isinstance(n, G.Var):
            if n.name in sc:
                return sc[n.name]
            tps, t = self.schemes.get(n.name, (None, None))
            if t is None or tps:
                self.err(n, "unknown or polymorphic name in infer position")
            return t
        if isinstance(n, G.Lit):
            if n.ty == I64:
                self.err(n, "I64 literal in infer position")
            return n.ty
        if isinstance(n, G.BinOp):
            return self.binop(n, sc)
        if isinstance(n, G.App):
            return self.app(n, sc, None)
        if isinstance(n, G.Let):
            vt = n.ty if n.ty is not None else self.infer(n.value, sc)
            if n.ty is not None:
                self.check(n.value, n.ty, sc)
            return self.infer(n.body, dict(sc, **{n.name: vt}))
        if isinstance(n, G.Ann):
            self.check(n.node, n.ty, sc)
            return n.ty
        if isinstance(n, G.Proj):
            t = self.infer(n.pair, sc)
            if not isinstance(t, Pair):
                self.err(n, "projection of a non-pair")
            return t.fst if n.k == 1 else t.snd
        if isinstance(n, G.IdxLit):
            if not n.explicit:
                self.err(n, "idx without {n} in infer position")
            self.check(n.k, NAT, sc)
            return Idx(n.n)
        if isinstance(n, G.Lam) and all(t is not None for _, t in n.binders):
            sc2 = dict(sc, **{x: t for x, t in n.binders})
            return fun_type([t for _, t in n.binders], self.infer(n.body, sc2))
        self.err(n, f"{type(n).__name__} in infer position")

    def check(self, n, ty, sc):
        if isinstance(n, G.Lam):
            sc2 = dict(sc)
            for x, t in n.binders:
                if not isinstance(ty, Fun) or (t is not None and t != ty.arg):
                    self.err(n, f"lambda against {show_ty(ty)}")
                sc2[x] = ty.arg
                ty = ty.res
            return self.check(n.body, ty, sc2)
        if isinstance(n, G.Tuple):
            if not isinstance(ty, Pair):
                self.err(n, f"pair against {show_ty(ty)}")
            self.check(n.fst, ty.fst, sc)
            return self.check(n.snd, ty.snd, sc)
        if isinstance(n, G.ArrayLit):
            if not isinstance(ty, Arr) or ty.n != len(n.elems) or ty.elem != n.elem_ty:
                self.err(n, f"array literal against {show_ty(ty)}")
            for e in n.elems:
                self.check(e, ty.elem, sc)
            return
        if isinstance(n, G.If):
            self.check(n.cond, BOOL, sc)
            self.check(n.then, ty, sc)
            return self.check(n.els, ty, sc)
        if isinstance(n, G.Lit) and n.ty == I64:
            if ty != I64 or not (I64_MIN < n.value <= I64_MAX):
                self.err(n, f"I64 literal against {show_ty(ty)}")
            return
        if isinstance(n, G.IdxLit):
            if ty != Idx(n.n):
                self.err(n, f"idx against {show_ty(ty)}")
            return self.check(n.k, NAT, sc)
        if isinstance(n, G.Let):
            vt = n.ty if n.ty is not None else self.infer(n.value, sc)
            if n.ty is not None:
                self.check(n.value, n.ty, sc)
            return self.check(n.body, ty, dict(sc, **{n.name: vt}))
        if isinstance(n, G.Var) and n.name not in sc and self.schemes.get(n.name, ([],))[0]:
            if not match(self.schemes[n.name][1], ty, {}):   # implicit arguments inserted
                self.err(n, f"does not instantiate to {show_ty(ty)}")
            return
        if isinstance(n, G.App):
            t = self.app(n, sc, ty)
        else:
            t = self.infer(n, sc)
        if t != ty:
            self.err(n, f"has type {show_ty(t)}, expected {show_ty(ty)}")

    def binop(self, n, sc):
        t = self.infer(n.left, sc)
        ok = {"&&": [BOOL], "||": [BOOL], "==": [I64, NAT, F64, BOOL], "!=": [I64, NAT, F64, BOOL],
              "%": [I64, NAT]}.get(n.op, [I64, NAT, F64])
        if t not in ok or t != n.ty:
            self.err(n, f"operator {n.op} on {show_ty(t)}")
        self.check(n.right, t, sc)
        return t if n.op in ARITH else BOOL

    def app(self, n, sc, expected):
        if not isinstance(n.fn, G.Var):
            self.err(n, "application of a non-name")
        args = n.args
        if n.fn.name == "build":
            return self.build(n, sc, expected)
        if n.fn.name in sc:
            tps, t = [], sc[n.fn.name]
        elif n.fn.name in self.schemes:
            tps, t = self.schemes[n.fn.name]
        else:
            self.err(n, "unknown function")
        tyargs = [a for a in args if isinstance(a, G.TyArg)]
        if tyargs and (len(tyargs) != len(tps) or any(not isinstance(a, G.TyArg) for a in args[:len(tps)])):
            self.err(n, "explicit type arguments: all, first")
        sub = {name: a.ty for (name, _), a in zip(tps, tyargs)}
        for a in args[len(tyargs):]:
            if not isinstance(t, Fun):
                self.err(n, "too many arguments")
            p = subst(t.arg, sub)
            if tvars_of(p):                  # an argument that determines a type parameter
                at = self.infer(a, sc)
                if not match(p, at, sub):
                    self.err(a, f"argument of type {show_ty(at)} for {show_ty(p)}")
            else:
                self.check(a, p, sc)
            t = t.res
        if tvars_of(subst(t, sub)):
            if expected is None or not match(subst(t, sub), expected, sub):
                self.err(n, "type arguments not determined")
        return subst(t, sub)

    def build(self, n, sc, expected):
        args = n.args
        tyarg = args[0].ty if isinstance(args[0], G.TyArg) else None
        rest = args[1:] if tyarg is not None else args
        if len(rest) != 2 or not isinstance(rest[0], G.Lit) or rest[0].ty != NAT or not isinstance(rest[1], G.Lam):
            self.err(n, "build n (λ i. …) with a literal n")
        size, lam = rest[0].value, rest[1]
        if len(lam.binders) != 1:
            self.err(n, "build's function takes one index")
        sc2 = dict(sc, **{lam.binders[0][0]: Idx(size)})
        if tyarg is not None:
            self.check(lam.body, tyarg, sc2)
            elem = tyarg
        else:
            elem = self.infer(lam.body, sc2)
        return Arr(size, elem)


def check_programs(count, seed):
    progs = typed_program.generate(count, seed)
    again = typed_program.generate(min(count, 100), seed)
    for p, q in zip(progs, again):
        if p.text() != q.text() or p.expected() != q.expected():
            fail(f"program {p.pid}: generation is not deterministic")
    nevals = 0
    for p in progs:
        checker = Checker(p.defs)
        names = set()
        for d in p.defs:
            if d.name in names:
                fail(f"program {p.pid}: {d.name} defined twice")
            names.add(d.name)
            if not d.name.endswith(f"_p{p.pid}"):
                fail(f"program {p.pid}: name {d.name} without the program's suffix")
            if isinstance(d.body, G.Raw):            # a library template
                continue
            roundtrip(p, d.body)
            try:
                checker.check(d.body, d.ty, {})
            except NotWellTyped as ex:
                fail(f"program {p.pid}, {d.name}: {ex}")
        for e in p.evals:
            nevals += 1
            roundtrip(p, e.node)
            try:
                t = checker.infer(e.node, {})
                if t != e.ty:
                    fail(f"program {p.pid}: .eval has type {show_ty(t)}, generator says {show_ty(e.ty)}")
            except NotWellTyped as ex:
                fail(f"program {p.pid}, .eval: {ex}")
            if "\n" in e.expected or not e.expected:
                fail(f"program {p.pid}: expected output {e.expected!r}")
        # each .eval alone, with only the definitions it needs, is a program too
        for i in range(len(p.evals)):
            sub = p.text(eval_indices=[i])
            for d in p.needed([i]):
                if d.render() not in sub:
                    fail(f"program {p.pid}: minimal program for .eval {i} lacks {d.name}")
    print(f"{len(progs)} programs, {nevals} .evals: deterministic, round-trip, checked")
    return progs


def roundtrip(p, node):
    text = node.text()
    try:
        got = Parser(text).whole()
    except (SyntaxError, IndexError) as ex:
        fail(f"program {p.pid}: does not parse ({ex}): {text}")
        return
    if got != sexp(node):
        fail(f"program {p.pid}: parses differently than generated: {text}")


# ------------------------------------------------------------ 4. thorin elaborates the shadow

def norm_type(s):
    return re.sub(r"[\s()]", "", s)


def check_shadow(exe, progs, per_file=50):
    with tempfile.TemporaryDirectory() as d:
        for b in range(0, len(progs), per_file):
            chunk = progs[b:b + per_file]
            path = os.path.join(d, f"shadow_{b // per_file:03d}.thorin")
            with open(path, "w", encoding="utf-8") as f:
                f.write(typed_program.batch_text(chunk, shadow=True))
            r = thorin.run(exe, "check", os.path.basename(path), cwd=d, merge=True, timeout=300)
            out = r.out
            if r.code != 0:
                fail(f"shadow batch {b // per_file}: thorin check exit {r.code}\n{out[:3000]}")
                continue
            want = [show_ty(e.ty, shadow=True) for q in chunk for e in q.evals]
            lines = out.splitlines()
            if len(lines) != len(want):
                fail(f"shadow batch {b // per_file}: {len(lines)} lines for {len(want)} .checks")
                continue
            for line, w in zip(lines, want):
                if norm_type(line.rsplit(" : ", 1)[-1]) != norm_type(w):
                    fail(f"shadow: `{line}` does not have type {w}")
    print(f"shadow: {len(progs)} programs elaborate with thorin check")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("thorin", nargs="?")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", default="20240601")
    a = ap.parse_args()
    check_semantics()
    check_templates()
    progs = check_programs(a.count, a.seed)
    if a.thorin:
        check_shadow(os.path.abspath(a.thorin), progs)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Random well-typed thorin programs, with the output `thorin run` must print.

  gen.py [--count N] [--seed S] [--shadow]      print programs (and expected output)
  gen.py --out DIR [--per-file K] ...           write batch files DIR/batch_NNN.thorin
                                                         and DIR/batch_NNN.expected

A program is a few top-level definitions whose names end in a suffix unique to
the program (`_p17`), followed by `.eval` lines. The generator works on a small
typed AST: it first picks a type, then a term of that type (one generator
function per type: `gen_i64`, `gen_nat`, `gen_bool`, `gen_f64`, `gen_fun`,
`gen_pair`, `gen_array`, `gen_idx`, `gen_church`), so programs are well-typed
by construction. The AST renders to thorin text and is evaluated here, in
Python, to the value each `.eval` prints (docs/runtime.md; %core's
arithmetic is core_model.py's) — a third computation next to thorin's
interpreter and its JIT.

Choices that keep a program's meaning independent of details the spec leaves
open:
- Terms are generated in one of two modes. In *check* mode the expected type
  is known (an argument, a definition body, a typed `let`, the right operand
  of an operator); in *infer* mode it is not (the left operand of an operator,
  both sides of a comparison, `.eval`, the array of `get`, arguments that
  determine an implicit type argument). Bare `I64` literals, negative literals
  (`0 - 7`), `if`, unannotated lambdas, pairs and array literals appear only
  in check mode; in infer mode an `I64` constant is `(0 - 7 : I64)` or
  `natToI64 7`, and a pair is annotated or bound by a typed `let`.
- `I64` division and remainder only by divisors that cannot be 0 or -1 (a
  literal, or `e % 7 + 8`); `Nat` ones by a literal or `e % 7 + 1`;
  `idx`, `natToI64` and `i64ToNat` only on arguments in range by construction
  (`e % n`, `e % 1000000007`, `e % 1000 + 1000`).
- Recursive calls decrease a counter that call sites bound (a small literal or
  `e % (b + 1)`).
- `F64` values are dyadic rationals of small magnitude; a printed `F64` must
  be k/256 with |x| < 10000 (so `2.5` and `3.0` read the same under every
  "shortest round-trip" printer), otherwise the `.eval` is regenerated.
- Printed values avoid what the spec does not pin down: no `Idx`, no nested
  pair in the second component (`(1, (2, 3))` vs `(1, 2, 3)`), no strings.
- The Python evaluator is strict (arguments, both sides of `&&`/`||`, unused
  `let`s), except for `if`; any run-time error, unsafe `F64` or fuel
  exhaustion makes the generator throw the program part away and retry, so a
  lazier thorin cannot fail where Python succeeded.

`--shadow` renders the same programs in the core language alone: builtin
types, literals, operators and `if` become postulates (`.ax L_add_I64 : I64 →
I64 → I64`, `ite {A} c a b`), `(e : A)` becomes `id {A} e`, `.eval` becomes
`.check`, and a recursive definition is preceded by a postulate of its own
name. `thorin check` on that text type-checks everything else (implicit
arguments, Church encodings, Σ, arrays, lets) with the real elaborator,
independently of the builtins; tests/scripts/test_gen_programs.py does that.
"""
import argparse
import math
import os
import random
import re
import sys
from dataclasses import dataclass
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import core_model  # noqa: E402
from core_model import I64_MIN, I64_MAX  # noqa: E402

sys.setrecursionlimit(20000)


# ---------------------------------------------------------------- types

class Ty:
    pass


@dataclass(frozen=True)
class Base(Ty):
    name: str                       # I64 Nat Bool F64


@dataclass(frozen=True)
class Fun(Ty):
    arg: Ty
    res: Ty


@dataclass(frozen=True)
class Pair(Ty):
    fst: Ty
    snd: Ty


@dataclass(frozen=True)
class Arr(Ty):
    n: object                       # an int, or the name of a Nat type parameter
    elem: Ty


@dataclass(frozen=True)
class Idx(Ty):
    n: object


@dataclass(frozen=True)
class Church(Ty):
    kind: str                       # nat, bool, list
    name: str                       # the program's type definition, e.g. CN_p3
    elem: Optional[Ty] = None       # element type of a list


@dataclass(frozen=True)
class TVar(Ty):
    name: str


I64, NAT, BOOL, F64 = Base("I64"), Base("Nat"), Base("Bool"), Base("F64")

T_ARROW, T_PROD, T_APP, T_ATOM = 0, 1, 2, 3


def show_nat(n, shadow):
    return n if isinstance(n, str) else (f"L_n{n}" if shadow else str(n))


def show_ty(t, shadow=False, lvl=T_ARROW):
    def par(s, level):
        return s if level >= lvl else f"({s})"
    if isinstance(t, Base):
        return t.name
    if isinstance(t, TVar):
        return t.name
    if isinstance(t, Fun):
        res = show_ty(t.res, shadow, T_ARROW if isinstance(t.res, Fun) else T_APP)
        return par(f"{show_ty(t.arg, shadow, T_APP)} → {res}", T_ARROW)
    if isinstance(t, Pair):
        return par(f"{show_ty(t.fst, shadow, T_APP)} × {show_ty(t.snd, shadow, T_APP)}", T_PROD)
    if isinstance(t, Arr):
        return par(f"Array {show_nat(t.n, shadow)} {show_ty(t.elem, shadow, T_ATOM)}", T_APP)
    if isinstance(t, Idx):
        return par(f"Idx {show_nat(t.n, shadow)}", T_APP)
    if isinstance(t, Church):
        if t.elem is None:
            return t.name
        return par(f"{t.name} {show_ty(t.elem, shadow, T_ATOM)}", T_APP)
    raise TypeError(t)


def fun_type(params, res):
    for p in reversed(params):
        res = Fun(p, res)
    return res


def uncurry(t):
    params = []
    while isinstance(t, Fun):
        params.append(t.arg)
        t = t.res
    return params, t


def tvars_of(t, acc=None):
    acc = set() if acc is None else acc
    if isinstance(t, TVar):
        acc.add(t.name)
    elif isinstance(t, Fun):
        tvars_of(t.arg, acc)
        tvars_of(t.res, acc)
    elif isinstance(t, Pair):
        tvars_of(t.fst, acc)
        tvars_of(t.snd, acc)
    elif isinstance(t, (Arr, Idx)):
        if isinstance(t.n, str):
            acc.add(t.n)
        if isinstance(t, Arr):
            tvars_of(t.elem, acc)
    elif isinstance(t, Church) and t.elem is not None:
        tvars_of(t.elem, acc)
    return acc


def match(pat, t, sub):
    """Extends `sub` so that pat[sub] == t; False when impossible."""
    if isinstance(pat, TVar):
        if pat.name in sub:
            return sub[pat.name] == t
        sub[pat.name] = t
        return True
    if type(pat) is not type(t):
        return False
    if isinstance(pat, Base):
        return pat == t
    if isinstance(pat, Fun):
        return match(pat.arg, t.arg, sub) and match(pat.res, t.res, sub)
    if isinstance(pat, Pair):
        return match(pat.fst, t.fst, sub) and match(pat.snd, t.snd, sub)
    if isinstance(pat, (Arr, Idx)):
        if isinstance(pat.n, str):
            if sub.setdefault(pat.n, t.n) != t.n:
                return False
        elif pat.n != t.n:
            return False
        return not isinstance(pat, Arr) or match(pat.elem, t.elem, sub)
    if isinstance(pat, Church):
        if pat.name != t.name:
            return False
        return pat.elem is None or match(pat.elem, t.elem, sub)
    return False


def subst(t, sub):
    if isinstance(t, TVar):
        return sub.get(t.name, t)
    if isinstance(t, Fun):
        return Fun(subst(t.arg, sub), subst(t.res, sub))
    if isinstance(t, Pair):
        return Pair(subst(t.fst, sub), subst(t.snd, sub))
    if isinstance(t, Arr):
        return Arr(sub.get(t.n, t.n) if isinstance(t.n, str) else t.n, subst(t.elem, sub))
    if isinstance(t, Idx):
        return Idx(sub.get(t.n, t.n) if isinstance(t.n, str) else t.n)
    if isinstance(t, Church) and t.elem is not None:
        return Church(t.kind, t.name, subst(t.elem, sub))
    return t


def printable(t):
    """Types whose values print the same under every reading of the spec."""
    if isinstance(t, Base):
        return True
    if isinstance(t, Pair):
        return printable(t.fst) and printable(t.snd) and not isinstance(t.snd, Pair)
    if isinstance(t, Arr):
        return printable(t.elem)
    return False


# ---------------------------------------------------------------- values

class Reject(Exception):
    """The program part is thrown away: a run-time error, an unsafe F64, or no fuel."""


class ArrV(list):
    pass


@dataclass(frozen=True)
class IdxV:
    n: int
    k: int


TYPE = object()                     # the value of a type passed as an explicit argument


class Fuel:
    left = 0

    @classmethod
    def tick(cls):
        cls.left -= 1
        if cls.left < 0:
            raise Reject("out of fuel")


def check_f64(x):
    if not math.isfinite(x):
        raise Reject("non-finite F64")
    return x


def f64_printable(x):
    return (math.isfinite(x) and abs(x) < 10000 and (x * 256).is_integer()
            and not (x == 0 and math.copysign(1, x) < 0))


def show_f64(x):
    if not f64_printable(x):
        raise Reject(f"F64 {x!r} may print differently")
    return f"{int(x)}.0" if x.is_integer() else repr(x)


def show_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return show_f64(v)
    if isinstance(v, tuple):
        return f"({show_value(v[0])}, {show_value(v[1])})"
    if isinstance(v, ArrV):
        return "[" + ", ".join(show_value(x) for x in v) + "]"
    if callable(v):
        return "<function>"
    raise TypeError(v)


def binop(op, ty, a, b):
    """The semantics of docs/runtime.md for `a op b` at operand type `ty`
    (core_model's), except what a program must avoid: a division by zero,
    INT64_MIN / -1, an F64 that is not finite, a Nat over 512 bits."""
    if op in ("&&", "||"):
        return (a and b) if op == "&&" else (a or b)
    if op in core_model.COMPARE:
        return core_model.compare(op, a, b)
    if op in ("/", "%") and b == 0:
        raise Reject(f"{ty.name} division by zero")
    if ty == I64 and op in ("/", "%") and a == I64_MIN and b == -1:
        raise Reject("I64_MIN / -1 is not specified")
    r = core_model.arith(op, ty.name, a, b)
    if ty == NAT and r.bit_length() > 512:
        raise Reject("Nat too large")
    return check_f64(r) if ty == F64 else r


def nat_to_i64(n):
    if n > I64_MAX:
        raise Reject("natToI64: too large")
    return n


def i64_to_nat(x):
    if x < 0:
        raise Reject("i64ToNat: negative")
    return x


def f64_to_i64(x):
    if math.isnan(x) or not (I64_MIN <= math.trunc(x) <= I64_MAX):
        raise Reject("f64ToI64: out of range")
    return int(math.trunc(x))


def i64_to_f64(x):
    return check_f64(float(x))


def nat_to_f64(x):
    if x > 1 << 53:
        raise Reject("natToF64 of a large Nat may round differently")
    return float(x)


def get_(a):
    return lambda i: a[i.k]


def set_(a):
    return lambda i: lambda v: ArrV(a[:i.k] + [v] + a[i.k + 1:])


BUILTIN_VALUES = {
    "natToI64": nat_to_i64,
    "i64ToNat": i64_to_nat,
    "i64ToF64": i64_to_f64,
    "f64ToI64": f64_to_i64,
    "natToF64": nat_to_f64,
    "sqrt": lambda x: check_f64(math.sqrt(x)) if x >= 0 else float("nan"),
    "not": lambda b: not b,
    "get": get_,
    "set": set_,
    "length": lambda a: len(a),
    "idxToNat": lambda i: i.k,
    "build": lambda n: lambda f: ArrV(f(IdxV(n, k)) for k in range(n)),
    # the prelude
    "id": lambda x: x,
    "const": lambda x: lambda _y: x,
    "comp": lambda f: lambda g: lambda x: f(g(x)),
    "flip": lambda f: lambda y: lambda x: f(x)(y),
}


# ---------------------------------------------------------------- terms

L_OPEN, L_OR, L_AND, L_CMP, L_ADD, L_MUL, L_APP, L_ATOM = range(8)
OP_LEVEL = {"||": L_OR, "&&": L_AND, "==": L_CMP, "!=": L_CMP, "<": L_CMP, "<=": L_CMP,
            ">": L_CMP, ">=": L_CMP, "+": L_ADD, "-": L_ADD, "*": L_MUL, "/": L_MUL, "%": L_MUL}
OP_NAME = {"||": "or", "&&": "and", "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt",
           ">=": "ge", "+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem"}


def f64_shadow_name(x):
    return "L_f" + repr(x).replace("-", "m").replace(".", "_")


class Node:
    def render(self, shadow):
        """(text, precedence level)"""
        raise NotImplementedError

    def ev(self, env):
        raise NotImplementedError

    def text(self, shadow=False, lvl=L_OPEN):
        s, level = self.render(shadow)
        return s if level >= lvl else f"({s})"


class Var(Node):
    def __init__(self, name):
        self.name = name

    def render(self, shadow):
        return self.name, L_ATOM

    def ev(self, env):
        return env[self.name]


class Lit(Node):
    def __init__(self, ty, value):
        self.ty, self.value = ty, value

    def render(self, shadow):
        v = self.value
        if self.ty == BOOL:
            return ("true" if v else "false"), L_ATOM
        if shadow:
            if self.ty == I64:
                return (f"L_i{v}" if v >= 0 else f"L_im{-v}"), L_ATOM
            if self.ty == NAT:
                return f"L_n{v}", L_ATOM
            return f64_shadow_name(v), L_ATOM
        if self.ty == F64:
            return (repr(v), L_ATOM) if v >= 0 else (f"0.0 - {repr(-v)}", L_ADD)
        return (str(v), L_ATOM) if v >= 0 else (f"0 - {-v}", L_ADD)

    def ev(self, env):
        return self.value


class BinOp(Node):
    def __init__(self, op, ty, left, right):
        self.op, self.ty, self.left, self.right = op, ty, left, right   # ty: the operand type

    def render(self, shadow):
        if shadow:
            name = OP_NAME[self.op] if self.op in ("&&", "||") else f"{OP_NAME[self.op]}_{self.ty.name}"
            return f"L_{name} {self.left.text(True, L_ATOM)} {self.right.text(True, L_ATOM)}", L_APP
        lvl = OP_LEVEL[self.op]
        lmin = lvl + 1 if lvl == L_CMP else lvl           # comparisons do not associate
        return f"{self.left.text(False, lmin)} {self.op} {self.right.text(False, lvl + 1)}", lvl

    def ev(self, env):
        a = self.left.ev(env)
        b = self.right.ev(env)                          # strict, also for && and ||
        return binop(self.op, self.ty, a, b)


class TyArg:
    """An explicit implicit argument `{T}`; erased at run time."""

    def __init__(self, ty):
        self.ty = ty

    def text(self, shadow, lvl=L_OPEN):
        if isinstance(self.ty, int):                    # a Nat argument, e.g. get {I64} {3}
            return "{" + show_nat(self.ty, shadow) + "}"
        return "{" + show_ty(self.ty, shadow) + "}"


class App(Node):
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def render(self, shadow):
        parts = [self.fn.text(shadow, L_APP)] + [a.text(shadow, L_ATOM) for a in self.args]
        return " ".join(parts), L_APP

    def ev(self, env):
        f = self.fn.ev(env)
        vals = [a.ev(env) for a in self.args if not isinstance(a, TyArg)]
        for v in vals:
            Fuel.tick()
            f = f(v)
        return f


class Lam(Node):
    def __init__(self, binders, body):
        self.binders, self.body = binders, body         # binders: [(name, type or None)]

    def render(self, shadow):
        bs = " ".join(n if t is None else f"({n} : {show_ty(t, shadow)})" for n, t in self.binders)
        return f"λ {bs}. {self.body.text(shadow)}", L_OPEN

    def ev(self, env):
        names = [n for n, _ in self.binders]
        body = self.body

        def make(i, env):
            def f(x):
                e2 = Env(env, names[i], x)
                return make(i + 1, e2) if i + 1 < len(names) else body.ev(e2)
            return f
        return make(0, env)


class Let(Node):
    def __init__(self, name, ty, value, body):
        self.name, self.ty, self.value, self.body = name, ty, value, body

    def render(self, shadow):
        ann = "" if self.ty is None else f" : {show_ty(self.ty, shadow)}"
        return f"let {self.name}{ann} = {self.value.text(shadow)}; {self.body.text(shadow)}", L_OPEN

    def ev(self, env):
        return self.body.ev(Env(env, self.name, self.value.ev(env)))


class If(Node):
    def __init__(self, ty, cond, then, els):
        self.ty, self.cond, self.then, self.els = ty, cond, then, els

    def render(self, shadow):
        if shadow:
            return (f"ite {{{show_ty(self.ty, True)}}} {self.cond.text(True, L_ATOM)} "
                    f"{self.then.text(True, L_ATOM)} {self.els.text(True, L_ATOM)}"), L_APP
        return (f"if {self.cond.text(False, L_OR)} then {self.then.text(False, L_OR)} "
                f"else {self.els.text(False)}"), L_OPEN

    def ev(self, env):
        return self.then.ev(env) if self.cond.ev(env) else self.els.ev(env)


class Ann(Node):
    """`(e : A)`: e checked against A, so the whole can be inferred."""

    def __init__(self, node, ty):
        self.node, self.ty = node, ty

    def render(self, shadow):
        if shadow:                                  # the core-only form: the prelude's id
            return f"id {{{show_ty(self.ty, True)}}} {self.node.text(True, L_ATOM)}", L_APP
        return f"({self.node.text(False, L_OR)} : {show_ty(self.ty)})", L_ATOM

    def ev(self, env):
        return self.node.ev(env)


class Tuple(Node):
    def __init__(self, fst, snd):
        self.fst, self.snd = fst, snd

    def render(self, shadow):
        return f"({self.fst.text(shadow, L_OR)}, {self.snd.text(shadow, L_OR)})", L_ATOM

    def ev(self, env):
        return (self.fst.ev(env), self.snd.ev(env))


class Proj(Node):
    def __init__(self, pair, k):
        self.pair, self.k = pair, k

    def render(self, shadow):
        return f"{self.pair.text(shadow, L_ATOM)}.{self.k}", L_ATOM

    def ev(self, env):
        return self.pair.ev(env)[self.k - 1]


class ArrayLit(Node):
    def __init__(self, elem_ty, elems):
        self.elem_ty, self.elems = elem_ty, elems

    def render(self, shadow):
        if shadow:
            args = "".join(" " + e.text(True, L_ATOM) for e in self.elems)
            return f"L_alit{len(self.elems)} {{{show_ty(self.elem_ty, True)}}}{args}", L_APP
        return "[" + ", ".join(e.text(False, L_OR) for e in self.elems) + "]", L_ATOM

    def ev(self, env):
        return ArrV(e.ev(env) for e in self.elems)


class IdxLit(Node):
    """`idx k` or `idx {n} k` at type Idx n."""

    def __init__(self, n, k, explicit):
        self.n, self.k, self.explicit = n, k, explicit

    def render(self, shadow):
        n = f" {{{show_nat(self.n, shadow)}}}" if self.explicit else ""
        return f"idx{n} {self.k.text(shadow, L_ATOM)}", L_APP

    def ev(self, env):
        k = self.k.ev(env)
        if k >= self.n:
            raise Reject("idx out of range")
        return IdxV(self.n, k)


class Env:
    """A persistent environment: a chain of bindings ending at the globals."""
    __slots__ = ("parent", "name", "value")

    def __init__(self, parent, name, value):
        self.parent, self.name, self.value = parent, name, value

    def __getitem__(self, name):
        e = self
        while isinstance(e, Env):
            if e.name == name:
                return e.value
            e = e.parent
        return e[name]


# ---------------------------------------------------------------- library templates

@dataclass
class Template:
    key: str            # the name without suffix; '@' in texts stands for the suffix
    module: str
    tparams: list       # [(name, 'U' or 'Nat')]
    sig: object         # function (church types) -> type; None for type definitions
    body: str           # thorin text
    shadow: Optional[str]
    value: object       # function (globals) -> Python value; None for type definitions
    counters: dict      # explicit parameter index -> largest useful value
    sig_text: str = ""  # for type definitions


def _t(key, module, tparams, sig, body, value, shadow=None, counters=None):
    return Template(key, module, tparams, sig, body, shadow, value, counters or {})


A, B, C = TVar("A"), TVar("B"), TVar("C")


def _cnat_templates():
    def tick_succ(k):
        Fuel.tick()
        return k + 1
    return [
        Template("CN", "cnat", [], None, "(N : U) → (N → N) → N → N", None, None, {}, "U"),
        _t("czero", "cnat", [], lambda c: c["nat"], "λ N f x. x",
           lambda g: lambda N: lambda f: lambda x: x),
        _t("csuc", "cnat", [], lambda c: Fun(c["nat"], c["nat"]), "λ n N f x. f (n N f x)",
           lambda g: lambda n: lambda N: lambda f: lambda x: f(n(N)(f)(x))),
        _t("cadd", "cnat", [], lambda c: fun_type([c["nat"], c["nat"]], c["nat"]),
           "λ a b N f x. a N f (b N f x)",
           lambda g: lambda a: lambda b: lambda N: lambda f: lambda x: a(N)(f)(b(N)(f)(x))),
        _t("cmul", "cnat", [], lambda c: fun_type([c["nat"], c["nat"]], c["nat"]),
           "λ a b N f x. a N (b N f) x",
           lambda g: lambda a: lambda b: lambda N: lambda f: lambda x: a(N)(b(N)(f))(x)),
        _t("cnI", "cnat", [], lambda c: Fun(c["nat"], I64), "λ n. n I64 (λ k. k + 1) 0",
           lambda g: lambda n: n(TYPE)(lambda k: core_model.wrap(tick_succ(k)))(0),
           shadow="λ n. n I64 (λ k. L_add_I64 k L_i1) L_i0"),
        _t("cnN", "cnat", [], lambda c: Fun(c["nat"], NAT), "λ n. n Nat (λ k. k + 1) 0",
           lambda g: lambda n: n(TYPE)(tick_succ)(0),
           shadow="λ n. n Nat (λ k. L_add_Nat k L_n1) L_n0"),
        _t("cfromN", "cnat", [], lambda c: Fun(NAT, c["nat"]),
           "λ k. if k == 0 then czero@ else csuc@ (cfromN@ (k - 1))",
           lambda g: lambda k: g["czero@"] if k == 0 else g["csuc@"](g["cfromN@"](k - 1)),
           shadow="λ k. ite {CN@} (L_eq_Nat k L_n0) czero@ (csuc@ (cfromN@ (L_sub_Nat k L_n1)))",
           counters={0: 6}),
        _t("citer", "cnat", [("A", "U")], lambda c: fun_type([c["nat"], Fun(A, A), A], A),
           "λ {A} n f x. n A f x",
           lambda g: lambda n: lambda f: lambda x: n(TYPE)(f)(x)),
    ]


def _cbool_templates():
    return [
        Template("CB", "cbool", [], None, "(B : U) → B → B → B", None, None, {}, "U"),
        _t("ctrue", "cbool", [], lambda c: c["bool"], "λ B t f. t",
           lambda g: lambda B: lambda t: lambda f: t),
        _t("cfalse", "cbool", [], lambda c: c["bool"], "λ B t f. f",
           lambda g: lambda B: lambda t: lambda f: f),
        _t("cnot", "cbool", [], lambda c: Fun(c["bool"], c["bool"]), "λ b B t f. b B f t",
           lambda g: lambda b: lambda B: lambda t: lambda f: b(B)(f)(t)),
        _t("cand", "cbool", [], lambda c: fun_type([c["bool"], c["bool"]], c["bool"]),
           "λ a b. a CB@ b cfalse@", lambda g: lambda a: lambda b: a(TYPE)(b)(g["cfalse@"])),
        _t("cor", "cbool", [], lambda c: fun_type([c["bool"], c["bool"]], c["bool"]),
           "λ a b. a CB@ ctrue@ b", lambda g: lambda a: lambda b: a(TYPE)(g["ctrue@"])(b)),
        _t("cbB", "cbool", [], lambda c: Fun(c["bool"], BOOL), "λ b. b Bool true false",
           lambda g: lambda b: b(TYPE)(True)(False)),
        _t("cfromB", "cbool", [], lambda c: Fun(BOOL, c["bool"]),
           "λ b. if b then ctrue@ else cfalse@",
           lambda g: lambda b: g["ctrue@"] if b else g["cfalse@"],
           shadow="λ b. ite {CB@} b ctrue@ cfalse@"),
        _t("cif", "cbool", [("A", "U")], lambda c: fun_type([c["bool"], A, A], A),
           "λ {A} b t f. b A t f", lambda g: lambda b: lambda t: lambda f: b(TYPE)(t)(f)),
    ]


def _clist_templates():
    def lst(c, e):
        return Church("list", c["list"], e)

    def crange(g):
        def go(k):
            return g["cnil@"] if k <= 0 else g["ccons@"](k)(go(k - 1))
        return go

    def csum(xs):
        def add(a):
            def f(r):
                Fuel.tick()
                return core_model.wrap(a + r)
            return f
        return xs(TYPE)(add)(0)
    return [
        Template("CL", "clist", [], None, "λ A. (L : U) → (A → L → L) → L → L", None, None, {},
                 "U → U"),
        _t("cnil", "clist", [("A", "U")], lambda c: lst(c, A), "λ L c n. n",
           lambda g: lambda L: lambda c: lambda n: n),
        _t("ccons", "clist", [("A", "U")], lambda c: fun_type([A, lst(c, A)], lst(c, A)),
           "λ a xs L c n. c a (xs L c n)",
           lambda g: lambda a: lambda xs: lambda L: lambda c: lambda n: c(a)(xs(L)(c)(n))),
        _t("cmap", "clist", [("A", "U"), ("B", "U")],
           lambda c: fun_type([Fun(A, B), lst(c, A)], lst(c, B)),
           "λ f xs L c n. xs L (λ a. c (f a)) n",
           lambda g: lambda f: lambda xs: lambda L: lambda c: lambda n: xs(L)(lambda a: c(f(a)))(n)),
        _t("clen", "clist", [("A", "U")], lambda c: Fun(lst(c, A), NAT),
           "λ xs. xs Nat (λ _ r. r + 1) 0",
           lambda g: lambda xs: xs(TYPE)(lambda _a: lambda r: r + 1)(0),
           shadow="λ xs. xs Nat (λ _ r. L_add_Nat r L_n1) L_n0"),
        _t("csum", "clist", [], lambda c: Fun(lst(c, I64), I64), "λ xs. xs I64 (λ a r. a + r) 0",
           lambda g: csum, shadow="λ xs. xs I64 (λ a r. L_add_I64 a r) L_i0"),
        _t("cfold", "clist", [("A", "U"), ("B", "U")],
           lambda c: fun_type([fun_type([A, B], B), B, lst(c, A)], B),
           "λ {A} {B} f z xs. xs B f z",
           lambda g: lambda f: lambda z: lambda xs: xs(TYPE)(f)(z)),
        _t("crange", "clist", [], lambda c: Fun(I64, lst(c, I64)),
           "λ k. if k <= 0 then cnil@ else ccons@ k (crange@ (k - 1))", crange,
           shadow="λ k. ite {CL@ I64} (L_le_I64 k L_i0) cnil@ (ccons@ k (crange@ (L_sub_I64 k L_i1)))",
           counters={0: 8}),
    ]


def _ho_templates():
    def iter_n(g):
        def loop(n, f, x):
            while n > 0:
                Fuel.tick()
                x = f(x)
                n -= 1
            return x
        return lambda n: lambda f: lambda x: loop(n, f, x)
    return [
        _t("twice", "ho", [("A", "U")], lambda c: fun_type([Fun(A, A), A], A), "λ f x. f (f x)",
           lambda g: lambda f: lambda x: f(f(x))),
        _t("compose", "ho", [("A", "U"), ("B", "U"), ("C", "U")],
           lambda c: fun_type([Fun(B, C), Fun(A, B), A], C), "λ f g x. f (g x)",
           lambda g: lambda f: lambda h: lambda x: f(h(x))),
        _t("papply", "ho", [("A", "U"), ("B", "U")], lambda c: fun_type([Fun(A, B), A], B),
           "λ f x. f x", lambda g: lambda f: lambda x: f(x)),
        _t("pswap", "ho", [("A", "U"), ("B", "U")], lambda c: Fun(Pair(A, B), Pair(B, A)),
           "λ p. (p.2, p.1)", lambda g: lambda p: (p[1], p[0])),
        _t("pboth", "ho", [("A", "U"), ("B", "U")],
           lambda c: fun_type([Fun(A, B), Pair(A, A)], Pair(B, B)), "λ f p. (f p.1, f p.2)",
           lambda g: lambda f: lambda p: (f(p[0]), f(p[1]))),
        _t("iterN", "ho", [("A", "U")], lambda c: fun_type([I64, Fun(A, A), A], A),
           "λ n f x. if n <= 0 then x else iterN@ (n - 1) f (f x)", iter_n,
           shadow="λ {A} n f x. ite {A} (L_le_I64 n L_i0) x (iterN@ (L_sub_I64 n L_i1) f (f x))",
           counters={0: 20}),
        _t("mkAdd", "ho", [], lambda c: fun_type([I64, I64], I64), "λ a. λ b. a + b",
           lambda g: lambda a: lambda b: core_model.wrap(a + b), shadow="λ a. λ b. L_add_I64 a b"),
    ]


def _arr_templates():
    def asum_from(g):
        def go(xs):
            def from_k(k):
                total = 0
                for i in range(k, len(xs)):
                    Fuel.tick()
                    total = core_model.wrap(xs[i] + total)
                return total
            return from_k
        return go
    return [
        _t("amap", "arr", [("A", "U"), ("B", "U"), ("n", "Nat")],
           lambda c: fun_type([Fun(A, B), Arr("n", A)], Arr("n", B)),
           "λ {A} {B} {n} f xs. build n (λ i. f (get xs i))",
           lambda g: lambda f: lambda xs: ArrV(f(x) for x in xs)),
        _t("asumFrom", "arr", [("n", "Nat")], lambda c: fun_type([Arr("n", I64), NAT], I64),
           "λ xs k. if k >= length xs then 0 else get xs (idx k) + asumFrom@ xs (k + 1)", asum_from,
           shadow="λ xs k. ite {I64} (L_ge_Nat k (length xs)) L_i0 "
                  "(L_add_I64 (get xs (idx k)) (asumFrom@ xs (L_add_Nat k L_n1)))"),
        _t("asum", "arr", [("n", "Nat")], lambda c: Fun(Arr("n", I64), I64), "λ xs. asumFrom@ xs 0",
           lambda g: lambda xs: g["asumFrom@"](xs)(0), shadow="λ xs. asumFrom@ xs L_n0"),
    ]


TEMPLATES = _cnat_templates() + _cbool_templates() + _clist_templates() + _ho_templates() + _arr_templates()
MODULES = {"cnat": 0.2, "cbool": 0.15, "clist": 0.2, "ho": 0.3, "arr": 0.25}


@dataclass
class Global:
    """A name the generator may call: a builtin, a prelude function or a program definition."""
    name: str
    tparams: list       # [(name, 'U' or 'Nat')]
    params: list        # explicit parameter types (uncurried)
    res: Ty
    counters: dict      # parameter index -> bound, for recursive definitions
    weight: float = 1.0


def _builtin_globals():
    n = "n"
    return [
        Global("get", [("A", "U"), ("n", "Nat")], [Arr(n, A), Idx(n)], A, {}, 0.6),
        Global("set", [("A", "U"), ("n", "Nat")], [Arr(n, A), Idx(n), A], Arr(n, A), {}, 0.4),
        Global("length", [("A", "U"), ("n", "Nat")], [Arr(n, A)], NAT, {}, 0.4),
        Global("idxToNat", [("n", "Nat")], [Idx(n)], NAT, {}, 0.6),
        Global("not", [], [BOOL], BOOL, {}, 0.5),
        Global("i64ToF64", [], [I64], F64, {}, 0.2),
        Global("id", [("A", "U")], [A], A, {}, 0.2),
        Global("const", [("A", "U"), ("B", "U")], [A, B], A, {}, 0.2),
        Global("comp", [("A", "U"), ("B", "U"), ("C", "U")], [Fun(B, C), Fun(A, B), A], C, {}, 0.2),
        Global("flip", [("A", "U"), ("B", "U"), ("C", "U")], [fun_type([A, B], C), B, A], C, {}, 0.2),
    ]


# ---------------------------------------------------------------- programs

@dataclass
class Def:
    name: str
    tparams: list
    ty: Optional[Ty]            # None for a type definition (sig_text then)
    body: object                # Node, or template text
    shadow_body: Optional[str] = None
    sig_text: str = ""
    recursive: bool = False
    agda_style: bool = False

    def render(self, shadow=False):
        if self.ty is None:
            sig = self.sig_text
        else:
            groups = []                             # {A B : U} → {n : Nat} → …
            for n, k in self.tparams:
                if groups and groups[-1][1] == k:
                    groups[-1][0].append(n)
                else:
                    groups.append(([n], k))
            tps = "".join(f"{{{' '.join(ns)} : {k}}} → " for ns, k in groups)
            sig = tps + show_ty(self.ty, shadow)
        if isinstance(self.body, Node):
            body = self.body.text(shadow)
        else:
            body = self.shadow_body if (shadow and self.shadow_body) else self.body
        head = ""
        if shadow and self.recursive:
            head = f".ax {self.name} : {sig}\n"
        if self.agda_style and not shadow:
            return f"{self.name} : {sig}\n{self.name} = {body}\n"
        line = f"{self.name} : {sig} = {body}"
        if len(line) > 100:
            line = f"{self.name} : {sig}\n  = {body}"
        return head + line + "\n"


@dataclass
class Eval:
    node: Node
    ty: Ty
    expected: str

    def render(self, shadow=False):
        return (".check " if shadow else ".eval ") + self.node.text(shadow) + "\n"


IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


class Program:
    def __init__(self, pid, defs, evals):
        self.pid, self.defs, self.evals = pid, defs, evals

    def refs(self, text):
        names = {d.name for d in self.defs}
        return set(IDENT.findall(text)) & names

    def needed(self, eval_indices, roots=()):
        """The definitions the chosen `.eval`s (and `roots`) need, transitively."""
        by_name = {d.name: d for d in self.defs}
        todo = set(roots)
        for i in eval_indices:
            todo |= self.refs(self.evals[i].render())
        seen = set()
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo |= self.refs(by_name[n].render()) - seen
        return [d for d in self.defs if d.name in seen]

    def text(self, shadow=False, eval_indices=None):
        idxs = range(len(self.evals)) if eval_indices is None else eval_indices
        defs = self.defs if eval_indices is None else self.needed(idxs)
        out = [f"-- program {self.pid}\n"]
        out += [d.render(shadow) for d in defs]
        out += [self.evals[i].render(shadow) for i in idxs]
        return "".join(out)

    def expected(self, eval_indices=None):
        idxs = range(len(self.evals)) if eval_indices is None else eval_indices
        return "".join(self.evals[i].expected + "\n" for i in idxs)


class Gen:
    """The generator of one program: types first, then terms of those types."""

    def __init__(self, rng, pid):
        self.r = rng
        self.pid = pid
        self.sfx = f"_p{pid}"
        self.globals = list(_builtin_globals())
        self.values = dict(BUILTIN_VALUES)          # the run-time environment of globals
        self.defs = []
        self.scope = []                             # [(name, type)] of local variables
        self.fresh = 0
        self.church = {}                            # kind -> Church type (list: its name)
        self.use_f64 = rng.random() < 0.15

    # ---- helpers
    def chance(self, p):
        return self.r.random() < p

    def pick(self, weighted):
        total = sum(w for w, _ in weighted)
        x = self.r.random() * total
        for w, v in weighted:
            x -= w
            if x < 0:
                return v
        return weighted[-1][1]

    def new_var(self):
        self.fresh += 1
        return f"v{self.fresh}"

    def with_vars(self, bindings, thunk):
        saved = self.scope
        self.scope = self.scope + bindings
        try:
            return thunk()
        finally:
            self.scope = saved

    # ---- types
    def base_type(self):
        opts = [(4, I64), (2, NAT), (2, BOOL)] + ([(1, F64)] if self.use_f64 else [])
        return self.pick(opts)

    def rand_type(self, depth=1):
        opts = [(8, "base")]
        if depth > 0:
            opts += [(2, "fun"), (1.5, "pair"), (1.5, "arr")]
            if self.church:
                opts.append((1.5, "church"))
        k = self.pick(opts)
        if k == "base":
            return self.base_type()
        if k == "fun":
            if self.chance(0.25):
                return fun_type([self.base_type(), self.base_type()], self.base_type())
            return Fun(self.base_type(), self.rand_type(depth - 1) if self.chance(0.3) else self.base_type())
        if k == "pair":
            return Pair(self.base_type(), self.rand_type(depth - 1))
        if k == "arr":
            return Arr(self.r.randint(1, 4), self.base_type() if self.chance(0.8) else Pair(I64, BOOL))
        kind = self.r.choice(sorted(self.church))
        if kind == "list":
            return Church("list", self.church["list"], self.r.choice([I64, I64, NAT, BOOL]))
        return self.church[kind]

    def printable_type(self):
        k = self.pick([(6, "base"), (1.5, "pair"), (1.5, "arr")])
        if k == "base":
            return self.base_type()
        if k == "pair":
            return Pair(self.base_type() if self.chance(0.8) else Arr(2, I64), self.base_type())
        return Arr(self.r.randint(0, 4), self.base_type() if self.chance(0.85) else Pair(NAT, BOOL))

    # ---- literals
    def i64_value(self):
        k = self.pick([(7, "small"), (2, "mid"), (1, "edge")])
        if k == "small":
            return self.r.randint(-5, 20)
        if k == "mid":
            return self.r.randint(-1000, 1000)
        return self.r.choice([I64_MAX, -I64_MAX, 1 << 62, -(1 << 62), 3037000500, 4294967296,
                              I64_MAX - 1, 9007199254740993])

    def nat_value(self):
        k = self.pick([(7, "small"), (2, "mid"), (1, "big")])
        if k == "small":
            return self.r.randint(0, 20)
        if k == "mid":
            return self.r.randint(0, 100000)
        return self.r.choice([1 << 64, (1 << 64) - 1, 1 << 63, 123456789012345678901234567890,
                              10 ** 40 + 7, 18446744073709551617])

    def f64_value(self):
        return self.r.randint(-40, 40) / self.r.choice([1, 2, 4, 8])

    def i64_const(self, v, infer):
        """An I64 constant; in infer mode `(v : I64)` or `natToI64 v` (v >= 0)."""
        if not infer:
            return Lit(I64, v)
        if self.chance(0.5):
            return Ann(Lit(I64, v), I64)
        return App(Var("natToI64"), [Lit(NAT, abs(v))])

    # ---- the entry point: a term of type ty
    def gen(self, ty, d, infer=False):
        if d > 0 and self.chance(0.4):
            e = self.gen_generic(ty, d, infer)
            if e is not None:
                return e
        if isinstance(ty, Base):
            return {"I64": self.gen_i64, "Nat": self.gen_nat, "Bool": self.gen_bool,
                    "F64": self.gen_f64}[ty.name](d, infer)
        if isinstance(ty, Fun):
            return self.gen_fun(ty, d, infer)
        if isinstance(ty, Pair):
            return self.gen_pair(ty, d, infer)
        if isinstance(ty, Arr):
            return self.gen_array(ty, d, infer)
        if isinstance(ty, Idx):
            return self.gen_idx(ty, d, infer)
        if isinstance(ty, Church):
            return self.gen_church(ty, d, infer)
        raise TypeError(ty)

    # ---- forms that work at every type
    def gen_generic(self, ty, d, infer):
        forms = [(3, self.try_var), (5, self.try_call), (1, self.try_let), (0.7, self.try_proj),
                 (0.7, self.try_get)]
        if not infer:
            forms.append((1.5, self.try_if))
        while forms:
            f = self.pick(forms)
            e = f(ty, d, infer)
            if e is not None:
                return e
            forms = [x for x in forms if x[1] != f]
        return None

    def try_var(self, ty, d=0, infer=False):
        names = [n for n, t in self.scope if t == ty]
        names += [g.name for g in self.globals if not g.params and not g.tparams and g.res == ty]
        return Var(self.r.choice(names)) if names else None

    def callables(self, ty):
        """(weight, head, tparams, params, counters, k, substitution, result): heads
        whose application to k arguments has type ty."""
        out = []
        heads = [(g.weight, g.name, g.tparams, g.params, g.res, g.counters) for g in self.globals]
        for n, t in self.scope:
            if isinstance(t, Fun):
                ps, res = uncurry(t)
                heads.append((1.5, n, [], ps, res, {}))
        for w, name, tps, ps, res, counters in heads:
            for k in range(1, len(ps) + 1):
                sub = {}
                rest = fun_type(ps[k:], res)
                if match(rest, ty, sub):
                    out.append((w, name, tps, ps, counters, k, sub, rest))
        return out

    def try_call(self, ty, d, infer, only=None):
        cands = self.callables(ty)
        if only is not None:
            cands = [c for c in cands if c[1] == only and c[5] == len(c[3])]
        if not cands:
            return None
        _w, name, tps, ps, counters, k, sub, rest = self.pick([(c[0], c) for c in cands])
        for tv, kind in tps:                     # type parameters the result type leaves open
            if tv not in sub:
                sub[tv] = self.r.randint(1, 3) if kind == "Nat" else self.base_type()
        # Type parameters are given explicitly, or solved by unification: from
        # arguments generated in infer mode, or (check mode only) from the
        # expected type of the application.
        applied = set()
        for p in ps[:k]:
            tvars_of(p, applied)
        open_tvs = {tv for tv, _ in tps} - applied
        must = bool(open_tvs) and (infer or not open_tvs <= tvars_of(rest))
        explicit = bool(tps) and (must or self.chance(0.35))
        args = [TyArg(sub[tv]) for tv, _ in tps] if explicit else []
        for i, p in enumerate(ps[:k]):
            pt = subst(p, sub)
            if i in counters:
                args.append(self.gen_counter(pt, counters[i], d - 1))
            else:
                args.append(self.gen(pt, d - 1, infer=bool(tps) and not explicit and bool(tvars_of(p))))
        return App(Var(name), args)

    def try_let(self, ty, d, infer):
        x = self.new_var()
        aty = self.rand_type(1)
        typed = self.chance(0.7)
        value = self.gen(aty, d - 1, infer=not typed)
        body = self.with_vars([(x, aty)], lambda: self.gen(ty, d - 1, infer))
        return Let(x, aty if typed else None, value, body)

    def try_if(self, ty, d, infer):
        return If(ty, self.gen(BOOL, d - 1), self.gen(ty, d - 1), self.gen(ty, d - 1))

    def try_proj(self, ty, d, infer):
        other = self.base_type()
        if self.chance(0.5):
            return Proj(self.gen(Pair(ty, other), d - 1, infer=True), 1)
        return Proj(self.gen(Pair(other, ty), d - 1, infer=True), 2)

    def try_get(self, ty, d, infer):
        n = self.r.randint(1, 4)
        arr = self.gen(Arr(n, ty), d - 1, infer=True)
        return App(Var("get"), [arr, self.gen_idx(Idx(n), d - 1, False)])

    def gen_counter(self, ty, bound, d):
        """An argument that bounds a recursion: at most `bound`."""
        if d > 0 and self.chance(0.4):
            return BinOp("%", ty, self.gen(ty, d - 1, infer=True), Lit(ty, bound + 1))
        return Lit(ty, self.r.randint(0, bound))

    # ---- one generator per type
    def gen_i64(self, d, infer):
        if d <= 0 or self.chance(0.15):
            v = self.try_var(I64)
            if v is not None and self.chance(0.7):
                return v
            return self.i64_const(self.i64_value(), infer)
        k = self.pick([(6, "arith"), (2, "div"), (1.5, "nat"), (0.7 if self.use_f64 else 0, "f64")])
        if k == "arith":
            op = self.r.choice(["+", "-", "*"])
            return BinOp(op, I64, self.gen(I64, d - 1, infer=True), self.gen(I64, d - 1))
        if k == "div":
            return BinOp(self.r.choice(["/", "%"]), I64, self.gen(I64, d - 1, infer=True),
                         self.divisor(I64, d - 1))
        if k == "nat":
            m = self.r.choice([10, 1000, 1000000007])
            return App(Var("natToI64"), [BinOp("%", NAT, self.gen(NAT, d - 1, infer=True), Lit(NAT, m))])
        return App(Var("f64ToI64"), [self.gen(F64, d - 1)])

    def divisor(self, ty, d):
        """A divisor that is never 0 (and never -1 for I64)."""
        if d > 0 and self.chance(0.4):
            m = self.r.randint(2, 9)
            e = self.gen(ty, d - 1, infer=True)
            return BinOp("+", ty, BinOp("%", ty, e, Lit(ty, m)), Lit(ty, m + 1 if ty == I64 else 1))
        if ty == I64:
            return Lit(I64, self.r.choice([1, 2, 3, 5, 7, 10, 1000, -2, -3, -7]))
        return Lit(NAT, self.r.choice([1, 2, 3, 5, 7, 10, 1000]))

    def gen_nat(self, d, infer):
        if d <= 0 or self.chance(0.15):
            v = self.try_var(NAT)
            if v is not None and self.chance(0.7):
                return v
            return Lit(NAT, self.nat_value())
        k = self.pick([(6, "arith"), (2, "div"), (1.5, "i64")])
        if k == "arith":
            op = self.r.choice(["+", "-", "*"])
            return BinOp(op, NAT, self.gen(NAT, d - 1, infer=True), self.gen(NAT, d - 1))
        if k == "div":
            return BinOp(self.r.choice(["/", "%"]), NAT, self.gen(NAT, d - 1, infer=True),
                         self.divisor(NAT, d - 1))
        m = self.r.choice([10, 1000])
        e = self.gen(I64, d - 1, infer=True)
        return App(Var("i64ToNat"), [BinOp("+", I64, BinOp("%", I64, e, Lit(I64, m)), Lit(I64, m))])

    def gen_bool(self, d, infer):
        if d <= 0 or self.chance(0.1):
            v = self.try_var(BOOL)
            if v is not None and self.chance(0.6):
                return v
            return Lit(BOOL, self.chance(0.5))
        k = self.pick([(5, "cmp"), (2, "logic"), (1, "not")])
        if k == "cmp":
            t = self.pick([(4, I64), (2, NAT), (1, BOOL)] + ([(1, F64)] if self.use_f64 else []))
            op = self.r.choice(["==", "!="] if t == BOOL else ["==", "!=", "<", "<=", ">", ">="])
            return BinOp(op, t, self.gen(t, d - 1, infer=True), self.gen(t, d - 1))
        if k == "logic":
            return BinOp(self.r.choice(["&&", "||"]), BOOL, self.gen(BOOL, d - 1, infer=True),
                         self.gen(BOOL, d - 1))
        return App(Var("not"), [self.gen(BOOL, d - 1)])

    def gen_f64(self, d, infer):
        if d <= 0 or self.chance(0.15):
            v = self.try_var(F64)
            if v is not None and self.chance(0.6):
                return v
            return Lit(F64, self.f64_value())
        k = self.pick([(4, "addsub"), (2, "scale"), (1, "sqrt"), (1.5, "conv")])
        if k == "addsub":
            return BinOp(self.r.choice(["+", "-"]), F64, self.gen(F64, d - 1, infer=True),
                         self.gen(F64, d - 1))
        if k == "scale":                           # keeps magnitudes small and values dyadic
            op, c = self.r.choice([("*", 0.5), ("*", 2.0), ("*", 3.0), ("*", 0.25), ("/", 2.0), ("/", 4.0)])
            return BinOp(op, F64, self.gen(F64, d - 1, infer=True), Lit(F64, c))
        if k == "sqrt":
            e = self.gen(F64, d - 1, infer=True)
            return App(Var("sqrt"), [BinOp("*", F64, e, e)])
        if self.chance(0.5):
            return App(Var("i64ToF64"), [BinOp("%", I64, self.gen(I64, d - 1, infer=True), Lit(I64, 1000))])
        return App(Var("natToF64"), [BinOp("%", NAT, self.gen(NAT, d - 1, infer=True), Lit(NAT, 1000))])

    def gen_fun(self, ty, d, infer):
        if d <= 0 or self.chance(0.2):
            v = self.try_var(ty)
            if v is not None:
                return v
        params, res = uncurry(ty)
        if infer:                                  # an annotated lambda infers its type
            x = self.new_var()
            body = self.with_vars([(x, ty.arg)], lambda: self.gen(ty.res, d - 1, infer=True))
            return Lam([(x, ty.arg)], body)
        m = self.r.randint(1, len(params))
        xs = [(self.new_var(), p) for p in params[:m]]
        body = self.with_vars(xs, lambda: self.gen(fun_type(params[m:], res), d - 1))
        return Lam([(x, p if self.chance(0.15) else None) for x, p in xs], body)

    def gen_pair(self, ty, d, infer):
        if infer:                                  # a pair is not inferred: annotate it
            if self.chance(0.5):
                return Ann(self.gen_pair(ty, d, False), ty)
            x = self.new_var()
            return Let(x, ty, self.gen_pair(ty, d, False), Var(x))
        return Tuple(self.gen(ty.fst, d - 1), self.gen(ty.snd, d - 1))

    def gen_array(self, ty, d, infer):
        n, e = ty.n, ty.elem
        k = self.pick([(3 if n <= 4 and not infer else 0, "lit"), (3, "build")])
        if k == "lit":
            return ArrayLit(e, [self.gen(e, d - 1) for _ in range(n)])
        i = self.new_var()
        explicit = infer or self.chance(0.5)
        body = self.with_vars([(i, Idx(n))], lambda: self.gen(e, d - 1, infer=not explicit))
        args = ([TyArg(e)] if explicit else []) + [Lit(NAT, n), Lam([(i, None)], body)]
        return App(Var("build"), args)

    def gen_idx(self, ty, d, infer):
        if ty.n == 0:
            raise Reject("Idx 0 is empty")
        v = self.try_var(ty)
        if v is not None and self.chance(0.6):
            return v
        n = ty.n
        if d > 0 and self.chance(0.4):
            k = BinOp("%", NAT, self.gen(NAT, d - 1, infer=True), Lit(NAT, n))
        else:
            k = Lit(NAT, self.r.randint(0, n - 1))
        return IdxLit(n, k, explicit=infer or self.chance(0.3))

    def gen_church(self, ty, d, infer):
        if d > 0:
            e = self.try_call(ty, d, infer)
            if e is not None:
                return e
        s = self.sfx
        if ty.kind == "nat":
            return Var("czero" + s)
        if ty.kind == "bool":
            return Var(self.r.choice(["ctrue", "cfalse"]) + s)
        if infer or self.chance(0.3):
            return App(Var("cnil" + s), [TyArg(ty.elem)])
        return Var("cnil" + s)

    # ---- definitions
    def run(self, node, fuel=20000):
        Fuel.left = fuel
        return node.ev(self.values)

    def add_global(self, name, tparams, params, res, counters=None, weight=1.0):
        self.globals.append(Global(name, tparams, params, res, counters or {}, weight))

    def add_modules(self):
        chosen = {m for m, p in MODULES.items() if self.chance(p)}
        s = self.sfx
        if "cnat" in chosen:
            self.church["nat"] = Church("nat", "CN" + s)
        if "cbool" in chosen:
            self.church["bool"] = Church("bool", "CB" + s)
        if "clist" in chosen:
            self.church["list"] = "CL" + s
        for t in TEMPLATES:
            if t.module not in chosen:
                continue
            name = t.key + s
            body = t.body.replace("@", s)
            shadow = t.shadow.replace("@", s) if t.shadow else None
            if t.sig is None:
                self.defs.append(Def(name, [], None, body, sig_text=t.sig_text))
                continue
            ty = t.sig(self.church)
            rec = (t.key + "@") in t.body
            self.defs.append(Def(name, t.tparams, ty, body, shadow, recursive=rec))
            self.values[name] = t.value(TemplateEnv(self.values, s))
            ps, res = uncurry(ty)
            self.add_global(name, t.tparams, ps, res, t.counters, 1.2)

    def gen_def(self, i):
        name = f"f{i}{self.sfx}"
        nparams = self.pick([(1, 0), (3, 1), (3, 2), (1.5, 3)])
        params = [self.rand_type(1) for _ in range(nparams)]
        res = self.rand_type(1) if self.chance(0.4) else self.base_type()
        xs = [(self.new_var(), p) for p in params]
        for _ in range(20):
            body = self.with_vars(xs, lambda: self.gen(res, self.r.randint(2, 3)))
            node = Lam([(x, None) for x, _ in xs], body) if xs else body
            try:
                self.values[name] = self.run(node)
                break
            except Reject:
                continue
        else:
            raise Reject("no definition")
        self.defs.append(Def(name, [], fun_type(params, res), node, agda_style=self.chance(0.08)))
        more, final = uncurry(res)
        self.add_global(name, [], params + more, final, {}, 2.0)

    def gen_rec_def(self, i):
        """`r : C → P… → R = λ n p…. if n <= 0 then BASE else STEP`, where STEP
        calls r on n - 1 (or n - 1 and n - 2): a recursion bounded by n."""
        name = f"r{i}{self.sfx}"
        cty = I64 if self.chance(0.6) else NAT
        params = [self.rand_type(1) for _ in range(self.pick([(1, 0), (2, 1), (1, 2)]))]
        res = self.base_type() if self.chance(0.7) else self.rand_type(1)
        style = self.pick([(3, "let"), (3, "tail"), (1.5 if res in (I64, NAT) else 0, "fib"),
                           (1 if params else 0, "closure")])
        n = self.new_var()
        xs = [(self.new_var(), p) for p in params]
        two = style == "fib" or self.chance(0.2)     # the base case covers n < 2
        low = 1 if two else 0
        op = self.r.choice(["<=", "<"] if cty == I64 or two else ["==", "<"])
        cond = BinOp(op, cty, Var(n), Lit(cty, low + 1 if op == "<" else low))

        def dec(k):
            return BinOp("-", cty, Var(n), Lit(cty, k))

        def call(k, args):
            return App(Var(name), [dec(k)] + args)

        def gen_body():
            base = self.gen(res, 2)
            args = [self.gen(p, 2) for p in params]
            if style == "tail":
                step = call(1 + (two and self.chance(0.5)), args)
            elif style == "fib":
                step = BinOp("+", res, call(1, args), call(2, [self.gen(p, 1) for p in params]))
            elif style == "let":
                r = self.new_var()
                step = Let(r, res, call(1, args),
                           self.with_vars([(r, res)], lambda: self.gen(res, 2)))
            else:                                   # a closure that makes the recursive call
                g, y = self.new_var(), self.new_var()
                gty = Fun(params[0], res)
                inner = Lam([(y, None)], call(1, [Var(y)] + args[1:]))
                step = Let(g, gty, inner, self.with_vars([(g, gty)], lambda: self.gen(res, 2)))
            return If(res, cond, base, step)

        bound = {"tail": 40, "let": 12, "fib": 10, "closure": 4}[style]
        ty = fun_type([cty] + params, res)
        for _ in range(20):
            body = self.with_vars([(n, cty)] + xs, gen_body)
            node = Lam([(n, None)] + [(x, None) for x, _ in xs], body)
            # A recursion must terminate and stay cheap for every allowed counter.
            self.values[name] = self.run(node)
            try:
                for c in (bound, bound - 1, 0, 1):
                    Fuel.left = 20000
                    f = self.values[name](c)
                    for p in params:
                        f = f(self.sample_value(p))
                break
            except Reject:
                continue
        else:
            raise Reject("no recursive definition")
        self.defs.append(Def(name, [], ty, node, recursive=True))
        more, final = uncurry(res)
        self.add_global(name, [], [cty] + params + more, final, {0: bound}, 2.0)

    def sample_value(self, ty):
        """Some value of type ty, to test-drive a recursive definition."""
        for _ in range(5):
            try:
                Fuel.left = 5000
                return self.gen(ty, 1).ev(self.values)
            except Reject:
                pass
        raise Reject("no sample value")

    def gen_eval(self):
        for _ in range(30):
            if self.chance(0.02):
                fns = [g for g in self.globals if g.name.endswith(self.sfx) and g.params and not g.tparams]
                if fns:
                    g = self.r.choice(fns)
                    return Eval(Var(g.name), fun_type(g.params, g.res), "<function>")
            mine = [g for g in self.globals if g.name.endswith(self.sfx) and printable(g.res)]
            node = None
            if mine and self.chance(0.7):           # mostly: call one of the program's definitions
                g = self.r.choice(mine)
                ty = g.res
                if self.chance(0.6):
                    node = self.try_call(ty, self.r.randint(2, 3), True, only=g.name)
            else:
                ty = self.printable_type()
            if node is None:
                node = self.gen(ty, self.r.randint(2, 4), infer=True)
            try:
                v = self.run(node)
                return Eval(node, ty, show_value(v))
            except Reject:
                continue
        raise Reject("no eval")

    def program(self):
        self.add_modules()
        ndefs = self.r.randint(1, 3)
        for i in range(ndefs):
            if self.chance(0.45):
                self.gen_rec_def(i)
            else:
                self.gen_def(i)
        evals = [self.gen_eval() for _ in range(self.r.randint(2, 4))]
        prog = Program(self.pid, self.defs, evals)
        mine = [d.name for d in self.defs if isinstance(d.body, Node)]
        prog.defs = prog.needed(range(len(evals)), mine)      # drop unused library definitions
        return prog


class TemplateEnv:
    """The globals as a template's Python value sees them: `name@` is `name` + suffix."""

    def __init__(self, values, sfx):
        self.values, self.sfx = values, sfx

    def __getitem__(self, name):
        return self.values[name.replace("@", self.sfx)]


def generate_one(seed, pid):
    for attempt in range(100):
        g = Gen(random.Random(f"{seed}/{pid}/{attempt}"), pid)
        try:
            return g.program()
        except Reject:
            continue
    raise RuntimeError(f"program {pid}: no program after 100 attempts")


def generate(count, seed):
    return [generate_one(seed, pid) for pid in range(count)]


# ---------------------------------------------------------------- shadow postulates

SHADOW_FIXED = """\
.ax I64 : U
.ax Nat : U
.ax F64 : U
.ax Bool : U
.ax true : Bool
.ax false : Bool
.ax not : Bool → Bool
.ax ite : {A : U} → Bool → A → A → A
.ax Array : Nat → U → U
.ax Idx : Nat → U
.ax build : {A : U} → (n : Nat) → (Idx n → A) → Array n A
.ax get : {A : U} → {n : Nat} → Array n A → Idx n → A
.ax set : {A : U} → {n : Nat} → Array n A → Idx n → A → Array n A
.ax length : {A : U} → {n : Nat} → Array n A → Nat
.ax idx : {n : Nat} → Nat → Idx n
.ax idxToNat : {n : Nat} → Idx n → Nat
.ax natToI64 : Nat → I64
.ax i64ToNat : I64 → Nat
.ax i64ToF64 : I64 → F64
.ax f64ToI64 : F64 → I64
.ax natToF64 : Nat → F64
.ax sqrt : F64 → F64
"""


def shadow_postulates(text):
    """The postulates a shadow text needs, for its L_ names."""
    out = []
    names = sorted(set(re.findall(r"\bL_[A-Za-z0-9_]+", text)))
    lits = {m for m in names if re.fullmatch(r"L_n\d+", m)}
    lits |= {f"L_n{m[6:]}" for m in names if m.startswith("L_alit")}
    for n in sorted(lits, key=lambda s: int(s[3:])):
        out.append(f".ax {n} : Nat")
    for n in names:
        if re.fullmatch(r"L_im?\d+", n):
            out.append(f".ax {n} : I64")
        elif n.startswith("L_f"):
            out.append(f".ax {n} : F64")
        elif n in ("L_and", "L_or"):
            out.append(f".ax {n} : Bool → Bool → Bool")
        elif n.startswith("L_alit"):
            k = int(n[6:])
            out.append(f".ax {n} : {{A : U}} → " + "A → " * k + f"Array L_n{k} A")
        elif n not in lits:
            op, ty = n[2:].rsplit("_", 1)
            res = "Bool" if op in ("eq", "ne", "lt", "le", "gt", "ge") else ty
            out.append(f".ax {n} : {ty} → {ty} → {res}")
    return "".join(x + "\n" for x in out)


def batch_text(programs, shadow=False):
    body = "\n".join(p.text(shadow) for p in programs)
    if shadow:
        return SHADOW_FIXED + shadow_postulates(body) + "\n" + body
    return body


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", default="20240601")
    ap.add_argument("--per-file", type=int, default=50)
    ap.add_argument("--out", help="write batch files into this directory")
    ap.add_argument("--shadow", action="store_true", help="the core-only rendering (postulates)")
    a = ap.parse_args()
    progs = generate(a.count, a.seed)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        for b in range(0, len(progs), a.per_file):
            chunk = progs[b:b + a.per_file]
            stem = os.path.join(a.out, f"batch_{b // a.per_file:03d}")
            with open(stem + ".thorin", "w", encoding="utf-8") as f:
                f.write(batch_text(chunk, a.shadow))
            if not a.shadow:
                with open(stem + ".expected", "w", encoding="utf-8") as f:
                    f.write("".join(p.expected() for p in chunk))
        return 0
    if a.shadow:
        sys.stdout.write(batch_text(progs, True))
        return 0
    for p in progs:
        sys.stdout.write(p.text())
        sys.stdout.write("".join(f"--   {line}\n" for line in p.expected().splitlines()))
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

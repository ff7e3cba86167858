"""The typed family's library: definitions a program may include by module
(Church numerals, booleans and lists, higher-order helpers, array sums),
each with its thorin text, its core-only text for the shadow rendering, and
its value in the model; and the builtins and prelude functions programs call.
'@' in a template's texts stands for the program's suffix (`_p17`)."""
from dataclasses import dataclass
from typing import Optional

import core_model

from .entries import Def
from .model import ArrV
from .terms import L_OPEN, Raw
from .ty import BOOL, F64, I64, NAT, Arr, Church, Fun, Idx, Pair, TVar, fun_type

TYPE = object()                     # the value of a type passed as an explicit argument


@dataclass
class Template:
    key: str            # the name without suffix
    module: str
    tparams: list       # [(name, 'U' or 'Nat')]
    sig: object         # function (church types) -> type; None for type definitions
    body: str           # thorin text
    shadow: Optional[str]
    value: object       # function (TemplateEnv) -> Python value; None for type definitions
    counters: dict      # explicit parameter index -> largest useful value
    sig_text: str = ""  # for type definitions


def _t(key, module, tparams, sig, body, value, shadow=None, counters=None):
    return Template(key, module, tparams, sig, body, shadow, value, counters or {})


class TemplateEnv:
    """The globals as a template's value sees them (`name@` is `name` + the
    suffix), and the model's step counter."""

    def __init__(self, model, sfx):
        self.model, self.sfx = model, sfx

    def __getitem__(self, name):
        return self.model.lookup(name.replace("@", self.sfx))

    def tick(self, v=None):
        self.model.tick()
        return v


def definition(t, sfx, church):
    """The definition of template t in a program with suffix sfx and Church types church."""
    name, text = t.key + sfx, Raw(t.body.replace("@", sfx), L_OPEN)
    if t.sig is None:
        return Def(name, Raw(t.sig_text, L_OPEN), text)
    shadow = Raw(t.shadow.replace("@", sfx), L_OPEN) if t.shadow else None
    return Def(name, t.sig(church), text, t.tparams, shadow_body=shadow, recursive=(t.key + "@") in t.body)


A, B, C = TVar("A"), TVar("B"), TVar("C")


def _cnat_templates():
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
           lambda g: lambda n: n(TYPE)(lambda k: core_model.wrap(g.tick(k + 1)))(0),
           shadow="λ n. n I64 (λ k. L_add_I64 k L_i1) L_i0"),
        _t("cnN", "cnat", [], lambda c: Fun(c["nat"], NAT), "λ n. n Nat (λ k. k + 1) 0",
           lambda g: lambda n: n(TYPE)(lambda k: g.tick(k + 1))(0),
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

    def csum(g):
        return lambda xs: xs(TYPE)(lambda a: lambda r: core_model.wrap(g.tick(a + r)))(0)
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
           csum, shadow="λ xs. xs I64 (λ a r. L_add_I64 a r) L_i0"),
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
                g.tick()
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
                    g.tick()
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
BY_KEY = {t.key: t for t in TEMPLATES}
MODULES = {"cnat": 0.2, "cbool": 0.15, "clist": 0.2, "ho": 0.3, "arr": 0.25}


@dataclass
class Global:
    """A name the generator may call: a builtin, a prelude function or a program definition."""
    name: str
    tparams: list       # [(name, 'U' or 'Nat')]
    params: list        # explicit parameter types (uncurried)
    res: object
    counters: dict      # parameter index -> bound, for recursive definitions
    weight: float = 1.0


def builtin_globals():
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

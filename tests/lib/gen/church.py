"""The Church family: random well-typed terms over Church numerals, booleans
and pairs — closed ones, functions of numerals, open terms under `λ N s z`,
Σ-typed parameters, new definitions — for normal forms (`.nf`) and
conversions. No values: thorin's evaluator is the reference there.

The prelude is the typed family's library (Church numerals and booleans,
`twice`), without a suffix, and a few definitions of this family's."""
from .entries import Def, Directive, file_text
from .library import BY_KEY, definition
from .terms import L_OPEN, App, Lam, Let, Proj, Raw, Tuple, TyArg, Var, call, lam
from .ty import U, Church, Fun, Named, TVar

CN, CB, PAIR = Church("nat", "CN"), Church("bool", "CB"), Named("Pair")
LIBRARY = ["CN", "czero", "csuc", "cadd", "cmul", "CB", "ctrue", "cfalse", "cnot", "cand", "twice"]


def prelude():
    defs = [definition(BY_KEY[k], "", {"nat": CN, "bool": CB}) for k in LIBRARY]
    return defs + [
        Def("c2", CN, call("csuc", call("csuc", Var("czero")))),
        Def("c3", CN, call("cadd", Var("c2"), call("csuc", Var("czero")))),
        Def("isZero", Fun(CN, CB), lam(["n"], call("n", Var("CB"), lam(["_"], Var("cfalse")), Var("ctrue")))),
        Def("Pair", U, Raw("(x : CN) × CN", L_OPEN)),
        Def("swap", Fun(PAIR, PAIR), lam(["p"], Tuple(Proj(Var("p"), 2), Proj(Var("p"), 1)))),
    ]


def prelude_text():
    return file_text(prelude())


class ChurchGen:
    """Terms; `vs` are the numerals in scope (terms: `a`, `p.1`)."""

    def __init__(self, rng):
        self.r = rng
        self.defs = []              # generated definitions: (name, type)

    def defined(self, ty):
        return [Var(n) for n, t in self.defs if t == ty]

    def nat(self, d, vs):
        r = self.r
        if d <= 0 or r.random() < 0.2:
            return r.choice([Var("czero"), Var("c2"), Var("c3")] + vs + self.defined(CN))
        k = r.randrange(9)
        if k == 0:
            return call("csuc", self.nat(d - 1, vs))
        if k == 1:
            return call("cadd", self.nat(d - 1, vs), self.nat(d - 1, vs))
        if k == 2:
            return call("cmul", self.nat(d - 1, vs), self.nat(d - 2, vs))
        if k == 3:
            x = f"x{d}"
            return App(Lam([(x, CN)], self.nat(d - 1, vs + [Var(x)])), [self.nat(d - 1, vs)])
        if k == 4:
            return Proj(self.pair(d - 1, vs), r.choice([1, 2]))
        if k == 5:
            return App(self.bool(d - 1, vs), [Var(CN.name), self.nat(d - 1, vs), self.nat(d - 1, vs)])
        if k == 6:
            return call("twice", TyArg(CN), Var("csuc"), self.nat(d - 1, vs))
        fs = self.defined(Fun(CN, CN))
        if k == 7 and fs:
            return App(r.choice(fs), [self.nat(d - 1, vs)])
        y = f"y{d}"
        return Let(y, CN, self.nat(d - 1, vs), call("cadd", Var(y), self.nat(d - 1, vs + [Var(y)])))

    def bool(self, d, vs):
        r = self.r
        if d <= 0 or r.random() < 0.3:
            return Var(r.choice(["ctrue", "cfalse"]))
        k = r.randrange(3)
        if k == 0:
            return call("cnot", self.bool(d - 1, vs))
        if k == 1:
            return call("cand", self.bool(d - 1, vs), self.bool(d - 1, vs))
        return call("isZero", self.nat(d - 1, vs))

    def pair(self, d, vs):
        if self.r.random() < 0.3:
            return call("swap", self.pair(d - 1, vs)) if d > 0 else Tuple(Var("c2"), Var("c3"))
        return Tuple(self.nat(d - 1, vs), self.nat(d - 1, vs))

    def term(self, ty, d=3):
        """A closed term of type ty: CN, CB, PAIR or CN → CN."""
        if ty == CN:
            return self.nat(d, [])
        if ty == CB:
            return self.bool(d, [])
        if ty == PAIR:
            return self.pair(d, [])
        return Lam([("m", CN)], self.nat(d, [Var("m")]))

    def directive(self, i):
        """Entries that end in an `.nf`: of one of six kinds of term."""
        r = self.r
        k = r.randrange(6)
        if k == 0:                  # a closed numeral
            return [Directive(self.nat(3, []), ".nf")]
        if k == 1:                  # a function of numerals: its parameters stay neutral
            return [Directive(Lam([("a", CN), ("b", CN)], self.nat(3, [Var("a"), Var("b")])), ".nf")]
        if k == 2:                  # an open term under λ N s z
            n, s = TVar("N"), Var("s")
            inner = lam(["v"], App(s, [App(self.nat(1, []), [Var("N"), s, Var("v")])]))
            return [Directive(Lam([("N", U), ("s", Fun(n, n)), ("z", n)],
                                  App(self.nat(2, []), [Var("N"), inner, Var("z")])), ".nf")]
        if k == 3:                  # pairs, Σ-typed parameters
            p = Var("p")
            return [Directive(Lam([("p", PAIR)], Tuple(self.nat(2, [Proj(p, 1), Proj(p, 2)]), Proj(p, 1))), ".nf")]
        if k == 4:                  # a new definition, then its normal form
            name = f"d{i}"
            if r.random() < 0.5:
                body = self.nat(3, [])          # (before the name is in scope: no recursion)
                self.defs.append((name, CN))
                return [Def(name, CN, body), Directive(Var(name), ".nf")]
            body = lam(["m"], self.nat(3, [Var("m")]))
            self.defs.append((name, Fun(CN, CN)))
            return [Def(name, Fun(CN, CN), body), Directive(Var(name), ".nf")]
        return [Directive(self.bool(3, []), ".nf")]

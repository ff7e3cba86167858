"""The terms of the first-order family's words variant (words.py): literals
at the edges of each representation, and random expressions of a type over
Nat, F64, I64, Bool, Idx N and arrays in the scope of a function body."""
from core_model import COMPARISONS, I64_MIN

from .first_order import BodyGen
from .loops import EDGES as I64_EDGES
from .loops import i64_value
from .terms import Ann, ArrayLit, BinOp, IdxLit, If, Lam, Let, Lit, Var, call
from .ty import BOOL, F64, I64, NAT, Arr, Idx

NAT_EDGES = [0, 1, 2, 3, 7, 10, 255, 1 << 31, 1 << 32, (1 << 62) - 1, 1 << 62, (1 << 62) + 1,
             (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, 10 ** 18, 10 ** 19, 10 ** 25, 10 ** 40, 1 << 100]
NAT_DIVISORS = [1, 2, 3, 7, 10, 64, 1000000007, (1 << 62) - 1, 1 << 62, 1 << 64, 10 ** 25]
F64_EDGES = [0.0, -0.0, 0.5, -2.25, 1.5, 2.0, 3.0, 0.1, 0.25, -1.0, 4.0, 1e300, -1e300, 1e-300,
             1e15, 1e16, 123.456, 4611686018427387904.0, 1e-7]
SIZES = [5, 8]
SCALARS = [NAT, F64, I64]
# Names of lets and builds' indices: they may shadow data parameters, never
# the counters k, n, fuel, i or the accumulators.
LET_NAMES = ["x", "y", "z", "s", "t", "u"]


def nat_lit(rng):
    r = rng.random()
    if r < 0.5:
        return Lit(NAT, rng.randint(0, 20))
    if r < 0.9:
        return Lit(NAT, rng.choice(NAT_EDGES))
    return Lit(NAT, rng.getrandbits(rng.choice([8, 40, 63, 64, 90])))


def f64_lit(rng):
    r = rng.random()
    if r < 0.6:
        return Lit(F64, rng.choice(F64_EDGES), signed=True)
    return Lit(F64, rng.randint(-400, 400) / rng.choice([1, 4, 8, 10]), signed=True)


def i64_lit(rng):
    """`(v : I64)`, `(0 - v : I64)` or the literal `(-v)`."""
    v, signed = i64_value(rng), rng.randint(0, 1)
    return Lit(I64, v, signed=True) if v < 0 and signed else Ann(Lit(I64, v), I64)


def scalar_lit(rng, ty):
    return {NAT: nat_lit, F64: f64_lit, I64: i64_lit}[ty](rng)


def build(n, var, body):
    return call("build", Lit(NAT, n), Lam([(var, None)], body))


def mk_idx(n, e, annot=False):
    """`idx e`, annotated `(idx e : Idx n)` where nothing says n."""
    return Ann(IdxLit(n, e, False), Idx(n)) if annot else IdxLit(n, e, False)


class WordsBodyGen(BodyGen):
    """Random expressions for one function body (or a top-level array, or an
    .eval's argument: fn None). divisions: "any" (divisors may be 0, indices
    out of range), "safe" (never). tame: Nat products only by small literals
    (no Nat grows without bound in a hot file's long run)."""

    def __init__(self, rng, fn, callees, globs, divisions, tame):
        super().__init__(rng, fn, callees, divisions)
        self.globs, self.tame = globs, tame
        self.self_calls = 2          # none unless a fuel/deep body allows them
        self.safe = {}               # n -> names of Nat variables known to be < n
        # An inline `build` (a closure) in one body in five; the top-level
        # arrays seen by half the bodies (and by every driver).
        self.builds = 1 if fn and rng.random() < 0.2 else 0
        if fn and fn.kind != "driver" and rng.random() < 0.5:
            self.globs = []
        self.protected = set()       # names lets must not shadow

    def arrays(self, elem=None, n=None):
        """(term, type) of the arrays in scope and the top-level ones."""
        out = [(Var(v), t) for v, t in self.visible() if isinstance(t, Arr)]
        out += [(Var(g.name), g.ty) for g in self.globs]
        return [(e, t) for e, t in out if (elem is None or t.elem == elem) and (n is None or t.n == n)]

    def idx_vars(self, n=None):
        return [v for v, t in self.visible() if isinstance(t, Idx) and (n is None or t.n == n)]

    def gen(self, ty, d):
        if ty in SCALARS:
            return {NAT: self.nat, F64: self.f64, I64: self.i64}[ty](d)
        if ty == BOOL:
            return self.cond(d)
        if isinstance(ty, Idx):
            return self.idx(ty.n, d)
        return self.arr(ty.n, ty.elem, d)

    def common(self, ty, d):
        """The compound options every scalar type has."""
        fn = self.fn
        return [
            (2, lambda: If(ty, self.cond(d), self.gen(ty, d), self.gen(ty, d))),
            (1.5, lambda: self.let(d, lambda: self.gen(ty, d))),
            (1.5 if self.calls_left and any(g.res == ty for g in self.callees) else 0,
             lambda: self.call(self.rng.choice([g for g in self.callees if g.res == ty]), d)),
            (2 if self.arrays(ty) else 0.3 if self.builds else 0, lambda: self.get(ty, d)),
            (3 if fn and fn.kind == "fuel" and self.self_calls < 2 and ty == fn.res else 0,
             lambda: self.fuel_call(d)),
        ]

    def nat(self, depth):
        vs, ivs, arrs = self.vars(NAT), self.idx_vars(), self.arrays()
        leaf = [(1, lambda: nat_lit(self.rng)), (4 if vs else 0, lambda: self.var(NAT)),
                (1 if ivs else 0, lambda: call("idxToNat", Var(self.rng.choice(ivs)))),
                (0.6 if arrs else 0, lambda: call("length", self.rng.choice(arrs)[0]))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + self.common(NAT, d) + [
            (3, lambda: BinOp(self.rng.choice("+-"), NAT, self.nat(d), self.nat(d))),
            (1.2, lambda: self.nat_mul(d)),
            (1.2, lambda: self.division(NAT, d)),
            (0.3, lambda: call("idxToNat", mk_idx(self.rng.choice(SIZES), self.nat_mod(d, 5), annot=True))),
        ])

    def nat_mul(self, d):
        if self.tame:
            return BinOp("*", NAT, self.nat(d), Lit(NAT, self.rng.randint(0, 9)))
        return BinOp("*", NAT, self.nat(d), self.nat(d))

    def nat_mod(self, d, n):
        return BinOp("%", NAT, self.nat(d), Lit(NAT, n))

    def f64(self, depth):
        leaf = [(1.2, lambda: f64_lit(self.rng)), (4 if self.vars(F64) else 0, lambda: self.var(F64))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + self.common(F64, d) + [
            (4, lambda: BinOp(self.rng.choice("+-*/"), F64, self.f64(d), self.f64(d))),
            (1.5, lambda: call("natToF64", self.nat(d))),
        ])

    def i64(self, depth):
        leaf = [(1, lambda: i64_lit(self.rng)), (4 if self.vars(I64) else 0, lambda: self.var(I64))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + self.common(I64, d) + [
            (4, lambda: BinOp(self.rng.choice("+-*"), I64, self.i64(d), self.i64(d))),
            (1.2, lambda: self.division(I64, d)),
        ])

    def division(self, ty, d):
        """x / y or x % y; y is anything (maybe 0, or -1 for I64) unless
        divisions are "safe": then a literal or `e % k + c`, never 0."""
        o = self.rng.choice("/%")
        r = self.rng.random()
        if ty == NAT:
            x = self.nat(d)
            if r < 0.35:
                y = Lit(NAT, self.rng.choice(NAT_DIVISORS))
            elif r < 0.6 or self.divisions == "safe":
                y = BinOp("+", NAT, self.nat_mod(d, self.rng.randint(1, 9)), Lit(NAT, 1))
            else:
                y = self.nat(d)
            return BinOp(o, NAT, x, y)
        x = Ann(Lit(I64, I64_MIN), I64) if self.rng.random() < 0.1 else self.i64(d)
        if r < 0.3:
            y = Ann(Lit(I64, self.rng.choice([v for v in I64_EDGES if v] + [3, 7, 10, -3])), I64)
        elif r < 0.5 or self.divisions == "safe":
            k = self.rng.randint(1, 9)
            y = BinOp("+", I64, BinOp("%", I64, self.i64(d), Ann(Lit(I64, k), I64)), Ann(Lit(I64, k + 1), I64))
        else:
            y = self.i64(d)
        return BinOp(o, I64, x, y)

    def compare(self, ty, d):
        return BinOp(self.rng.choice(COMPARISONS), ty, self.gen(ty, d), self.gen(ty, d))

    def cond(self, depth):
        """A Bool."""
        bs = self.vars(BOOL)
        d = max(depth - 1, 0)
        i64s = self.vars(I64) or self.arrays(I64)
        return self.pick([
            (3, lambda: self.compare(NAT, d)),
            (2.5, lambda: self.compare(F64, d)),
            (1.5 if i64s else 0.4, lambda: self.compare(I64, d)),
            (2 if bs else 0, lambda: self.var(BOOL)),
            (1.5, lambda: BinOp(self.rng.choice(["&&", "||"]), BOOL, self.cond(d // 2), self.cond(d // 2))),
            (0.3, lambda: BinOp(self.rng.choice(["==", "!="]), BOOL, self.cond(d // 2), self.cond(d // 2))),
            (0.2, lambda: Lit(BOOL, self.rng.random() < 0.5)),
            (0.4 if depth else 0, lambda: self.let(d, lambda: self.cond(d))),
            (0.3 if depth else 0, lambda: If(BOOL, self.cond(d), self.cond(d), self.cond(d))),
        ])

    def idx(self, n, d):
        """An Idx n: in range, or (divisions "any") maybe not."""
        ivs = self.idx_vars(n)
        safe = self.safe.get(n, [])
        return self.pick([
            (3 if ivs else 0, lambda: Var(self.rng.choice(ivs))),
            (2, lambda: mk_idx(n, self.nat_mod(d, n))),
            (1, lambda: mk_idx(n, Lit(NAT, self.rng.randint(0, n - 1)))),
            (3 if safe else 0, lambda: mk_idx(n, Var(self.rng.choice(safe)))),
            (0.5 if self.divisions == "any" else 0, lambda: mk_idx(n, self.nat(d))),
            (0.15 if self.divisions == "any" else 0, lambda: mk_idx(n, Lit(NAT, self.rng.randint(n, n + 3)))),
        ])

    def arr(self, n, elem, d):
        """An Array n elem: a variable or top-level array, else built inline
        or a literal."""
        cands = self.arrays(elem, n)
        return self.pick([
            (4 if cands else 0, lambda: self.rng.choice(cands)[0]),
            (1 if self.builds or not cands else 0, lambda: self.build(n, elem, d)),
            (0.5, lambda: ArrayLit(elem, [scalar_lit(self.rng, elem) for _ in range(n)])),
        ])

    def build(self, n, elem, d):
        """`build n (λ ix. …)`: the body sees ix : Idx n (no builds within)."""
        builds, self.builds = self.builds, 0
        body = self.bind("ix", Idx(n), lambda: self.gen(elem, min(d, 2)))
        self.builds = max(builds - 1, 0)
        return build(n, "ix", body)

    def get(self, elem, d):
        cands = self.arrays(elem)
        options = [(4, lambda: self.rng.choice(cands))] if cands else []
        if self.builds:
            options.append((0.5 if cands else 1, lambda: (lambda n: (self.build(n, elem, d), Arr(n, elem)))(
                self.rng.choice(SIZES))))
        arr, t = self.pick(options)
        return call("get", arr, self.idx(t.n, d))

    def let(self, depth, body):
        """`let` around body(); bound to a Nat, F64, I64, Bool or Idx n, maybe
        a variable, maybe shadowing a name in scope (with another type too)."""
        name = self.rng.choice([n for n in LET_NAMES if n not in self.protected])
        r = self.rng.random()
        if r < 0.25:
            ty, bound = BOOL, self.cond(depth)
        elif r < 0.3:
            n = self.rng.choice(SIZES)
            ty, bound = Idx(n), self.idx(n, depth)
        else:
            ty = self.rng.choice(SCALARS)
            vs = self.vars(ty)
            bound = Var(self.rng.choice(vs)) if vs and self.rng.random() < 0.2 else self.gen(ty, depth)
        annot = isinstance(ty, Idx) or self.rng.random() < 0.4
        if isinstance(ty, Idx) and isinstance(bound, IdxLit) and self.rng.random() < 0.5:
            bound, annot = Ann(bound, ty), False
        return Let(name, ty if annot else None, bound, self.bind(name, ty, body))

    def arg(self, ty, bound, depth):
        """An argument for a parameter: anything, or a counter within bound."""
        if bound is None:
            return self.gen(ty, depth)
        if self.rng.random() < 0.4:
            return Lit(NAT, self.rng.randint(0, bound))
        return self.nat_mod(depth, bound + 1)

    def fuel_call(self, depth):
        self.self_calls += 1
        counter = BinOp("-", NAT, Var("fuel"), Lit(NAT, self.rng.choice([1, 1, 2])))
        return call(self.fn.name, counter, *[self.gen(t, depth) for t in self.fn.ptypes[1:]])

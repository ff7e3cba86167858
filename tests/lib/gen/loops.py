"""The first-order family's I64 variant (first_order.py): programs of 3-5
functions of 1-4 I64 parameters and a driver, for the baseline JIT tier.

Bodies mix I64 literals (0, ±1, ±2, INT64_MAX, INT64_MIN, 2^62 - 1, 2^62,
-2^62, -2^62 - 1: outside ±2^62 a run-time word is boxed; also the limits of
32-bit immediates), variables, `let`s (typed or not, bound to variables,
shadowing, also an I64 by a Bool), nested `if`s, `+ - * / %` (divisors that
may be 0 or -1), all comparisons on I64, `==`/`!=` on Bool, Bool-valued lets
used as conditions, and calls of the program's earlier functions. A bare
literal infers as a Nat, so the left operand of an operator is annotated
`(e : I64)` where inference needs it. Kinds of function:
  plain   a body over the parameters;
  fuel    `if fuel <= 0 then … else …` with one or two self-calls on
          `fuel - 1` or `fuel - 2`, in tail position or not;
  loop    `if n <= 0 then … else …`, the other branches ending in tail calls
          of itself (accumulators, sometimes permuted: `loop (n - 1) b a`) or
          of other functions: loops in baseline code;
  deep    non-tail recursion `… deep (n - 1) …`, .eval'd up to 20,000 deep;
  driver  `drive i acc`, a tail loop calling the others.
Call sites bound the counters (`e % 6`, `e % 301`, small literals), so all
programs terminate. The model's semantics are exact: a division by zero is
a run-time error the program's `.eval` reports.
"""
from core_model import COMPARISONS, I64_MAX, I64_MIN

from .first_order import BodyGen, Fn
from .semantics import Exact
from .terms import Ann, BinOp, If, Let, Lit, Var, call
from .ty import BOOL, I64

SEMANTICS = Exact(nat_bits=0)
EDGES = [0, 1, -1, 2, -2, I64_MAX, I64_MIN, I64_MAX - 1, I64_MIN + 1,
         (1 << 62) - 1, 1 << 62, -(1 << 62), -(1 << 62) - 1,
         (1 << 31) - 1, 1 << 31, -(1 << 31), -(1 << 31) - 1, 1 << 32]
FUEL_BOUND, LOOP_BOUND, DEEP_BOUND = 5, 300, 200   # counters at call sites inside programs
# Names of lets: they may shadow the data parameters a b c, never the
# counters fuel, n, i (which must decrease) or deep's r.
LET_NAMES = ["x", "y", "z", "t", "u", "a", "b", "c"]


def i64_value(rng):
    r = rng.random()
    return rng.randint(-9, 99) if r < 0.45 else rng.choice(EDGES) if r < 0.85 else rng.randint(I64_MIN, I64_MAX)


def num(v):
    """An I64 constant: bare if v >= 0 (checked against I64 where it stands),
    else `(0 - v : I64)`."""
    return Lit(I64, v) if v >= 0 else Ann(Lit(I64, v), I64)


def typed(e):
    """Does inferring e's text give its type (I64 or Bool)? A bare literal
    is a Nat unless the other operand of its operator says otherwise (`3 <
    x`, not `(3 + 4) < x`); an `if` takes the type of its first branch."""
    if isinstance(e, Lit):
        return e.ty != I64
    if isinstance(e, If):
        return typed(e.then)
    if isinstance(e, Let):
        return typed(e.body)
    return True


def op(o, a, b):
    """a o b on I64 (an arithmetic operator or a comparison), the left
    operand annotated where inference needs it."""
    left = a if typed(a) or isinstance(a, Lit) and typed(b) else Ann(a, I64)
    return BinOp(o, I64, left, b)


class I64BodyGen(BodyGen):
    """Random expressions for one function body. divisions: "any" (divisors
    may be 0), "safe" (never 0) or "none"."""

    def lit(self):
        return num(i64_value(self.rng))

    def i64(self, depth):
        vs = self.vars(I64)
        leaf = [(1, self.lit), (4 if vs else 0, lambda: self.var(I64))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + [
            (4, lambda: op(self.rng.choice("+-*"), self.i64(d), self.i64(d))),
            (1.5 if self.divisions != "none" else 0, lambda: self.division(d)),
            (2, lambda: If(I64, self.cond(d), self.i64(d), self.i64(d))),
            (2, lambda: self.let(d, lambda: self.i64(d))),
            (1.5 if self.calls_left and self.callees else 0, lambda: self.any_call(d)),
            (3 if self.fn.kind == "fuel" and self.self_calls < 2 else 0, lambda: self.fuel_call(d)),
        ])

    def division(self, d):
        """x / y or x % y; y is anything (maybe 0 or -1) unless divisions
        are "safe": then a literal or `e % k + k + 1`, never 0."""
        o = self.rng.choice("/%")
        x = num(I64_MIN) if self.rng.random() < 0.1 else self.i64(d)
        r = self.rng.random()
        if r < 0.3:
            y = num(self.rng.choice([v for v in EDGES if v] + [3, 7, 10, -3]))
        elif r < 0.5 or self.divisions == "safe":
            k = self.rng.randint(1, 9)
            y = op("+", op("%", self.i64(d), num(k)), num(k + 1))
        else:
            y = self.i64(d)
        return op(o, x, y)

    def cond(self, depth):
        """A Bool."""
        d = max(depth - 1, 0)
        return self.pick([
            (6, lambda: op(self.rng.choice(COMPARISONS), self.i64(d), self.i64(d))),
            (3 if self.vars(BOOL) else 0, lambda: self.var(BOOL)),
            (1.5, lambda: BinOp(self.rng.choice(["==", "!="]), BOOL, self.cond(d // 2), self.cond(d // 2))),
            (0.3, lambda: Lit(BOOL, self.rng.random() < 0.5)),
            (0.5 if depth else 0, lambda: self.let(d, lambda: self.cond(d))),
            (0.4 if depth else 0, lambda: If(BOOL, self.cond(d), self.cond(d), self.cond(d))),
        ])

    def let(self, depth, body):
        """`let` around body(); the bound value is an I64 or a Bool, maybe a
        variable, maybe shadowing a name in scope (with another type too)."""
        name = self.rng.choice(LET_NAMES)
        r = self.rng.random()
        if r < 0.3:
            ty, bound = BOOL, self.cond(depth)
        elif r < 0.45 and self.vars(I64):
            ty, bound = I64, self.var(I64)
        elif r < 0.5 and self.vars(BOOL):
            ty, bound = BOOL, self.var(BOOL)
        else:
            ty, bound = I64, self.i64(depth)
        annot = ty == I64 and not typed(bound) or self.rng.random() < 0.4
        return Let(name, ty if annot else None, bound, self.bind(name, ty, body))

    def arg(self, _ty, bound, depth):
        """An argument for a parameter: anything, or a counter within ±bound."""
        if bound is None:
            return self.i64(depth)
        if self.rng.random() < 0.4:
            return num(self.rng.randint(-1, bound))
        return op("%", self.i64(depth), num(bound + 1))

    def any_call(self, depth):
        return self.call(self.rng.choice(self.callees), depth)

    def fuel_call(self, depth):
        self.self_calls += 1
        counter = op("-", Var("fuel"), num(self.rng.choice([1, 1, 2])))
        return call(self.fn.name, counter, *[self.i64(depth) for _ in self.fn.params[1:]])

    def self_call(self, depth, counter):
        """A call of the function itself with `counter` first: the other
        arguments are new values or a permutation of the parameters."""
        self.self_calls += 1
        rest = self.fn.params[1:]
        if self.rng.random() < 0.35:
            vs = self.vars(I64)
            args = [Var(self.rng.choice(vs)) for _ in rest] if len(vs) < len(rest) else \
                [Var(v) for v in self.rng.sample(vs, len(rest))]
        else:
            args = [self.i64(depth) for _ in rest]
        return call(self.fn.name, counter, *args)

    def tail(self, depth):
        """The step of a loop: every path ends in a tail call (mostly of itself)."""
        d = depth - 1
        counter = op("-", Var("n"), num(self.rng.choice([1, 1, 1, 2])))
        return self.pick([
            (4 if depth <= 0 else 3, lambda: self.self_call(1, counter)),
            (2 if depth > 0 else 0, lambda: If(I64, self.cond(d), self.tail(d), self.tail(d))),
            (1.5 if depth > 0 else 0, lambda: self.let(d, lambda: self.tail(d))),
            (0.5, lambda: self.i64(1)),
            (0.5 if self.calls_left and self.callees else 0, lambda: self.any_call(1)),
        ])

    def body(self):
        kind = self.fn.kind
        if kind == "plain":
            return self.i64(4)
        if kind == "fuel":
            stop = self.rng.choice([op("<=", Var("fuel"), num(0)), op("<", Var("fuel"), num(1)),
                                    op(">=", num(0), Var("fuel"))])
            self.self_calls = 2                         # none in the base case
            base = self.i64(2)
            self.self_calls = 0
            rec = self.i64(4)
            if not self.self_calls:
                rec = op(self.rng.choice("+-*"), rec, self.fuel_call(2))
            return If(I64, stop, base, rec)
        if kind == "loop":
            step = self.tail(3)
            if not self.self_calls:
                step = If(I64, self.cond(1), self.self_call(1, op("-", Var("n"), num(1))), step)
            return If(I64, op("<=", Var("n"), num(0)), self.i64(2), step)
        if kind == "deep":
            return If(I64, op("<=", Var("n"), num(0)), self.i64(2), self.deep_step())
        return self.driver()

    def deep_step(self):
        rec = self.self_call(1, op("-", Var("n"), num(1)))
        if self.rng.random() < 0.5:
            return Let("r", I64, rec, self.bind("r", I64, lambda: self.i64(3)))
        if self.rng.random() < 0.5:
            # (`e + deep …` and `e * deep …` are loops with an accumulator in
            # baseline code: not with "none" divisions, whose programs must
            # exhaust the stack in every mode run)
            return op(self.rng.choice("-" if self.divisions == "none" else "+-*"), self.i64(2), rec)
        return op(self.rng.choice("+-*"), rec, self.i64(2))

    def driver(self):
        """drive (i - 1) (a mix of acc and calls of the others)."""
        self.calls_left = 4
        mix = op("*", Var("acc"), num(31))
        for g in self.rng.sample(self.callees, min(3, len(self.callees))):
            mix = op(self.rng.choice("+-"), mix, self.call(g, 2))
        return If(I64, op("<=", Var("i"), num(0)), Var("acc"), call(self.fn.name, op("-", Var("i"), num(1)), mix))


def add_globals(rng, prog, model, pid):
    """(No top-level values in this variant.)"""


def new_fn(rng, pid, k, kind):
    """The k-th function of program pid, without its body: the counter first
    (bounded at call sites), then the data parameters."""
    if kind == "driver":
        return Fn(f"drive_p{pid}", kind, ["i", "acc"], [I64, I64], [None, None], I64)
    counter, bound = {"plain": ([], []), "fuel": (["fuel"], [FUEL_BOUND]),
                      "loop": (["n"], [LOOP_BOUND]), "deep": (["n"], [DEEP_BOUND])}[kind]
    lo, hi = {"plain": (1, 4), "fuel": (0, 3), "loop": (1, 3), "deep": (0, 2)}[kind]
    data = ["a", "b", "c", "d"][:rng.randint(lo, hi)]
    params = counter + data
    return Fn(f"{kind[0]}{k}_p{pid}", kind, params, [I64] * len(params), bound + [None] * len(data), I64)


def body(rng, fn, prog, divisions):
    return I64BodyGen(rng, fn, prog.fns[:], divisions).body()


def eval_args(rng, prog, fn):
    """Arguments for a direct `.eval` of fn: edge values for the data."""
    if fn.kind == "driver":
        return [num(rng.randint(5, 40)), num(rng.choice(EDGES + [rng.randint(-99, 99)]))]
    args = []
    for b in fn.bounds:
        if b is None:
            args.append(rng.choice(EDGES) if rng.random() < 0.6 else rng.randint(-99, 99))
        elif fn.kind == "deep" and rng.random() < 0.5:
            args.append(rng.randint(2000, 20000))
        else:
            args.append(rng.randint(-1, b))
    return [num(v) for v in args]


def driver_args(rng, fn):
    return [num(1000), num(rng.randint(-99, 99))]

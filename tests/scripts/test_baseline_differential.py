#!/usr/bin/env python3
"""Differential test of the baseline JIT tier (jit/baseline.cpp,
plugins/core/baseline_lower.cpp) on random programs made of first-order I64
functions, the fragment it compiles.

  test_baseline_differential.py THORIN [--seed S] [--count N] [--per-file K]
      [--hot H] [--errors E] [--stacks S] [--jobs J] [--keep DIR]

Programs (fixed seed): each has 3-5 functions of 1-4 I64 parameters and a
driver. Bodies mix I64 literals (0, ±1, ±2, INT64_MAX, INT64_MIN, 2^62 - 1,
2^62, -2^62, -2^62 - 1: outside ±2^62 a run-time word is boxed; also the
limits of 32-bit immediates), variables, `let`s (typed or not, bound to
variables, shadowing, also an I64 by a Bool), nested `if`s, `+ - * / %`
(divisors that may be 0 or -1), all comparisons on I64, `==`/`!=` on Bool,
Bool-valued lets used as conditions, and calls of the program's earlier
functions. Kinds of function:
  plain   a body over the parameters;
  fuel    `if fuel <= 0 then … else …` with one or two self-calls on
          `fuel - 1` or `fuel - 2`, in tail position or not;
  loop    `if n <= 0 then … else …`, the other branches ending in tail calls
          of itself (accumulators, sometimes permuted: `loop (n - 1) b a`) or
          of other functions: loops in baseline code;
  deep    non-tail recursion `… deep (n - 1) …`, .eval'd up to 20,000 deep;
  driver  `drive i acc`, a tail loop calling the others.
Call sites bound the counters (`e % 6`, `e % 301`, small literals), so all
programs terminate. Each function is .eval'd directly (edge values as
arguments: the entry's unboxing and boxing) and through the driver; with
`--jit-threshold 1` every function is compiled at its first call.

A Python model runs every .eval (strict, left to right, I64 wrapping, `/`
and `%` truncating, INT64_MIN / -1 = INT64_MIN, INT64_MIN % -1 = 0) under a
step budget; a function is drawn again until one of its .evals succeeds.
.evals over budget are dropped, and those that divide by zero are set apart.

Files of K programs, and the checks:
- ordinary files, and error files (three programs, then a program whose
  .eval divides by zero deepest in its calls, that .eval last), run as
    THORIN run --jit=off FILE                                (the reference)
    THORIN run --jit=baseline --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=lazy --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=eager FILE
  stdout, stderr (but `jit:` lines) and exit status must be equal to the
  reference's, and the reference's stdout must be the model's values (and an
  error file must end with the model's error, exit status 2);
- hot files: the same, of programs whose divisors are never 0, then a long
  .eval of each driver (not run by the model; about 0.1 s of baseline code
  in all, several seconds interpreted), so that lazy mode moves over to
  LLVM's code while baseline code runs;
- stack files: an ordinary program, then a division-free `deep` .eval'd
  100,000,000 deep, run with a 32 MB stack in --jit=off and --jit=baseline
  only, which must agree (on "the program recursed too deeply"): LLVM's
  code may run such a recursion in constant stack (docs/runtime.md);
- coverage: at least 80 % of the functions must have baseline code (named
  in a `jit: baseline code for NAME` line of the --jit=baseline runs, or
  called by one: a module gets code for all its functions or none), so the
  test cannot silently stop exercising the tier.
A file where a mode disagrees with the reference is shrunk (programs, then
definitions and .evals, while the same two modes still disagree; for at
most SHRINK_BUDGET seconds) and the smallest failing file is printed with
all outputs. A run over RUN_TIMEOUT is reported as such, unshrunk. Under
the sanitizers (`thorin --version` says so) the hot files' long .evals
take a quarter of the steps. Exit status 1 on any failure.
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin as thorin_exe  # noqa: E402
from core_model import I64_MIN, I64_MAX, COMPARISONS, RunError, wrap, i64_div, i64_rem  # noqa: E402

EDGES = [0, 1, -1, 2, -2, I64_MAX, I64_MIN, I64_MAX - 1, I64_MIN + 1,
         (1 << 62) - 1, 1 << 62, -(1 << 62), -(1 << 62) - 1,
         (1 << 31) - 1, 1 << 31, -(1 << 31), -(1 << 31) - 1, 1 << 32]

FUEL_BOUND, LOOP_BOUND, DEEP_BOUND = 5, 300, 200   # counters at call sites inside programs
EVAL_BUDGET = 150_000        # model steps (nodes of the bodies entered) per `.eval`
HOT_STEPS = 1_200_000_000    # the same, estimated, for the long `.eval`s ending a hot file
SANITIZED_SLOWDOWN = 4       # a sanitized build interprets the hot files ~5x slower: fewer steps
STACK_DEPTH = 100_000_000    # the stack files' recursion

MODES = {
    "off": ["--jit=off"],
    "baseline": ["--jit=baseline", "--jit-threshold", "1", "--jit-stats"],
    "lazy": ["--jit=lazy", "--jit-threshold", "1", "--jit-stats"],
    "eager": ["--jit=eager"],
}
STACK_MODES = ["off", "baseline"]
STACK_ENV = {"THORIN_STACK_MB": "32"}
RUN_TIMEOUT = 60              # seconds per run (the slowest, a hot file interpreted, takes ~8;
                              # under the sanitizers, with a quarter of the steps, ~10)
SHRINK_BUDGET = 300           # seconds of shrinking per failing file; then the smallest so far


# ---------------------------------------------------------------- programs

class Lit:
    def __init__(self, v):
        self.v = v


class BoolLit:
    def __init__(self, v):
        self.v = v


class Var:
    def __init__(self, name):
        self.name = name


class Bin:                   # + - * / % on I64
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b


class Cmp:                   # a comparison of two I64s or (== and != only) two Bools
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b


class If:
    def __init__(self, c, a, b):
        self.c, self.a, self.b = c, a, b


class Let:                   # ty: "I64" or "Bool"; annot: whether the text says it
    def __init__(self, name, ty, annot, bound, body):
        self.name, self.ty, self.annot, self.bound, self.body = name, ty, annot, bound, body


class Call:
    def __init__(self, fn, args):
        self.fn, self.args = fn, args


class Fn:
    """A top-level function. bounds[i]: None, or the largest value call sites
    give the i-th parameter (a fuel or loop counter)."""

    def __init__(self, name, kind, params, bounds):
        self.name, self.kind, self.params, self.bounds = name, kind, params, bounds
        self.body = None

    def callees(self):
        """The names of the functions its body calls."""
        out, todo = set(), [self.body]
        while todo:
            e = todo.pop()
            if isinstance(e, Call):
                out.add(e.fn.name)
            todo.extend(children(e))
        return out


def children(e):
    return [getattr(e, f) for f in ("c", "a", "b", "bound", "body") if hasattr(e, f)] + getattr(e, "args", [])


def size(e):
    return 1 + sum(size(c) for c in children(e))


# ---------------------------------------------------------------- rendering

LOW, CMP, ADD, MUL, APP, ATOM = range(6)     # precedence: if/let, comparison, + -, * / %, application


def typed(e):
    """Does inferring e's text give an I64? A bare literal is a Nat unless
    the other operand of its operator says otherwise (`3 < x`, not
    `(3 + 4) < x`); an `if` takes the type of its first branch. The renderer
    annotates the left operand of an operator when needed, so operators
    always give an I64."""
    if isinstance(e, Lit):
        return e.v < 0                              # rendered with an annotation
    if isinstance(e, If):
        return typed(e.a)
    if isinstance(e, Let):
        return typed(e.body)
    return True


def operand(a, b, prec):
    """The left operand a of an operator whose right operand is b."""
    if typed(a) or isinstance(a, Lit) and typed(b):
        return show(a, prec)
    return f"({show(a)} : I64)"


def lit_text(v):
    if v >= 0:
        return str(v)
    if v == I64_MIN:
        return f"(0 - {I64_MAX} - 1 : I64)"
    return f"(0 - {-v} : I64)"


def show(e, need=LOW):
    if isinstance(e, Lit):
        s, p = lit_text(e.v), ATOM
    elif isinstance(e, BoolLit):
        s, p = ("true" if e.v else "false"), ATOM
    elif isinstance(e, Var):
        s, p = e.name, ATOM
    elif isinstance(e, Bin):
        p = ADD if e.op in "+-" else MUL
        s = f"{operand(e.a, e.b, p)} {e.op} {show(e.b, p + 1)}"
    elif isinstance(e, Cmp):
        p = CMP
        s = f"{operand(e.a, e.b, ADD)} {e.op} {show(e.b, ADD)}"
    elif isinstance(e, If):
        s, p = f"if {show(e.c, CMP)} then {show(e.a, CMP)} else {show(e.b)}", LOW
    elif isinstance(e, Let):
        ty = f" : {e.ty}" if e.annot else ""
        s, p = f"let {e.name}{ty} = {show(e.bound, CMP)}; {show(e.body)}", LOW
    else:
        s, p = " ".join([e.fn.name] + [show(a, ATOM) for a in e.args]), APP
    return s if p >= need else f"({s})"


def fn_text(fn):
    ty = " → ".join(["I64"] * (len(fn.params) + 1))
    return f"{fn.name} : {ty}\n  = λ {' '.join(fn.params)}. {show(fn.body)}\n"


def eval_text(fn, args):
    return f".eval {show(Call(fn, [Lit(a) for a in args]))}\n"


# ---------------------------------------------------------------- the model

class OutOfBudget(Exception):
    pass


class Model:
    """The program's functions compiled to Python functions, which count the
    steps (the size of each body entered) and the depth of calls."""

    budget = EVAL_BUDGET     # model steps per `.eval`
    size = staticmethod(size)  # the steps of entering a body

    def __init__(self):
        # %core arithmetic is core_model's.
        self.ns = {"OutOfBudget": OutOfBudget, "W": wrap, "I64_DIV": i64_div, "I64_REM": i64_rem}

    def add(self, fn):
        """Defines (or redefines) fn. A driver also counts its iterations."""
        scope = {p: f"v{i}" for i, p in enumerate(fn.params)}
        count = "    global ITERS\n    ITERS += 1\n" if fn.kind == "driver" else ""
        src = (f"def F_{fn.name}({', '.join(scope.values())}):\n"
               f"    global STEPS, DEPTH\n{count}"
               f"    STEPS += {self.size(fn.body)}\n"
               f"    if STEPS > {self.budget}:\n"
               f"        raise OutOfBudget()\n"
               f"    DEPTH += 1\n"
               f"    r = {self.expr(fn.body, scope, [len(scope)])}\n"
               f"    DEPTH -= 1\n"
               f"    return r\n")
        exec(src, self.ns)

    def run(self, fn, args):
        """The value of `fn args`, or raises RunError / OutOfBudget."""
        self.ns["STEPS"] = self.ns["DEPTH"] = self.ns["ITERS"] = 0
        return self.at_depth(lambda: self.ns[f"F_{fn.name}"](*args))

    def at_depth(self, thunk):
        """thunk(), a RunError given the depth of calls it happened at."""
        try:
            return thunk()
        except RunError as ex:
            ex.depth = self.ns["DEPTH"]
            raise

    def driver_cost(self, fn, args):
        """Model steps per iteration of the driver fn, from `fn args` run
        until it ends or the budget is spent."""
        try:
            self.run(fn, args)
        except (RunError, OutOfBudget):
            pass
        return self.ns["STEPS"] // max(self.ns["ITERS"], 1) + 1

    def expr(self, e, scope, fresh):
        """Python for e (strict, left to right); fresh: [next variable number]."""
        if isinstance(e, (Lit, BoolLit)):
            return repr(e.v)
        if isinstance(e, Var):
            return scope[e.name]
        if isinstance(e, Call):
            return f"F_{e.fn.name}({', '.join(self.expr(a, scope, fresh) for a in e.args)})"
        if isinstance(e, If):
            c, a, b = (self.expr(x, scope, fresh) for x in (e.c, e.a, e.b))
            return f"(({a}) if ({c}) else ({b}))"
        if isinstance(e, Let):
            v = f"v{fresh[0]}"
            fresh[0] += 1
            bound = self.expr(e.bound, scope, fresh)
            return f"(({v} := ({bound})), ({self.expr(e.body, {**scope, e.name: v}, fresh)}))[1]"
        a, b = self.expr(e.a, scope, fresh), self.expr(e.b, scope, fresh)
        if isinstance(e, Cmp):
            return f"(({a}) {e.op} ({b}))"
        if e.op in "/%":
            return f"I64_{'DIV' if e.op == '/' else 'REM'}({a}, {b})"
        return f"W(({a}) {e.op} ({b}))"


# ---------------------------------------------------------------- generation

# Names of lets: they may shadow the data parameters a b c, never the
# counters fuel, n, i (which must decrease) or deep's r.
LET_NAMES = ["x", "y", "z", "t", "u", "a", "b", "c"]


class BodyGen:
    """Random expressions for one function body. divisions: "any" (divisors
    may be 0), "safe" (never 0) or "none"."""

    def __init__(self, rng, fn, callees, divisions):
        self.rng, self.fn, self.callees, self.divisions = rng, fn, callees, divisions
        self.scope = [(p, "I64") for p in fn.params]
        self.calls_left = 2
        self.self_calls = 0

    def vars(self, ty):
        seen, out = set(), []
        for name, t in reversed(self.scope):
            if name not in seen:
                seen.add(name)
                if t == ty:
                    out.append(name)
        return out

    def lit(self):
        r = self.rng.random()
        if r < 0.45:
            return Lit(self.rng.randint(-9, 99))
        if r < 0.85:
            return Lit(self.rng.choice(EDGES))
        return Lit(self.rng.randint(I64_MIN, I64_MAX))

    def pick(self, options):
        """options: [(weight, thunk)]; runs one chosen by weight."""
        total = sum(w for w, _ in options if w > 0)
        x = self.rng.uniform(0, total)
        for w, f in options:
            if w > 0:
                x -= w
                if x <= 0:
                    return f()
        return options[0][1]()

    def i64(self, depth):
        vs = self.vars("I64")
        leaf = [(1, self.lit), (4 if vs else 0, lambda: Var(self.rng.choice(vs)))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + [
            (4, lambda: Bin(self.rng.choice("+-*"), self.i64(d), self.i64(d))),
            (1.5 if self.divisions != "none" else 0, lambda: self.division(d)),
            (2, lambda: If(self.cond(d), self.i64(d), self.i64(d))),
            (2, lambda: self.let(d, lambda: self.i64(d))),
            (1.5 if self.calls_left and self.callees else 0, lambda: self.any_call(d)),
            (3 if self.fn.kind == "fuel" and self.self_calls < 2 else 0, lambda: self.fuel_call(d)),
        ])

    def division(self, d):
        """x / y or x % y; y is anything (maybe 0 or -1) unless divisions
        are "safe": then a literal or `e % k + k + 1`, never 0."""
        op = self.rng.choice("/%")
        x = Lit(I64_MIN) if self.rng.random() < 0.1 else self.i64(d)
        r = self.rng.random()
        if r < 0.3:
            y = Lit(self.rng.choice([v for v in EDGES if v] + [3, 7, 10, -3]))
        elif r < 0.5 or self.divisions == "safe":
            k = self.rng.randint(1, 9)
            y = Bin("+", Bin("%", self.i64(d), Lit(k)), Lit(k + 1))
        else:
            y = self.i64(d)
        return Bin(op, x, y)

    def cond(self, depth):
        """A Bool."""
        bs = self.vars("Bool")
        d = max(depth - 1, 0)
        return self.pick([
            (6, lambda: Cmp(self.rng.choice(COMPARISONS), self.i64(d), self.i64(d))),
            (3 if bs else 0, lambda: Var(self.rng.choice(bs))),
            (1.5, lambda: Cmp(self.rng.choice(["==", "!="]), self.cond(d // 2), self.cond(d // 2))),
            (0.3, lambda: BoolLit(self.rng.random() < 0.5)),
            (0.5 if depth else 0, lambda: self.let(d, lambda: self.cond(d))),
            (0.4 if depth else 0, lambda: If(self.cond(d), self.cond(d), self.cond(d))),
        ])

    def let(self, depth, body):
        """`let` around body(); the bound value is an I64 or a Bool, maybe a
        variable, maybe shadowing a name in scope (with another type too)."""
        name = self.rng.choice(LET_NAMES)
        r = self.rng.random()
        if r < 0.3:
            ty, bound = "Bool", self.cond(depth)
        elif r < 0.45 and self.vars("I64"):
            ty, bound = "I64", Var(self.rng.choice(self.vars("I64")))
        elif r < 0.5 and self.vars("Bool"):
            ty, bound = "Bool", Var(self.rng.choice(self.vars("Bool")))
        else:
            ty, bound = "I64", self.i64(depth)
        annot = ty == "I64" and not typed(bound) or self.rng.random() < 0.4
        self.scope.append((name, ty))
        e = Let(name, ty, annot, bound, body())
        self.scope.pop()
        return e

    def arg(self, bound, depth):
        """An argument for a parameter: anything, or a counter within ±bound."""
        if bound is None:
            return self.i64(depth)
        if self.rng.random() < 0.4:
            return Lit(self.rng.randint(-1, bound))
        return Bin("%", self.i64(depth), Lit(bound + 1))

    def call(self, g, depth):
        self.calls_left -= 1
        return Call(g, [self.arg(b, depth) for b in g.bounds])

    def any_call(self, depth):
        return self.call(self.rng.choice(self.callees), depth)

    def fuel_call(self, depth):
        self.self_calls += 1
        counter = Bin("-", Var("fuel"), Lit(self.rng.choice([1, 1, 2])))
        return Call(self.fn, [counter] + [self.i64(depth) for _ in self.fn.params[1:]])

    def self_call(self, depth, counter):
        """A call of the function itself with `counter` first: the other
        arguments are new values or a permutation of the parameters."""
        self.self_calls += 1
        rest = self.fn.params[1:]
        if self.rng.random() < 0.35:
            vs = self.vars("I64")
            args = [Var(self.rng.choice(vs)) for _ in rest] if len(vs) < len(rest) else \
                [Var(v) for v in self.rng.sample(vs, len(rest))]
        else:
            args = [self.i64(depth) for _ in rest]
        return Call(self.fn, [counter] + args)

    def tail(self, depth):
        """The step of a loop: every path ends in a tail call (mostly of itself)."""
        d = depth - 1
        counter = Bin("-", Var("n"), Lit(self.rng.choice([1, 1, 1, 2])))
        return self.pick([
            (4 if depth <= 0 else 3, lambda: self.self_call(1, counter)),
            (2 if depth > 0 else 0, lambda: If(self.cond(d), self.tail(d), self.tail(d))),
            (1.5 if depth > 0 else 0, lambda: self.let(d, lambda: self.tail(d))),
            (0.5, lambda: self.i64(1)),
            (0.5 if self.calls_left and self.callees else 0, lambda: self.any_call(1)),
        ])

    def body(self):
        kind = self.fn.kind
        if kind == "plain":
            return self.i64(4)
        if kind == "fuel":
            stop = self.rng.choice([Cmp("<=", Var("fuel"), Lit(0)), Cmp("<", Var("fuel"), Lit(1)),
                                    Cmp(">=", Lit(0), Var("fuel"))])
            self.self_calls = 2                         # none in the base case
            base = self.i64(2)
            self.self_calls = 0
            rec = self.i64(4)
            if not self.self_calls:
                rec = Bin(self.rng.choice("+-*"), rec, self.fuel_call(2))
            return If(stop, base, rec)
        if kind == "loop":
            step = self.tail(3)
            if not self.self_calls:
                step = If(self.cond(1), self.self_call(1, Bin("-", Var("n"), Lit(1))), step)
            return If(Cmp("<=", Var("n"), Lit(0)), self.i64(2), step)
        if kind == "deep":
            rec = self.self_call(1, Bin("-", Var("n"), Lit(1)))
            if self.rng.random() < 0.5:
                self.scope.append(("r", "I64"))
                step = Let("r", "I64", True, rec, self.i64(3))
                self.scope.pop()
            elif self.rng.random() < 0.5:
                # (`e + deep …` and `e * deep …` are loops with an
                # accumulator in baseline code: not with "none" divisions,
                # whose programs must exhaust the stack in every mode run)
                step = Bin(self.rng.choice("-" if self.divisions == "none" else "+-*"), self.i64(2), rec)
            else:
                step = Bin(self.rng.choice("+-*"), rec, self.i64(2))
            return If(Cmp("<=", Var("n"), Lit(0)), self.i64(2), step)
        # the driver: drive (i - 1) (a mix of acc and calls of the others)
        self.calls_left = 4
        mix = Bin("*", Var("acc"), Lit(31))
        for g in self.rng.sample(self.callees, min(3, len(self.callees))):
            mix = Bin(self.rng.choice("+-"), mix, self.call(g, 2))
        return If(Cmp("<=", Var("i"), Lit(0)), Var("acc"), Call(self.fn, [Bin("-", Var("i"), Lit(1)), mix]))


class Program:
    """Functions (names end in _pN), and `.eval`s with the model's values."""

    def __init__(self):
        self.fns, self.evals, self.errors = [], [], []
        self.driver_cost = 1            # model steps per iteration of the driver

    def entries(self, error=None):
        """The program's text as entries (definitions, then .evals, then the
        failing .eval `error` if given), each with the output line the model
        expects (None: prints nothing)."""
        out = [(fn_text(fn), None) for fn in self.fns]
        out += [(eval_text(fn, args), f"{v}\n") for fn, args, v in self.evals]
        if error:
            out.append((eval_text(error[0], error[1]), None))
        return out

    def long_eval(self, rng, steps):
        """A `.eval` of the driver taking about `steps` model steps (not
        evaluated by the model)."""
        fn = self.fns[-1]
        n = max(10, min(10 ** 6, steps // self.driver_cost))
        return eval_text(fn, [n, rng.choice(EDGES + [rng.randint(-99, 99)])]), None


def new_fn(rng, pid, k, kind):
    """The k-th function of program pid, without its body: the counter first
    (bounded at call sites), then the data parameters."""
    if kind == "driver":
        return Fn(f"drive_p{pid}", kind, ["i", "acc"], [None, None])
    counter, bound = {"plain": ([], []), "fuel": (["fuel"], [FUEL_BOUND]),
                      "loop": (["n"], [LOOP_BOUND]), "deep": (["n"], [DEEP_BOUND])}[kind]
    lo, hi = {"plain": (1, 4), "fuel": (0, 3), "loop": (1, 3), "deep": (0, 2)}[kind]
    data = ["a", "b", "c", "d"][:rng.randint(lo, hi)]
    return Fn(f"{kind[0]}{k}_p{pid}", kind, counter + data, bound + [None] * len(data))


def eval_args(rng, fn):
    """Arguments for a direct `.eval` of fn: edge values for the data."""
    if fn.kind == "driver":
        return [rng.randint(5, 40), rng.choice(EDGES + [rng.randint(-99, 99)])]
    args = []
    for b in fn.bounds:
        if b is None:
            args.append(rng.choice(EDGES) if rng.random() < 0.6 else rng.randint(-99, 99))
        elif fn.kind == "deep" and rng.random() < 0.5:
            args.append(rng.randint(2000, 20000))
        else:
            args.append(rng.randint(-1, b))
    return args


def gen_program(rng, pid, kinds=None, divisions="any"):
    """A program (divisions: "any", "safe" or "none", see BodyGen). Each
    function is .eval'd twice and drawn again (up to 20 times) until one of
    them succeeds in the model; failing .evals are kept in prog.errors as
    (fn, args, message, call depth)."""
    prog, model = Program(), Model()
    if not kinds:
        kinds = rng.sample(["plain", "plain", "fuel", "loop", "loop", "deep"], rng.randint(3, 5)) + ["driver"]
    for k, kind in enumerate(kinds):
        for _attempt in range(20):
            fn = new_fn(rng, pid, k, kind)
            fn.body = BodyGen(rng, fn, prog.fns[:], divisions).body()
            model.add(fn)
            evals, errors = [], []
            for _ in range(2):
                args = eval_args(rng, fn)
                try:
                    evals.append((fn, args, model.run(fn, args)))
                except RunError as ex:
                    errors.append((fn, args, ex.msg, ex.depth))
                except OutOfBudget:
                    pass
            if evals:
                break
        prog.fns.append(fn)
        prog.evals += evals
        prog.errors += errors
        if kind == "driver":
            prog.driver_cost = model.driver_cost(fn, [1000, rng.randint(-99, 99)])
    return prog


def stack_program(rng, pid):
    """A division-free `deep` function alone (it can only fail by exhausting
    the stack), .eval'd shallowly, then STACK_DEPTH deep."""
    prog = gen_program(rng, pid, kinds=["deep"], divisions="none")
    fn = prog.fns[0]
    return prog, (fn, [STACK_DEPTH] + eval_args(rng, fn)[1:])


# ---------------------------------------------------------------- files and runs

class Case:
    """A file: entries (text, expected stdout line or None) grouped by
    program, the modes it runs in, what its reference run must end with
    (error: (message, model's call depth) or None), and whether unchecked
    output follows the expected (tail: the hot files' long .evals)."""

    def __init__(self, name, progs, groups, modes, env=None, error=None, tail=False):
        self.name, self.groups, self.modes, self.env, self.error = name, groups, modes, env or {}, error
        self.tail = tail
        self.fns = [fn for p in progs for fn in p.fns]

    def entries(self):
        return [e for g in self.groups for e in g]


def batches_and_hot(a, rng, gen_program, fresh, **hot):
    """a.count ordinary programs in files of a.per_file, and a.hot hot files
    (first: they take longest) of programs that cannot divide by zero
    (`hot`: more options of gen_program), then a long run of each driver.
    The ordinary programs and the files."""
    ordinary = [gen_program(rng, next(fresh)) for _ in range(a.count)]
    cases = []
    for k in range(0, len(ordinary), a.per_file):
        chunk = ordinary[k:k + a.per_file]
        cases.append(Case(f"batch_{k // a.per_file:03d}", chunk, [p.entries() for p in chunk], list(MODES)))
    for k in range(a.hot):
        chunk = [gen_program(rng, next(fresh), divisions="safe", **hot) for _ in range(a.per_file)]
        tail = [p.long_eval(rng, a.hot_steps // len(chunk)) for p in chunk]
        groups = [p.entries() for p in chunk] + [tail]
        cases.insert(k, Case(f"hot_{k}", chunk, groups, list(MODES), tail=True))
    return ordinary, cases


def generate(a, rng):
    """The programs and the files (Cases)."""
    fresh = iter(range(10 ** 6))
    ordinary, cases = batches_and_hot(a, rng, gen_program, fresh)
    # Error files: three new programs, then an ordinary program whose error
    # is among the deepest, its failing .eval last.
    errs = sorted(((e[3], rng.random(), p, e) for p in ordinary for e in p.errors),
                  key=lambda t: t[:2], reverse=True)
    used = []
    for _depth, _r, p, (fn, args, msg, depth) in errs:
        if len(used) < a.errors and p not in used:
            used.append(p)
            chunk = [gen_program(rng, next(fresh)) for _ in range(3)]
            cases.append(Case(f"error_{len(used) - 1}", chunk + [p],
                              [q.entries() for q in chunk] + [p.entries((fn, args))], list(MODES),
                              error=(msg, depth)))
    for k in range(a.stacks):
        q = gen_program(rng, next(fresh))
        sp, call = stack_program(rng, next(fresh))
        cases.append(Case(f"stack_{k}", [q, sp], [q.entries(), sp.entries(call)], STACK_MODES,
                          env=STACK_ENV, error=("the program recursed too deeply", None)))
    return cases


def run(thorin, path, flags, env, timeout):
    """(exit status, stdout, stderr without `jit:` lines, raw stderr, seconds)
    of `thorin run FLAGS FILE` in FILE's directory."""
    r = thorin_exe.run(thorin, "run", *flags, os.path.basename(path), cwd=os.path.dirname(path),
                       timeout=timeout, env=env)
    if r.timed_out:
        killed = f"[killed after {timeout:.0f} s]\n"
        return "timeout", "", killed, killed, r.seconds
    return r.code, r.out, thorin_exe.without_jit_lines(r.err), r.err, r.seconds


class Runner:
    """Runs files in several modes on a thread pool."""

    def __init__(self, thorin, workdir, pool):
        self.thorin, self.workdir, self.pool, self.n = thorin, workdir, pool, 0

    def submit(self, case, entries, modes, timeout=RUN_TIMEOUT):
        """Writes the entries to a new directory's test.thorin (the name in
        error messages) and starts its runs: (text, {mode: future})."""
        self.n += 1
        d = os.path.join(self.workdir, f"{case.name}_{self.n:04d}")
        os.makedirs(d)
        path, text = os.path.join(d, "test.thorin"), "".join(t for t, _ in entries)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return text, {m: self.pool.submit(run, self.thorin, path, MODES[m], case.env, timeout) for m in modes}

    def run(self, case, entries, modes, timeout=RUN_TIMEOUT):
        text, futs = self.submit(case, entries, modes, timeout)
        return text, {m: f.result() for m, f in futs.items()}


def differing(results):
    """The modes whose (exit status, stdout, stderr) differ from --jit=off's."""
    return [m for m in results if results[m][:3] != results["off"][:3]]


def shrink(items, still_fails):
    """ddmin: removes chunks of items while still_fails holds."""
    n = 2
    while len(items) >= 2:
        chunk = -(-len(items) // n)
        for start in range(0, len(items), chunk):
            cand = items[:start] + items[start + chunk:]
            if still_fails(cand):
                items, n = cand, max(n - 1, 2)
                break
        else:
            if n >= len(items):
                break
            n = min(len(items), 2 * n)
    return items


def show_outputs(text, results):
    print("---- program")
    sys.stdout.write(text)
    for m, (rc, out, _err, raw, _t) in results.items():
        print(f"---- thorin run {' '.join(MODES[m])}: exit {rc}")
        sys.stdout.write(out)
        if raw:
            print("---- (stderr)")
            sys.stdout.write(raw)


def check(runner, case, text, res):
    """Prints what is wrong with a case's results; False if anything is."""
    bad = differing(res)
    rc, out, err, _raw, _t = res["off"]
    expected = "".join(line for _t, line in case.entries() if line)
    if case.error:
        model_ok = rc == 2 and out == expected and f"error: {case.error[0]}" in err
    else:
        model_ok = rc == 0 and not err and (out.startswith(expected) if case.tail else out == expected)
    if not bad and model_ok:
        return True
    if not bad:
        want, got = expected.splitlines(True), out.splitlines(True)
        i = next((i for i in range(len(want)) if i >= len(got) or got[i] != want[i]), len(want))
        print(f"==== {case.name}: the modes agree, but --jit=off is not what the model says: "
              f"first difference at line {i + 1}, expected {want[i:i + 1]}"
              + (f" and exit 2 with '{case.error[0]}'" if case.error else " and exit 0"))
        show_outputs(text, {"off": res["off"]})
        return False
    slow = [m for m in res if res[m][0] == "timeout"]
    if slow:
        # Not shrunk: every part of the file may time out again.
        print(f"==== {case.name}: {', '.join('--jit=' + m for m in slow)} took over {RUN_TIMEOUT} s")
        show_outputs(text, res)
        return False
    print(f"==== {case.name}: {', '.join('--jit=' + m for m in bad)} disagree with --jit=off")
    # Shrinking: runs of part of the file, in the two modes; one that takes
    # far longer than the whole file interpreted has gone wrong. Past the
    # budget, every candidate counts as passing, so ddmin ends at once.
    pair, timeout = ["off", bad[0]], min(RUN_TIMEOUT, 5 + 2 * res["off"][4])
    deadline = time.monotonic() + SHRINK_BUDGET

    def still_fails(entries):
        if time.monotonic() > deadline:
            return False
        return bool(differing(runner.run(case, entries, pair, timeout)[1]))
    if not still_fails(case.entries()):
        print("(not again in a second run: the first run's outputs follow)")
        show_outputs(text, res)
        return False
    groups = shrink(case.groups, lambda gs: still_fails([e for g in gs for e in g]))
    entries = shrink([e for g in groups for e in g], still_fails)
    text, small = runner.run(case, entries, case.modes, timeout)
    print(f"smallest failing file{' (shrinking ran out of time)' if time.monotonic() > deadline else ''}: "
          f"{len(entries)} of {len(case.entries())} definitions and .evals")
    show_outputs(text, small)
    return False


def coverage(cases, results):
    """(functions with baseline code, all functions): those named in the
    --jit=baseline runs' stats, and what they call."""
    fns = {fn.name: fn for c in cases for fn in c.fns}
    todo = [n for c in cases
            for n in re.findall(r"^jit: baseline code for (\S+) in ", results[c.name]["baseline"][3], re.M)]
    covered = set()
    while todo:
        n = todo.pop()
        if n in fns and n not in covered:
            covered.add(n)
            todo.extend(fns[n].callees())
    return covered, fns


def generated(a, generate):
    """The cases generate(a, rng) makes from seed a.seed, in a thread with a
    large stack (the model recurses as deep as the programs)."""
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 << 20)
    cases = []
    t = threading.Thread(target=lambda: cases.extend(generate(a, random.Random(a.seed))))
    t.start()
    t.join()
    return cases


def run_all(a, cases, workdir, t0):
    """Runs every case in its modes (a.jobs at a time) and checks them:
    (all agree, results per case and mode, seconds from t0 to the last run)."""
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        runner = Runner(os.path.abspath(a.thorin), workdir, pool)
        started = {c.name: runner.submit(c, c.entries(), c.modes) for c in cases}
        results = {name: {m: f.result() for m, f in futs.items()} for name, (_t, futs) in started.items()}
        t_run = time.monotonic() - t0
        times = {m: sum(r[m][4] for r in results.values() if m in r) for m in MODES}
        print("seconds per mode: " + ", ".join(f"{m} {t:.1f}" for m, t in times.items()))
        ok = all([check(runner, c, started[c.name][0], results[c.name]) for c in cases])
    return ok, results, t_run


def run_and_report(a, cases, t0, prefix, covers):
    """run_all in a scratch directory (a.keep: that one, kept), then
    covers(results) — the coverage check, which prints its report — and the
    verdict line; the exit status."""
    workdir = a.keep or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(workdir, exist_ok=True)
    try:
        ok, results, t_run = run_all(a, cases, workdir, t0)
        ok = covers(results) and ok
    finally:
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"{'ok' if ok else 'FAIL'}: {len(cases)} files; all runs done at {t_run:.1f} s, "
          f"{time.monotonic() - t0:.1f} s in all")
    return 0 if ok else 1


def arguments(doc, seed, count, per_file, hot, errors, hot_steps, more=None):
    """The options of both differential tests (their defaults differ; `more`
    adds a test's own), and a.hot_steps: the hot files' model steps for this
    build (fewer under the sanitizers, which interpret ~5x slower)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("thorin")
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--count", type=int, default=count, help=f"ordinary programs (default {count})")
    ap.add_argument("--per-file", type=int, default=per_file, help=f"programs per file (default {per_file})")
    ap.add_argument("--hot", type=int, default=hot, help=f"hot files (default {hot})")
    ap.add_argument("--errors", type=int, default=4, help=f"files ending in {errors} (default 4)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="write the files into this directory and keep them")
    if more:
        more(ap)
    a = ap.parse_args()
    a.hot_steps = hot_steps // (SANITIZED_SLOWDOWN if thorin_exe.sanitized(a.thorin) else 1)
    return a


def main():
    t0 = time.monotonic()
    a = arguments(__doc__, 20261122, 200, 8, 2, "a division error", HOT_STEPS,
                  lambda ap: ap.add_argument("--stacks", type=int, default=2,
                                             help="files ending in stack exhaustion (default 2)"))

    cases = generated(a, generate)
    depths = [str(c.error[1]) for c in cases if c.name.startswith("error")]
    print(f"seed {a.seed}: {len({fn.name for c in cases for fn in c.fns})} functions in {len(cases)} files "
          f"({a.hot} hot, {len(depths)} ending in a division error at call depth {', '.join(depths)}, "
          f"{a.stacks} in stack exhaustion), generated in {time.monotonic() - t0:.1f} s")

    def covers(results):
        covered, fns = coverage(cases, results)
        share = len(covered) / len(fns)
        print(f"baseline code for {len(covered)} of {len(fns)} functions ({100 * share:.1f} %)")
        if share >= 0.8:
            return True
        missing = sorted(set(fns) - covered)
        print(f"FAIL: under 80 % of the functions got baseline code; not: {' '.join(missing[:20])}")
        print(fn_text(fns[missing[0]]))
        return False

    return run_and_report(a, cases, t0, "thorin_baseline_diff_", covers)


if __name__ == "__main__":
    sys.exit(main())

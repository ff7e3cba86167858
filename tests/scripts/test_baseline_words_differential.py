#!/usr/bin/env python3
"""Differential test of the baseline JIT tier on the fragment beyond I64:
first-order functions over `Nat` (small ones immediate, big ones GMP's),
`F64`, `I64`, `Idx N` and arrays (`Array N F64`, `Array N I64`,
`Array N Nat`), with results of type Nat, F64 or I64.

  test_baseline_words_differential.py THORIN [--seed S] [--count N]
      [--per-file K] [--hot H] [--errors E] [--jobs J] [--keep DIR]
      [--min-coverage F]

Programs (fixed seed): each has 0-2 top-level arrays (`build N (λ ix. …)`
or a literal `[…]`, N 5 or 8) and 3-5 functions with a driver. Parameter
types mix Nat, F64, I64, Idx N and the three kinds of array. Bodies: Nat
literals (0, 1, 2^62 - 1, 2^62, 2^63, 2^64, 10^25, 10^40 …: past 2^62 a Nat
is boxed, a GMP number), F64 literals (0.5, -2.25, 1e300, 1e-300, -0.0 …:
`inf` and `nan` come from arithmetic), I64 literals (the edges of
test_baseline_differential.py), variables, `let`s (typed or not; Nat, F64,
I64, Bool, Idx N), nested `if`s on comparisons of Nat, F64 and I64 (== != <
<= > >=), `&&`, `||`, `==`/`!=` on Bool; Nat `+`, `-` (truncating at 0),
`*`, `/`, `%`; F64 `+ - * /` (division by 0.0 is `inf` or `nan`); I64
`+ - * / %`; `natToF64`, `get a (idx k)` (k reduced `% N`, a loop counter
known to be in range, or anything: an index out of range is a located
run-time error), `get a j` for `j : Idx N`, `idxToNat`, `length`, arrays
built inline or literal, and calls of the program's earlier functions.
Divisors may be 0 (a located run-time error). Kinds of function:
  plain   a body over the parameters;
  loop    a tail-recursive loop over a Nat counter, up (`if k >= 8 then acc
          else loop a (k + 1) (acc + get a (idx k))`) or down (`n == 0`, `n -
          1`), with one or two Nat / F64 / I64 accumulators and invariant
          parameters (often an array whose length bounds the counter);
  fuel    `if fuel == 0 then … else …` with one or two non-tail self-calls on
          `fuel - 1` or `fuel - 2`;
  deep    non-tail recursion `e ⊕ deep (n - 1) …` (⊕ also F64's + - * /,
          which are not associative), .eval'd up to 10,000 deep;
  driver  `drive i acc`, a tail loop calling the others, its accumulator a
          Nat kept below 10^9 + 7, an F64 or an I64.
Call sites bound the counters (`e % 9`, small literals), so all programs
terminate. Each function is .eval'd directly (edge values as arguments;
arrays given as a top-level name, an inline `build` or a literal, which
stores words instead of raw machine numbers) and through the driver; with
`--jit-threshold 1` every function is compiled at its first call.

A Python model runs every .eval (strict, left to right, `&&`/`||` short,
Nat exact, F64 IEEE double printed as thorin does: Python's repr, `nan`
unsigned; I64 wrapping) under a step budget; a function is drawn again until
one of its .evals succeeds. .evals over budget (or making a Nat of more than
NAT_BITS bits) are dropped; those that fail (division or remainder by zero,
an index out of range) are set apart.

Files of K programs, and the checks (shared with test_baseline_differential.py,
whose Case, Runner, check and shrink are used as they are):
- ordinary files, error files (a program, then a program whose .eval fails,
  that .eval last: the deepest failures of each kind in turn, division,
  remainder and index) and hot files (programs that cannot fail, tame Nat
  products, then a long .eval of each driver, not run by the model, so that
  lazy mode moves over to LLVM's code while baseline code runs), run as
    THORIN run --jit=off FILE                                (the reference)
    THORIN run --jit=baseline --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=lazy --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=eager FILE
  stdout, stderr (but `jit:` lines) and exit status must be equal to the
  reference's, and the reference's stdout must be the model's values (an
  error file must end with the model's error, exit status 2);
- a fixed file of hand-written functions with values worked out by hand
  (sumRow over an F64 row, big Nats, inf and nan, …), so the test cannot pass
  with the model and thorin wrong alike;
- coverage: the share of the functions with baseline code (named in a `jit:
  baseline code for NAME` line of the --jit=baseline runs, or called by one)
  is printed, in all and per feature (types in the signature, kind, Nat
  products and quotients, arrays built inline, …), and must be at least
  --min-coverage (default 0.6: 75-79 % of the functions got baseline code
  over seeds 1-12 once the tier took this fragment — the rest make closures,
  which are LLVM's — so the test cannot silently stop exercising it).
A file where a mode disagrees with the reference is shrunk (programs, then
definitions and .evals, while the same two modes still disagree) and the
smallest failing file is printed with all outputs. Exit status 1 on any
failure.

Files are small (4 programs) because of --jit=eager: a Nat of 2^62 or more,
or an array in the other representation, deoptimizes a function, which drops
all compiled code, and eager mode compiles all of it again (--jit=eager takes
about 2/3 of the time). The default, 128 programs, runs in ~20 s on 2 cores.
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_baseline_differential as base  # noqa: E402
from test_baseline_differential import MODES, Case, RunError, OutOfBudget  # noqa: E402
import core_model  # noqa: E402  (tests/lib, on the path since base's import)
from core_model import COMPARISONS  # noqa: E402

I64_MIN, I64_MAX = base.I64_MIN, base.I64_MAX
I64_EDGES = base.EDGES
NAT_EDGES = [0, 1, 2, 3, 7, 10, 255, 1 << 31, 1 << 32, (1 << 62) - 1, 1 << 62, (1 << 62) + 1,
             (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, 10 ** 18, 10 ** 19, 10 ** 25, 10 ** 40, 1 << 100]
NAT_DIVISORS = [1, 2, 3, 7, 10, 64, 1000000007, (1 << 62) - 1, 1 << 62, 1 << 64, 10 ** 25]
F64_EDGES = [0.0, -0.0, 0.5, -2.25, 1.5, 2.0, 3.0, 0.1, 0.25, -1.0, 4.0, 1e300, -1e300, 1e-300,
             1e15, 1e16, 123.456, 4611686018427387904.0, 1e-7]
SIZES = [5, 8]

FUEL_BOUND, LOOP_BOUND, DEEP_BOUND = 4, 20, 100   # counters at call sites inside programs
DEEP_EVAL = 10_000           # the deepest direct .eval of a `deep` function
EVAL_BUDGET = 150_000        # model steps (nodes of the bodies entered) per `.eval`
NAT_BITS = 20_000            # a larger Nat product puts the .eval over budget
HOT_STEPS = 150_000_000      # model steps, estimated, of a hot file's long `.eval`s

NAT, F64, I64, BOOL = "Nat", "F64", "I64", "Bool"
SCALARS = [NAT, F64, I64]


def Idx(n):
    return ("Idx", n)


def Arr(n, t):
    return ("Array", n, t)


def is_idx(t):
    return isinstance(t, tuple) and t[0] == "Idx"


def is_arr(t):
    return isinstance(t, tuple) and t[0] == "Array"


def ty_text(t):
    if is_idx(t):
        return f"Idx {t[1]}"
    if is_arr(t):
        return f"Array {t[1]} {t[2]}"
    return t


# ---------------------------------------------------------------- programs

class Node:
    FIELDS = ()

    def children(self):
        out = []
        for f in self.FIELDS:
            v = getattr(self, f)
            out.extend(v if isinstance(v, list) else [v])
        return out


class Lit(Node):                    # ty: Nat, F64 or I64
    def __init__(self, ty, v, form=0):
        self.ty, self.v, self.form = ty, v, form


class BoolLit(Node):
    def __init__(self, v):
        self.v = v


class Var(Node):                    # a parameter, a let, a build's index, or a top-level array
    def __init__(self, name, glob=False):
        self.name, self.glob = name, glob


class Bin(Node):                    # + - * / % on ty (Nat, F64, I64)
    FIELDS = ("a", "b")

    def __init__(self, op, a, b, ty):
        self.op, self.a, self.b, self.ty = op, a, b, ty


class Cmp(Node):                    # a comparison of two Nats, F64s, I64s or Bools
    FIELDS = ("a", "b")

    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b


class Logic(Node):                  # && ||
    FIELDS = ("a", "b")

    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b


class If(Node):
    FIELDS = ("c", "a", "b")

    def __init__(self, c, a, b):
        self.c, self.a, self.b = c, a, b


class Let(Node):
    FIELDS = ("bound", "body")

    def __init__(self, name, ty, annot, bound, body):
        self.name, self.ty, self.annot, self.bound, self.body = name, ty, annot, bound, body


class Call(Node):
    FIELDS = ("args",)

    def __init__(self, fn, args):
        self.fn, self.args = fn, args


class Get(Node):
    FIELDS = ("arr", "ix")

    def __init__(self, arr, ix):
        self.arr, self.ix = arr, ix


class MkIdx(Node):                  # `idx e`, annotated `(idx e : Idx n)` where nothing says n
    FIELDS = ("e",)

    def __init__(self, n, e, annot=False):
        self.n, self.e, self.annot = n, e, annot


class Prim(Node):                   # idxToNat, length, natToF64
    FIELDS = ("e",)

    def __init__(self, name, e):
        self.name, self.e = name, e


class Build(Node):
    FIELDS = ("body",)

    def __init__(self, n, ty, var, body):
        self.n, self.ty, self.var, self.body = n, ty, var, body


class ArrLit(Node):
    FIELDS = ("elems",)

    def __init__(self, ty, elems):
        self.ty, self.elems = ty, elems


def walk(e):
    todo = [e]
    while todo:
        x = todo.pop()
        yield x
        todo.extend(x.children())


def size(e):
    return sum(1 for _ in walk(e))


class Fn:
    """A top-level function. bounds[i]: None, or the largest value call sites
    give the i-th parameter (a counter)."""

    def __init__(self, name, kind, params, ptypes, bounds, res):
        self.name, self.kind, self.params, self.ptypes, self.bounds, self.res = \
            name, kind, params, ptypes, bounds, res
        self.body = None

    def callees(self):
        return {e.fn.name for e in walk(self.body) if isinstance(e, Call)}

    def features(self):
        """Tags for the coverage report."""
        tags = {f"kind {self.kind}", f"result {self.res}"}
        for t in self.ptypes:
            tags.add("param " + ("Idx" if is_idx(t) else f"Array {t[2]}" if is_arr(t) else t))
        for e in walk(self.body):
            if isinstance(e, Bin) and e.ty == NAT and e.op in "*/%":
                tags.add("Nat * / %")
            elif isinstance(e, Bin) and e.ty == F64:
                tags.add("F64 arithmetic")
            elif isinstance(e, Get):
                tags.add("get")
            elif isinstance(e, Build):
                tags.add("build inline")
            elif isinstance(e, ArrLit):
                tags.add("array literal inline")
            elif isinstance(e, Var) and e.glob:
                tags.add("top-level array")
            elif isinstance(e, Prim):
                tags.add(e.name)
            elif isinstance(e, Logic):
                tags.add("&& ||")
            elif isinstance(e, Call) and e.fn is not self:
                tags.add("calls")
        if all(t == I64 for t in self.ptypes + [self.res]):
            tags.add("I64 only (the old fragment)")
        return tags


class Global:
    """A top-level array."""

    def __init__(self, name, ty, value):
        self.name, self.ty, self.value = name, ty, value


# ---------------------------------------------------------------- rendering

LOW, OR, AND, CMP, ADD, MUL, APP, ATOM = range(8)


def f64_text(v):
    s = repr(v)
    return f"({s})" if s.startswith("-") else s


def lit_text(e):
    v = e.v
    if e.ty == NAT:
        return str(v)
    if e.ty == F64:
        return f64_text(v)
    if v == I64_MIN:
        return f"({v})" if e.form else f"(0 - {I64_MAX} - 1 : I64)"
    if v < 0:
        return f"({v})" if e.form else f"(0 - {-v} : I64)"
    return f"({v} : I64)"


def show(e, need=LOW):
    if isinstance(e, Lit):
        s, p = lit_text(e), ATOM
    elif isinstance(e, BoolLit):
        s, p = ("true" if e.v else "false"), ATOM
    elif isinstance(e, Var):
        s, p = e.name, ATOM
    elif isinstance(e, Bin):
        p = ADD if e.op in "+-" else MUL
        s = f"{show(e.a, p)} {e.op} {show(e.b, p + 1)}"
    elif isinstance(e, Cmp):
        s, p = f"{show(e.a, ADD)} {e.op} {show(e.b, ADD)}", CMP
    elif isinstance(e, Logic):
        p = OR if e.op == "||" else AND
        s = f"{show(e.a, p)} {e.op} {show(e.b, p + 1)}"
    elif isinstance(e, If):
        s, p = f"if {show(e.c, OR)} then {show(e.a, OR)} else {show(e.b)}", LOW
    elif isinstance(e, Let):
        ty = f" : {ty_text(e.ty)}" if e.annot else ""
        s, p = f"let {e.name}{ty} = {show(e.bound, OR)}; {show(e.body)}", LOW
    elif isinstance(e, Call):
        s, p = " ".join([e.fn.name] + [show(a, ATOM) for a in e.args]), APP
    elif isinstance(e, Get):
        s, p = f"get {show(e.arr, ATOM)} {show(e.ix, ATOM)}", APP
    elif isinstance(e, MkIdx):
        s, p = f"idx {show(e.e, ATOM)}", APP
        if e.annot:
            s, p = f"({s} : Idx {e.n})", ATOM
    elif isinstance(e, Prim):
        s, p = f"{e.name} {show(e.e, ATOM)}", APP
    elif isinstance(e, Build):
        s, p = f"build {e.n} (λ {e.var}. {show(e.body)})", APP
    else:
        s, p = "[" + ", ".join(show(x, OR) for x in e.elems) + "]", ATOM
    return s if p >= need else f"({s})"


def fn_text(fn):
    ty = " → ".join(ty_text(t) for t in fn.ptypes + [fn.res])
    return f"{fn.name} : {ty}\n  = λ {' '.join(fn.params)}. {show(fn.body)}\n"


def global_text(g, e):
    return f"{g.name} : {ty_text(g.ty)} = {show(e)}\n"


def eval_text(call):
    return f".eval {show(call)}\n"


def value_text(ty, v):
    if ty == F64:
        return "nan" if v != v else repr(v)
    if ty == BOOL:
        return "true" if v else "false"
    return str(v)


# ---------------------------------------------------------------- the model

RUNTIME = f"""
def NMUL(a, b):
    if a.bit_length() + b.bit_length() > {NAT_BITS}:
        raise OutOfBudget()
    return a * b
def BUILD(n, f, size):
    global STEPS
    STEPS += n * size
    if STEPS > {EVAL_BUDGET}:
        raise OutOfBudget()
    return tuple(f(i) for i in range(n))
"""


class Model(base.Model):
    """The program compiled to Python: functions F_name (base.Model.add, with
    this file's sizes and expressions), arrays G_name."""
    budget = EVAL_BUDGET
    size = staticmethod(size)

    def __init__(self):
        # %core arithmetic is core_model's; NMUL and BUILD also count steps.
        self.ns = {"OutOfBudget": OutOfBudget, "STEPS": 0, "DEPTH": 0, "ITERS": 0,
                   "NSUB": core_model.nat_sub, "NDIV": core_model.nat_div, "NREM": core_model.nat_rem,
                   "W": core_model.wrap, "IDIV": core_model.i64_div, "IREM": core_model.i64_rem,
                   "FDIV": core_model.f64_div, "N2F": core_model.nat_to_f64, "IDX": core_model.idx}
        exec(RUNTIME, self.ns)

    def value(self, e):
        """The value of a closed expression, or raises RunError / OutOfBudget."""
        self.ns["STEPS"] = self.ns["DEPTH"] = self.ns["ITERS"] = 0
        return self.at_depth(lambda: eval(self.expr(e, {}, [0]), self.ns))

    def add_global(self, g):
        self.ns[f"G_{g.name}"] = g.value

    def driver_cost(self, call):
        """Model steps per iteration of the driver call, run until it ends or
        the budget is spent."""
        try:
            self.value(call)
        except (RunError, OutOfBudget):
            pass
        return self.ns["STEPS"] // max(self.ns["ITERS"], 1) + 1

    def expr(self, e, scope, fresh):
        """Python for e (strict, left to right); fresh: [next variable number]."""
        x = lambda s: self.expr(s, scope, fresh)   # noqa: E731
        if isinstance(e, (Lit, BoolLit)):
            return repr(e.v)
        if isinstance(e, Var):
            return f"G_{e.name}" if e.glob else scope[e.name]
        if isinstance(e, Call):
            return f"F_{e.fn.name}({', '.join(x(a) for a in e.args)})"
        if isinstance(e, If):
            c, a, b = x(e.c), x(e.a), x(e.b)
            return f"(({a}) if ({c}) else ({b}))"
        if isinstance(e, Let):
            v = f"v{fresh[0]}"
            fresh[0] += 1
            bound = x(e.bound)
            return f"(({v} := ({bound})), ({self.expr(e.body, {**scope, e.name: v}, fresh)}))[1]"
        if isinstance(e, Get):
            return f"({x(e.arr)})[{x(e.ix)}]"
        if isinstance(e, MkIdx):
            return f"IDX({e.n}, {x(e.e)})"
        if isinstance(e, Prim):
            return {"idxToNat": "({})", "length": "len({})", "natToF64": "N2F({})"}[e.name].format(x(e.e))
        if isinstance(e, Build):
            v = f"v{fresh[0]}"
            fresh[0] += 1
            body = self.expr(e.body, {**scope, e.var: v}, fresh)
            return f"BUILD({e.n}, lambda {v}: ({body}), {size(e.body)})"
        if isinstance(e, ArrLit):
            return "(" + "".join(x(a) + ", " for a in e.elems) + ")"
        a, b = x(e.a), x(e.b)
        if isinstance(e, Cmp):
            return f"(({a}) {e.op} ({b}))"
        if isinstance(e, Logic):
            return f"(({a}) {'and' if e.op == '&&' else 'or'} ({b}))"
        if e.ty == NAT:
            return {"+": f"(({a}) + ({b}))", "-": f"NSUB({a}, {b})", "*": f"NMUL({a}, {b})",
                    "/": f"NDIV({a}, {b})", "%": f"NREM({a}, {b})"}[e.op]
        if e.ty == I64:
            if e.op in "/%":
                return f"I{'DIV' if e.op == '/' else 'REM'}({a}, {b})"
            return f"W(({a}) {e.op} ({b}))"
        if e.op == "/":
            return f"FDIV({a}, {b})"
        return f"(({a}) {e.op} ({b}))"


# ---------------------------------------------------------------- generation

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
        return Lit(F64, rng.choice(F64_EDGES))
    return Lit(F64, rng.randint(-400, 400) / rng.choice([1, 4, 8, 10]))


def i64_lit(rng):
    r = rng.random()
    v = rng.randint(-9, 99) if r < 0.45 else rng.choice(I64_EDGES) if r < 0.85 else rng.randint(I64_MIN, I64_MAX)
    return Lit(I64, v, rng.randint(0, 1))


def scalar_lit(rng, ty):
    return {NAT: nat_lit, F64: f64_lit, I64: i64_lit}[ty](rng)


class BodyGen:
    """Random expressions for one function body (or a top-level array, or an
    .eval's argument). divisions: "any" (divisors may be 0, indices out of
    range), "safe" (never). tame: Nat products only by small literals (no
    Nat grows without bound in a hot file's long run)."""

    def __init__(self, rng, fn, callees, globs, divisions, tame, scope=()):
        self.rng, self.fn, self.callees, self.globs = rng, fn, callees, globs
        self.divisions, self.tame = divisions, tame
        self.scope = list(scope) if fn is None else list(zip(fn.params, fn.ptypes))
        self.calls_left = 2
        self.self_calls = 2          # none unless a fuel/deep body allows them
        self.safe = {}               # n -> names of Nat variables known to be < n
        # An inline `build` (a closure) in one body in five; the top-level
        # arrays seen by half the bodies (and by every driver).
        self.builds = 1 if fn and rng.random() < 0.2 else 0
        if fn and fn.kind != "driver" and rng.random() < 0.5:
            self.globs = []
        self.protected = set()       # names lets must not shadow

    # -- helpers
    def pick(self, options):
        total = sum(w for w, _ in options if w > 0)
        x = self.rng.uniform(0, total)
        for w, f in options:
            if w > 0:
                x -= w
                if x <= 0:
                    return f()
        return [f for w, f in options if w > 0][-1]()

    def vars(self, ty):
        seen, out = set(), []
        for name, t in reversed(self.scope):
            if name not in seen:
                seen.add(name)
                if t == ty:
                    out.append(name)
        return out

    def arrays(self, elem=None, n=None):
        """(expression, type) of the arrays in scope and the top-level ones."""
        out = [(Var(v), t) for v, t in self.visible() if is_arr(t)]
        out += [(Var(g.name, glob=True), g.ty) for g in self.globs]
        return [(e, t) for e, t in out if (elem is None or t[2] == elem) and (n is None or t[1] == n)]

    def visible(self):
        seen, out = set(), []
        for name, t in reversed(self.scope):
            if name not in seen:
                seen.add(name)
                out.append((name, t))
        return out

    def idx_vars(self, n=None):
        return [v for v, t in self.visible() if is_idx(t) and (n is None or t[1] == n)]

    def gen(self, ty, d):
        if ty == NAT:
            return self.nat(d)
        if ty == F64:
            return self.f64(d)
        if ty == I64:
            return self.i64(d)
        if ty == BOOL:
            return self.cond(d)
        if is_idx(ty):
            return self.idx(ty[1], d)
        return self.arr(ty[1], ty[2], d)

    def common(self, ty, d):
        """The compound options every scalar type has."""
        fn = self.fn
        return [
            (2, lambda: If(self.cond(d), self.gen(ty, d), self.gen(ty, d))),
            (1.5, lambda: self.let(d, lambda: self.gen(ty, d))),
            (1.5 if self.calls_left and any(g.res == ty for g in self.callees) else 0,
             lambda: self.call(self.rng.choice([g for g in self.callees if g.res == ty]), d)),
            (2 if self.arrays(ty) else 0.3 if self.builds else 0, lambda: self.get(ty, d)),
            (3 if fn and fn.kind == "fuel" and self.self_calls < 2 and ty == fn.res else 0,
             lambda: self.fuel_call(d)),
        ]

    def nat(self, depth):
        vs = self.vars(NAT)
        ivs = self.idx_vars()
        arrs = self.arrays()
        leaf = [(1, lambda: nat_lit(self.rng)), (4 if vs else 0, lambda: Var(self.rng.choice(vs))),
                (1 if ivs else 0, lambda: Prim("idxToNat", Var(self.rng.choice(ivs)))),
                (0.6 if arrs else 0, lambda: Prim("length", self.rng.choice(arrs)[0]))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + self.common(NAT, d) + [
            (3, lambda: Bin(self.rng.choice("+-"), self.nat(d), self.nat(d), NAT)),
            (1.2, lambda: self.nat_mul(d)),
            (1.2, lambda: self.division(NAT, d)),
            (0.3, lambda: Prim("idxToNat", MkIdx(self.rng.choice(SIZES), self.nat_mod(d, 5), annot=True))),
        ])

    def nat_mul(self, d):
        if self.tame:
            return Bin("*", self.nat(d), Lit(NAT, self.rng.randint(0, 9)), NAT)
        return Bin("*", self.nat(d), self.nat(d), NAT)

    def nat_mod(self, d, n):
        return Bin("%", self.nat(d), Lit(NAT, n), NAT)

    def f64(self, depth):
        vs = self.vars(F64)
        leaf = [(1.2, lambda: f64_lit(self.rng)), (4 if vs else 0, lambda: Var(self.rng.choice(vs)))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + self.common(F64, d) + [
            (4, lambda: Bin(self.rng.choice("+-*/"), self.f64(d), self.f64(d), F64)),
            (1.5, lambda: Prim("natToF64", self.nat(d))),
        ])

    def i64(self, depth):
        vs = self.vars(I64)
        leaf = [(1, lambda: i64_lit(self.rng)), (4 if vs else 0, lambda: Var(self.rng.choice(vs)))]
        if depth <= 0:
            return self.pick(leaf)
        d = depth - 1
        return self.pick(leaf + self.common(I64, d) + [
            (4, lambda: Bin(self.rng.choice("+-*"), self.i64(d), self.i64(d), I64)),
            (1.2, lambda: self.division(I64, d)),
        ])

    def division(self, ty, d):
        """x / y or x % y; y is anything (maybe 0, or -1 for I64) unless
        divisions are "safe": then a literal or `e % k + c`, never 0."""
        op = self.rng.choice("/%")
        r = self.rng.random()
        if ty == NAT:
            x = self.nat(d)
            if r < 0.35:
                y = Lit(NAT, self.rng.choice(NAT_DIVISORS))
            elif r < 0.6 or self.divisions == "safe":
                y = Bin("+", self.nat_mod(d, self.rng.randint(1, 9)), Lit(NAT, 1), NAT)
            else:
                y = self.nat(d)
            return Bin(op, x, y, NAT)
        x = Lit(I64, I64_MIN) if self.rng.random() < 0.1 else self.i64(d)
        if r < 0.3:
            y = Lit(I64, self.rng.choice([v for v in I64_EDGES if v] + [3, 7, 10, -3]))
        elif r < 0.5 or self.divisions == "safe":
            k = self.rng.randint(1, 9)
            y = Bin("+", Bin("%", self.i64(d), Lit(I64, k), I64), Lit(I64, k + 1), I64)
        else:
            y = self.i64(d)
        return Bin(op, x, y, I64)

    def cond(self, depth):
        """A Bool."""
        bs = self.vars(BOOL)
        d = max(depth - 1, 0)
        i64s = self.vars(I64) or self.arrays(I64)
        return self.pick([
            (3, lambda: Cmp(self.rng.choice(COMPARISONS), self.nat(d), self.nat(d))),
            (2.5, lambda: Cmp(self.rng.choice(COMPARISONS), self.f64(d), self.f64(d))),
            (1.5 if i64s else 0.4, lambda: Cmp(self.rng.choice(COMPARISONS), self.i64(d), self.i64(d))),
            (2 if bs else 0, lambda: Var(self.rng.choice(bs))),
            (1.5, lambda: Logic(self.rng.choice(["&&", "||"]), self.cond(d // 2), self.cond(d // 2))),
            (0.3, lambda: Cmp(self.rng.choice(["==", "!="]), self.cond(d // 2), self.cond(d // 2))),
            (0.2, lambda: BoolLit(self.rng.random() < 0.5)),
            (0.4 if depth else 0, lambda: self.let(d, lambda: self.cond(d))),
            (0.3 if depth else 0, lambda: If(self.cond(d), self.cond(d), self.cond(d))),
        ])

    def idx(self, n, d):
        """An Idx n: in range, or (divisions "any") maybe not."""
        ivs = self.idx_vars(n)
        safe = self.safe.get(n, [])
        return self.pick([
            (3 if ivs else 0, lambda: Var(self.rng.choice(ivs))),
            (2, lambda: MkIdx(n, self.nat_mod(d, n))),
            (1, lambda: MkIdx(n, Lit(NAT, self.rng.randint(0, n - 1)))),
            (3 if safe else 0, lambda: MkIdx(n, Var(self.rng.choice(safe)))),
            (0.5 if self.divisions == "any" else 0, lambda: MkIdx(n, self.nat(d))),
            (0.15 if self.divisions == "any" else 0, lambda: MkIdx(n, Lit(NAT, self.rng.randint(n, n + 3)))),
        ])

    def arr(self, n, elem, d):
        """An Array n elem: a variable or top-level array, else built inline
        or a literal."""
        cands = self.arrays(elem, n)
        return self.pick([
            (4 if cands else 0, lambda: self.rng.choice(cands)[0]),
            (1 if self.builds or not cands else 0, lambda: self.build(n, elem, d)),
            (0.5, lambda: ArrLit(elem, [scalar_lit(self.rng, elem) for _ in range(n)])),
        ])

    def build(self, n, elem, d):
        """`build n (λ ix. …)`: the body sees ix : Idx n (no builds within)."""
        builds, self.builds = self.builds, 0
        self.scope.append(("ix", Idx(n)))
        body = self.gen(elem, min(d, 2))
        self.scope.pop()
        self.builds = max(builds - 1, 0)
        return Build(n, elem, "ix", body)

    def get(self, elem, d):
        cands = self.arrays(elem)
        options = [(4, lambda: self.rng.choice(cands))] if cands else []
        if self.builds:
            options.append((0.5 if cands else 1, lambda: (lambda n: (self.build(n, elem, d), Arr(n, elem)))(
                self.rng.choice(SIZES))))
        arr, t = self.pick(options)
        return Get(arr, self.idx(t[1], d))

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
        annot = is_idx(ty) or self.rng.random() < 0.4
        if is_idx(ty) and isinstance(bound, MkIdx) and self.rng.random() < 0.5:
            bound, annot = MkIdx(bound.n, bound.e, annot=True), False
        self.scope.append((name, ty))
        e = Let(name, ty, annot, bound, body())
        self.scope.pop()
        return e

    def arg(self, ty, bound, depth):
        """An argument for a parameter: anything, or a counter within bound."""
        if bound is None:
            return self.gen(ty, depth)
        if self.rng.random() < 0.4:
            return Lit(NAT, self.rng.randint(0, bound))
        return self.nat_mod(depth, bound + 1)

    def call(self, g, depth):
        self.calls_left -= 1
        return Call(g, [self.arg(t, b, depth) for t, b in zip(g.ptypes, g.bounds)])

    def fuel_call(self, depth):
        self.self_calls += 1
        counter = Bin("-", Var("fuel"), Lit(NAT, self.rng.choice([1, 1, 2])), NAT)
        return Call(self.fn, [counter] + [self.gen(t, depth) for t in self.fn.ptypes[1:]])


# ---------------------------------------------------------------- functions

def param_type(rng, n):
    r = rng.random()
    if r < 0.25:
        return NAT
    if r < 0.5:
        return F64
    if r < 0.62:
        return I64
    if r < 0.72:
        return Idx(n)
    return Arr(n, rng.choice([F64, F64, I64, NAT]))


def result_type(rng):
    return rng.choice([NAT, NAT, F64, F64, F64, I64])


DATA_NAMES = ["x", "y", "z", "w"]
ARRAY_NAMES = ["a", "b", "c", "e"]
IDX_NAMES = ["j", "h", "l", "m"]


def name_params(types):
    """Names for data parameters by type: a b c for arrays, j h for indices."""
    pools = {"arr": iter(ARRAY_NAMES), "idx": iter(IDX_NAMES), "data": iter(DATA_NAMES)}
    return [next(pools["arr" if is_arr(t) else "idx" if is_idx(t) else "data"]) for t in types]


def new_fn(rng, pid, k, kind):
    """The k-th function of program pid, without its body."""
    n = rng.choice(SIZES)
    name = f"{kind[0]}{k}_p{pid}"
    if kind == "driver":
        res = rng.choice([NAT, F64, I64])
        return Fn(f"drive_p{pid}", kind, ["i", "acc"], [NAT, res], [None, None], res)
    if kind == "plain":
        types = [param_type(rng, n) for _ in range(rng.randint(1, 4))]
        return Fn(name, kind, name_params(types), types, [None] * len(types), result_type(rng))
    if kind == "loop":
        inv = []
        if rng.random() < 0.75:
            inv.append(Arr(n, rng.choice([F64, F64, NAT, I64])))
        inv += [param_type(rng, n) for _ in range(rng.randint(0, 1))]
        accs = [rng.choice([F64, NAT, I64, F64]) for _ in range(rng.choice([1, 1, 2]))]
        res = accs[0] if rng.random() < 0.7 else result_type(rng)
        bound = n if any(is_arr(t) and t[1] == n for t in inv) else rng.randint(3, LOOP_BOUND)
        counter = rng.choice(["k", "n"])           # k counts up to bound, n down to 0
        fn = Fn(name, kind, name_params(inv) + [counter] + ["acc", "acc2"][:len(accs)],
                inv + [NAT] + accs, [None] * len(inv) + [bound] + [None] * len(accs), res)
        fn.loop_bound, fn.n_inv = bound, len(inv)
        return fn
    counter, bound = {"fuel": ("fuel", FUEL_BOUND), "deep": ("n", DEEP_BOUND)}[kind]
    types = [param_type(rng, n) for _ in range(rng.randint(0, 2 if kind == "deep" else 3))]
    return Fn(name, kind, [counter] + name_params(types), [NAT] + types, [bound] + [None] * len(types),
              result_type(rng))


def stop_test(rng, v, bound=None):
    """`v == 0`-like (bound None) or `v >= bound`-like."""
    if bound is None:
        return rng.choice([Cmp("==", Var(v), Lit(NAT, 0)), Cmp("<", Var(v), Lit(NAT, 1)),
                           Cmp(">=", Lit(NAT, 0), Var(v)), Cmp("<=", Var(v), Lit(NAT, 0))])
    return rng.choice([Cmp(">=", Var(v), Lit(NAT, bound)), Cmp("<=", Lit(NAT, bound), Var(v)),
                       Cmp("==", Var(v), Lit(NAT, bound)), Cmp(">", Var(v), Lit(NAT, bound - 1))])


def accumulate(g, ty, acc, d):
    """A new value for an accumulator: `acc ⊕ e` mostly, e without acc in
    tame files (so a Nat grows at most linearly in bits)."""
    rng = g.rng
    if rng.random() < 0.7 or g.tame:
        ops = {NAT: "+-*" if not g.tame else "+-", F64: "+-*/", I64: "+-*"}[ty]
        op = rng.choice(ops)
        if op == "*" and ty == NAT and rng.random() < 0.5:
            return Bin("*", Var(acc), Lit(NAT, rng.randint(0, 5)), NAT)
        return Bin(op, Var(acc), g.gen(ty, d), ty)
    return g.gen(ty, d)


def loop_body(g, fn):
    """if stop then final else step, where every path of step ends in a
    self-call with the counter moved on (or, rarely, leaves the loop)."""
    rng, counter, bound = g.rng, fn.params[fn.n_inv], fn.loop_bound
    accs = fn.params[fn.n_inv + 1:]
    g.protected = {counter, *accs, *fn.params[:fn.n_inv]}      # the self-calls pass them on
    up = counter == "k"
    stop = stop_test(rng, counter, bound if up else None)
    final = Var(accs[0]) if fn.res == fn.ptypes[fn.n_inv + 1] and rng.random() < 0.6 else g.gen(fn.res, 2)
    # In the step, the counter indexes arrays of the bound's length: k < bound
    # going up; going down the parameter n is at most the bound (call sites),
    # so n - 1 is in range.
    if up:
        g.safe = {bound: [counter]}
    else:
        g.scope.append(("n1", NAT))
        g.protected.add("n1")
        g.safe = {bound: ["n1"]}
    step_counter = Bin("+", Var("k"), Lit(NAT, 1), NAT) if up else Var("n1")

    calls = [0]

    def self_call():
        calls[0] += 1
        args = []
        for p, t in zip(fn.params[:fn.n_inv], fn.ptypes[:fn.n_inv]):
            args.append(Var(p) if is_arr(t) or rng.random() < 0.8 else g.gen(t, 1))
        args.append(step_counter)
        args += [accumulate(g, t, a, 2) for a, t in zip(accs, fn.ptypes[fn.n_inv + 1:])]
        return Call(fn, args)

    def tail(depth):
        d = depth - 1
        return g.pick([
            (4 if depth <= 0 else 3, self_call),
            (2 if depth > 0 else 0, lambda: If(g.cond(d), tail(d), tail(d))),
            (1.5 if depth > 0 else 0, lambda: g.let(d, lambda: tail(d))),
            (0.3, lambda: g.gen(fn.res, 1)),
        ])
    step = tail(2)
    if not calls[0]:
        step = If(g.cond(1), self_call(), step)
    if not up:
        step = Let("n1", NAT, rng.random() < 0.5, Bin("-", Var("n"), Lit(NAT, 1), NAT), step)
        g.scope.pop()
    g.safe = {}
    return If(stop, final, step)


def driver_body(g, fn):
    """drive (i - 1) (a mix of acc and calls of the others)."""
    rng, ty = g.rng, fn.res
    g.calls_left = 4
    g.protected = {"i", "acc"}
    mix = Bin("*", Var("acc"), {NAT: Lit(NAT, 31), F64: Lit(F64, 0.5), I64: Lit(I64, 31)}[ty], ty)
    for h in rng.sample(g.callees, min(3, len(g.callees))):
        c = g.call(h, 2)
        if h.res == ty:
            term = c
        elif h.res == NAT and ty == F64:
            term = Prim("natToF64", c)
        else:
            lits = [scalar_lit(rng, ty) for _ in range(2)]
            term = If(Cmp(rng.choice(COMPARISONS), c, scalar_lit(rng, h.res)), *lits)
        mix = Bin(rng.choice("+-"), mix, term, ty)
    if ty == NAT:
        mix = Bin("%", mix, Lit(NAT, 1000000007), NAT)
    step = Call(fn, [Bin("-", Var("i"), Lit(NAT, 1), NAT), mix])
    return If(stop_test(rng, "i"), Var("acc"), step)


def gen_body(g, fn):
    kind = fn.kind
    if kind == "plain":
        return g.gen(fn.res, 4)
    if kind == "loop":
        return loop_body(g, fn)
    if kind == "driver":
        return driver_body(g, fn)
    counter = fn.params[0]
    g.protected = {counter}
    stop = stop_test(g.rng, counter)
    base_case = g.gen(fn.res, 2)
    if kind == "fuel":
        g.self_calls = 0
        rec = g.gen(fn.res, 4)
        if not g.self_calls:
            rec = Bin(g.rng.choice("+-*"), rec, g.fuel_call(2), fn.res)
        return If(stop, base_case, rec)
    # deep: n - 1 deep, the other parameters passed on (mostly unchanged)
    rest = [Var(p) if g.rng.random() < 0.7 else g.gen(t, 1) for p, t in zip(fn.params[1:], fn.ptypes[1:])]
    rec = Call(fn, [Bin("-", Var(counter), Lit(NAT, 1), NAT)] + rest)
    ops = {NAT: "+*" if not g.tame else "+", F64: "+-*/", I64: "+-*"}[fn.res]
    r = g.rng.random()
    if r < 0.35:
        g.scope.append(("r", fn.res))
        g.protected.add("r")
        step = Let("r", fn.res, g.rng.random() < 0.5, rec, g.gen(fn.res, 3))
        g.scope.pop()
    elif r < 0.7:
        step = Bin(g.rng.choice(ops), g.gen(fn.res, 2), rec, fn.res)
    else:
        step = Bin(g.rng.choice(ops), rec, g.gen(fn.res, 2), fn.res)
    return If(stop, base_case, step)


class Program:
    """Top-level arrays and functions (names end in _pN), and `.eval`s with
    the model's values."""

    def __init__(self):
        self.globs, self.glob_exprs, self.fns, self.evals, self.errors = [], [], [], [], []
        self.driver_cost = 1
        self.driver_call = None

    def entries(self, error=None):
        out = [(global_text(g, e), None) for g, e in zip(self.globs, self.glob_exprs)]
        out += [(fn_text(fn), None) for fn in self.fns]
        out += [(eval_text(call), value_text(call.fn.res, v) + "\n") for call, v in self.evals]
        if error:
            out.append((eval_text(error), None))
        return out

    def long_eval(self, rng, steps):
        """A `.eval` of the driver taking about `steps` model steps."""
        call = self.driver_call
        n = max(10, min(10 ** 6, steps // self.driver_cost))
        return eval_text(Call(call.fn, [Lit(NAT, n), call.args[1]])), None


def closed_gen(rng, prog, divisions="safe"):
    return BodyGen(rng, None, [], prog.globs, divisions, True)


def eval_args(rng, prog, fn):
    """Arguments for a direct `.eval` of fn: edge values, arrays by name,
    built inline, or literal."""
    if fn.kind == "driver":
        return [Lit(NAT, rng.randint(3, 25)), scalar_lit(rng, fn.res)]
    args = []
    for t, b in zip(fn.ptypes, fn.bounds):
        if b is not None:
            if fn.kind == "deep" and rng.random() < 0.4:
                args.append(Lit(NAT, rng.randint(1000, DEEP_EVAL)))
            else:
                args.append(Lit(NAT, rng.randint(0, b)))
        elif is_idx(t):
            args.append(MkIdx(t[1], Lit(NAT, rng.randint(0, t[1] - 1))))
        elif is_arr(t):
            g = closed_gen(rng, prog)
            cands = g.arrays(t[2], t[1])
            r = rng.random()
            if cands and r < 0.5:
                args.append(rng.choice(cands)[0])
            elif r < 0.8:
                g.builds = 1
                args.append(g.build(t[1], t[2], 2))
            else:
                args.append(ArrLit(t[2], [scalar_lit(rng, t[2]) for _ in range(t[1])]))
        else:
            args.append(scalar_lit(rng, t))
    return args


def gen_globals(rng, prog, model, pid):
    for k in range(rng.choice([0, 1, 1, 2])):
        n, elem = rng.choice(SIZES), rng.choice([F64, F64, I64, NAT])
        g = closed_gen(rng, prog)
        for _attempt in range(20):
            if rng.random() < 0.8:
                g.builds = 1
                e = g.build(n, elem, 3)
            else:
                e = ArrLit(elem, [scalar_lit(rng, elem) for _ in range(n)])
            try:
                value = model.value(e)
                break
            except (RunError, OutOfBudget):
                pass
        else:
            continue
        glob = Global(f"arr{k}_p{pid}", Arr(n, elem), value)
        model.add_global(glob)
        prog.globs.append(glob)
        prog.glob_exprs.append(e)


def gen_program(rng, pid, kinds=None, divisions="any", tame=False):
    """A program. Each function is .eval'd twice and drawn again (up to 20
    times) until one of them succeeds in the model; failing .evals are kept
    in prog.errors as (call, message, call depth)."""
    prog, model = Program(), Model()
    gen_globals(rng, prog, model, pid)
    if not kinds:
        kinds = rng.sample(["plain", "plain", "fuel", "loop", "loop", "deep"], rng.randint(3, 5)) + ["driver"]
    for k, kind in enumerate(kinds):
        for _attempt in range(20):
            fn = new_fn(rng, pid, k, kind)
            g = BodyGen(rng, fn, prog.fns[:], prog.globs, divisions, tame)
            fn.body = gen_body(g, fn)
            model.add(fn)
            evals, errors = [], []
            for _ in range(2):
                call = Call(fn, eval_args(rng, prog, fn))
                try:
                    evals.append((call, model.value(call)))
                except RunError as ex:
                    errors.append((call, ex.msg, ex.depth))
                except OutOfBudget:
                    pass
            if evals:
                break
        prog.fns.append(fn)
        prog.evals += evals
        prog.errors += errors
        if kind == "driver":
            prog.driver_call = Call(fn, [Lit(NAT, 1000), scalar_lit(rng, fn.res)])
            prog.driver_cost = model.driver_cost(prog.driver_call)
    return prog


# ---------------------------------------------------------------- fixed programs

# Hand-written, with values worked out by hand: if the model and thorin were
# wrong alike, these would still fail.
FIXED = [
    ("row_f : Array 8 F64 = build 8 (λ i. natToF64 (idxToNat i) / 2.0)\n", None),
    ("sumRow_f : Array 8 F64 → Nat → F64 → F64\n"
     "  = λ r k acc. if k == 8 then acc else sumRow_f r (k + 1) (acc + get r (idx k))\n", None),
    (".eval sumRow_f row_f 0 0.0\n", "14.0\n"),                        # (0+1+…+7)/2
    (".eval sumRow_f row_f 6 0.5\n", "7.0\n"),                         # 0.5 + 3 + 3.5
    (".eval sumRow_f [1.5, -2.25, 1e300, 1e300, 0.0, 0.0, 0.0, 0.0] 0 0.0\n", "2e+300\n"),
    ("bigN_f : Nat → Nat → Nat = λ a b. if a < b then b - a else a * b + 1\n", None),
    (".eval bigN_f 4611686018427387903 4611686018427387904\n", "1\n"),
    (".eval bigN_f 4611686018427387904 4611686018427387903\n", "21267647932558653961849226946058125313\n"),
    (".eval bigN_f 10000000000000000000000000 3\n", "30000000000000000000000001\n"),
    ("trunc_f : Nat → Nat → Nat = λ a b. (a - b) / 7 + a % 10\n", None),
    (".eval trunc_f 3 4611686018427387904\n", "3\n"),                  # 0 / 7 + 3
    (".eval trunc_f 100000000000000000000 1\n", "14285714285714285714\n"),
    ("fsum_f : Nat → F64 → F64 = λ n acc. if n == 0 then acc else fsum_f (n - 1) (acc + 0.5)\n", None),
    (".eval fsum_f 9 (-2.25)\n", "2.25\n"),
    ("ovf_f : F64 → F64 → F64 = λ x y. if x * y > 1e308 then x * y else (x * y - x * y) / 0.0\n", None),
    (".eval ovf_f 1e300 1e300\n", "inf\n"),
    (".eval ovf_f 2.0 3.0\n", "nan\n"),
    (".eval ovf_f (-1e300) 1e300 / 0.0 - 1.0\n", "nan\n"),
    ("pick_f : Array 5 Nat → Idx 5 → Nat = λ a j. get a j + idxToNat j * length a\n", None),
    (".eval pick_f [1, 2, 3, 10000000000000000000000000, 5] (idx 3)\n", "10000000000000000000000015\n"),
    (".eval pick_f (build 5 (λ i. idxToNat i * 4611686018427387904)) (idx 4)\n", "18446744073709551636\n"),
    ("mixed_f : I64 → F64 → Nat → I64 = λ x y n. if y < natToF64 n && x > (0 : I64) then x * (3 : I64) else x - (1 : I64)\n",
     None),
    (".eval mixed_f (5 : I64) 1.5 2\n", "15\n"),
    (".eval mixed_f (-9223372036854775808) 1.5 2\n", "9223372036854775807\n"),
    ("deep_f : Nat → F64 = λ n. if n == 0 then 0.0 else 0.1 + deep_f (n - 1)\n", None),
    (".eval deep_f 3\n", "0.30000000000000004\n"),                      # 0.1 + (0.1 + (0.1 + 0.0))
    (".eval deep_f 1\n", "0.1\n"),
]


# ---------------------------------------------------------------- files and runs

def error_kind(msg):
    return msg.split(":")[0].split()[0]          # division, remainder, idx


def generate(a, rng):
    """The programs and the files (Cases)."""
    fresh = iter(range(10 ** 6))
    ordinary, cases = base.batches_and_hot(a, rng, gen_program, fresh, tame=True)
    # Error files: the deepest failure of each kind in turn.
    by_kind = {}
    for p in ordinary:
        for call, msg, depth in p.errors:
            by_kind.setdefault(error_kind(msg), []).append((depth, rng.random(), p, call, msg))
    for v in by_kind.values():
        v.sort(key=lambda t: t[:2], reverse=True)
    used, picks = [], []
    while len(picks) < a.errors and any(by_kind.values()):
        for kind in sorted(by_kind):
            while by_kind[kind] and by_kind[kind][0][2] in used:
                by_kind[kind].pop(0)
            if by_kind[kind] and len(picks) < a.errors:
                picks.append(by_kind[kind].pop(0))
                used.append(picks[-1][2])
    for k, (depth, _r, p, call, msg) in enumerate(picks):
        chunk = [gen_program(rng, next(fresh))]
        cases.append(Case(f"error_{k}", chunk + [p], [q.entries() for q in chunk] + [p.entries(call)],
                          list(MODES), error=(msg, depth)))
    cases.append(fixed_case())
    return cases


def fixed_case():
    """The file of FIXED; its functions count in the coverage (kind "fixed")."""
    prog = Program()
    for text, _ in FIXED:
        m = re.match(r"(\w+) :.*→", text)
        if m:
            prog.fns.append(Fn(m.group(1), "fixed", [], [], [], None))
            prog.fns[-1].body = Lit(NAT, 0)          # (its callees: none that matter)
    return Case("fixed", [prog], [FIXED], list(MODES))


def coverage(cases, results):
    """The functions with baseline code: named in the --jit=baseline runs'
    stats, or called by one (a module gets code for all its functions or
    none)."""
    fns = {fn.name: fn for c in cases for fn in c.fns}
    named = {n for c in cases
             for n in re.findall(r"^jit: baseline code for (\S+) in ", results[c.name]["baseline"][3], re.M)}
    todo, covered = list(named), set()
    while todo:
        n = todo.pop()
        if n in fns and n not in covered:
            covered.add(n)
            todo.extend(fns[n].callees())
    return covered, named & set(fns), fns


def main():
    t0 = time.monotonic()
    a = base.arguments(__doc__, 20261126, 128, 4, 1, "a run-time error", HOT_STEPS,
                       lambda ap: ap.add_argument("--min-coverage", type=float, default=0.6,
                                                  help="least share of the functions that must get "
                                                       "baseline code (default 0.6)"))
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)       # Nats of up to NAT_BITS bits are printed

    cases = base.generated(a, generate)
    errors = [f"{c.error[0]} at depth {c.error[1]}" for c in cases if c.error]
    print(f"seed {a.seed}: {len({fn.name for c in cases for fn in c.fns})} functions in {len(cases)} files "
          f"({a.hot} hot, {len(errors)} ending in an error: {'; '.join(errors)}), "
          f"generated in {time.monotonic() - t0:.1f} s")

    def covers(results):
        covered, named, fns = coverage(cases, results)
        share = len(covered) / len(fns)
        print(f"baseline code for {len(covered)} of {len(fns)} functions ({100 * share:.1f} %; "
              f"{len(named)} named in `jit: baseline code for` lines)")
        tags = {}
        for fn in fns.values():
            for tag in (fn.features() if fn.kind != "fixed" else ["fixed"]):
                tags.setdefault(tag, [0, 0])[1] += 1
                tags[tag][0] += fn.name in covered
        print("  by feature: " + ", ".join(f"{t} {c}/{n}" for t, (c, n) in sorted(tags.items())))
        if share >= a.min_coverage:
            return True
        missing = sorted(n for n in set(fns) - covered if fns[n].kind != "fixed")
        print(f"FAIL: under {100 * a.min_coverage:.1f} % of the functions got baseline code; "
              f"not: {' '.join(missing[:20])}")
        if missing:
            print(fn_text(fns[missing[0]]))
        return False

    return base.run_and_report(a, cases, t0, "thorin_baseline_words_", covers)


if __name__ == "__main__":
    sys.exit(main())

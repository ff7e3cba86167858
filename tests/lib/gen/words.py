"""The first-order family's words variant (first_order.py): functions over
`Nat` (small ones immediate, big ones GMP's), `F64`, `I64`, `Idx N` and
arrays (`Array N F64`, `Array N I64`, `Array N Nat`), with results of type
Nat, F64 or I64, for the baseline JIT tier.

Each program has 0-2 top-level arrays (`build N (λ ix. …)` or a literal
`[…]`, N 5 or 8) and 3-5 functions with a driver. Parameter types mix Nat,
F64, I64, Idx N and the three kinds of array. Bodies: Nat literals (0, 1,
2^62 - 1, 2^62, 2^63, 2^64, 10^25, 10^40 …: past 2^62 a Nat is boxed, a GMP
number), F64 literals (0.5, -2.25, 1e300, 1e-300, -0.0 …: `inf` and `nan`
come from arithmetic), I64 literals (the edges of loops.py), variables,
`let`s (typed or not; Nat, F64, I64, Bool, Idx N), nested `if`s on
comparisons of Nat, F64 and I64 (== != < <= > >=), `&&`, `||`, `==`/`!=` on
Bool; Nat `+`, `-` (truncating at 0), `*`, `/`, `%`; F64 `+ - * /` (division
by 0.0 is `inf` or `nan`); I64 `+ - * / %`; `natToF64`, `get a (idx k)` (k
reduced `% N`, a loop counter known to be in range, or anything: an index
out of range is a located run-time error), `get a j` for `j : Idx N`,
`idxToNat`, `length`, arrays built inline or literal, and calls of the
program's earlier functions. Divisors may be 0 (a located run-time error).
Kinds of function:
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
terminate. `.eval`s pass arrays as a top-level name, an inline `build` or a
literal (which stores words instead of raw machine numbers). The model's
semantics are exact (`&&`/`||` short, Nat exact, F64 IEEE, I64 wrapping); a
Nat of more than NAT_BITS bits puts an `.eval` over budget.
"""
import sys

from core_model import COMPARISONS, RunError

from .entries import ONE_LINE, Def
from .first_order import EVAL_BUDGET, Fn
from .model import Reject
from .semantics import Exact
from .terms import Ann, ArrayLit, BinOp, If, Let, Lit, Var, call
from .ty import F64, I64, NAT, Arr, Idx
from .words_terms import SIZES, WordsBodyGen, mk_idx, scalar_lit

NAT_BITS = 20_000            # a larger Nat product puts the .eval over budget
SEMANTICS = Exact(nat_bits=NAT_BITS)
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)       # expected outputs print Nats of up to NAT_BITS bits
FUEL_BOUND, LOOP_BOUND, DEEP_BOUND = 4, 20, 100   # counters at call sites inside programs
DEEP_EVAL = 10_000           # the deepest direct .eval of a `deep` function

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
    return [next(pools["arr" if isinstance(t, Arr) else "idx" if isinstance(t, Idx) else "data"])
            for t in types]


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
        return new_loop(rng, name, n)
    counter, bound = {"fuel": ("fuel", FUEL_BOUND), "deep": ("n", DEEP_BOUND)}[kind]
    types = [param_type(rng, n) for _ in range(rng.randint(0, 2 if kind == "deep" else 3))]
    return Fn(name, kind, [counter] + name_params(types), [NAT] + types, [bound] + [None] * len(types),
              result_type(rng))


def new_loop(rng, name, n):
    """invariant parameters, the counter, accumulators."""
    inv = []
    if rng.random() < 0.75:
        inv.append(Arr(n, rng.choice([F64, F64, NAT, I64])))
    inv += [param_type(rng, n) for _ in range(rng.randint(0, 1))]
    accs = [rng.choice([F64, NAT, I64, F64]) for _ in range(rng.choice([1, 1, 2]))]
    res = accs[0] if rng.random() < 0.7 else result_type(rng)
    bound = n if any(isinstance(t, Arr) and t.n == n for t in inv) else rng.randint(3, LOOP_BOUND)
    counter = rng.choice(["k", "n"])           # k counts up to bound, n down to 0
    fn = Fn(name, "loop", name_params(inv) + [counter] + ["acc", "acc2"][:len(accs)],
            inv + [NAT] + accs, [None] * len(inv) + [bound] + [None] * len(accs), res)
    fn.loop_bound, fn.n_inv = bound, len(inv)
    return fn


def stop_test(rng, v, bound=None):
    """`v == 0`-like (bound None) or `v >= bound`-like."""
    def cmp(o, a, b):
        return BinOp(o, NAT, a, b)
    if bound is None:
        return rng.choice([cmp("==", Var(v), Lit(NAT, 0)), cmp("<", Var(v), Lit(NAT, 1)),
                           cmp(">=", Lit(NAT, 0), Var(v)), cmp("<=", Var(v), Lit(NAT, 0))])
    return rng.choice([cmp(">=", Var(v), Lit(NAT, bound)), cmp("<=", Lit(NAT, bound), Var(v)),
                       cmp("==", Var(v), Lit(NAT, bound)), cmp(">", Var(v), Lit(NAT, bound - 1))])


def accumulate(g, ty, acc, d):
    """A new value for an accumulator: `acc ⊕ e` mostly, e without acc in
    tame files (so a Nat grows at most linearly in bits)."""
    rng = g.rng
    if rng.random() < 0.7 or g.tame:
        o = rng.choice({NAT: "+-*" if not g.tame else "+-", F64: "+-*/", I64: "+-*"}[ty])
        if o == "*" and ty == NAT and rng.random() < 0.5:
            return BinOp("*", NAT, Var(acc), Lit(NAT, rng.randint(0, 5)))
        return BinOp(o, ty, Var(acc), g.gen(ty, d))
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
        step = loop_step(g, fn, accs, BinOp("+", NAT, Var("k"), Lit(NAT, 1)))
    else:
        g.protected.add("n1")
        g.safe = {bound: ["n1"]}
        step = g.bind("n1", NAT, lambda: loop_step(g, fn, accs, Var("n1")))
        step = Let("n1", NAT if rng.random() < 0.5 else None, BinOp("-", NAT, Var("n"), Lit(NAT, 1)), step)
    g.safe = {}
    return If(fn.res, stop, final, step)


def loop_step(g, fn, accs, step_counter):
    rng = g.rng
    calls = [0]

    def self_call():
        calls[0] += 1
        args = []
        for p, t in zip(fn.params[:fn.n_inv], fn.ptypes[:fn.n_inv]):
            args.append(Var(p) if isinstance(t, Arr) or rng.random() < 0.8 else g.gen(t, 1))
        args.append(step_counter)
        args += [accumulate(g, t, a, 2) for a, t in zip(accs, fn.ptypes[fn.n_inv + 1:])]
        return call(fn.name, *args)

    def tail(depth):
        d = depth - 1
        return g.pick([
            (4 if depth <= 0 else 3, self_call),
            (2 if depth > 0 else 0, lambda: If(fn.res, g.cond(d), tail(d), tail(d))),
            (1.5 if depth > 0 else 0, lambda: g.let(d, lambda: tail(d))),
            (0.3, lambda: g.gen(fn.res, 1)),
        ])
    step = tail(2)
    if not calls[0]:
        step = If(fn.res, g.cond(1), self_call(), step)
    return step


def driver_body(g, fn):
    """drive (i - 1) (a mix of acc and calls of the others)."""
    rng, ty = g.rng, fn.res
    g.calls_left = 4
    g.protected = {"i", "acc"}
    mix = BinOp("*", ty, Var("acc"), {NAT: Lit(NAT, 31), F64: Lit(F64, 0.5), I64: Ann(Lit(I64, 31), I64)}[ty])
    for h in rng.sample(g.callees, min(3, len(g.callees))):
        c = g.call(h, 2)
        if h.res == ty:
            term = c
        elif h.res == NAT and ty == F64:
            term = call("natToF64", c)
        else:
            lits = [scalar_lit(rng, ty) for _ in range(2)]
            term = If(ty, BinOp(rng.choice(COMPARISONS), h.res, c, scalar_lit(rng, h.res)), *lits)
        mix = BinOp(rng.choice("+-"), ty, mix, term)
    if ty == NAT:
        mix = BinOp("%", NAT, mix, Lit(NAT, 1000000007))
    step = call(fn.name, BinOp("-", NAT, Var("i"), Lit(NAT, 1)), mix)
    return If(ty, stop_test(rng, "i"), Var("acc"), step)


def recursive_body(g, fn):
    """fuel: self-calls on fuel - 1 or - 2; deep: n - 1 deep, the other
    parameters passed on (mostly unchanged)."""
    counter = fn.params[0]
    g.protected = {counter}
    stop = stop_test(g.rng, counter)
    base_case = g.gen(fn.res, 2)
    if fn.kind == "fuel":
        g.self_calls = 0
        rec = g.gen(fn.res, 4)
        if not g.self_calls:
            rec = BinOp(g.rng.choice("+-*"), fn.res, rec, g.fuel_call(2))
        return If(fn.res, stop, base_case, rec)
    rest = [Var(p) if g.rng.random() < 0.7 else g.gen(t, 1) for p, t in zip(fn.params[1:], fn.ptypes[1:])]
    rec = call(fn.name, BinOp("-", NAT, Var(counter), Lit(NAT, 1)), *rest)
    ops = {NAT: "+*" if not g.tame else "+", F64: "+-*/", I64: "+-*"}[fn.res]
    r = g.rng.random()
    if r < 0.35:
        g.protected.add("r")
        step = Let("r", fn.res if g.rng.random() < 0.5 else None, rec, g.bind("r", fn.res, lambda: g.gen(fn.res, 3)))
    elif r < 0.7:
        step = BinOp(g.rng.choice(ops), fn.res, g.gen(fn.res, 2), rec)
    else:
        step = BinOp(g.rng.choice(ops), fn.res, rec, g.gen(fn.res, 2))
    return If(fn.res, stop, base_case, step)


def body(rng, fn, prog, divisions, tame=False):
    g = WordsBodyGen(rng, fn, prog.fns[:], prog.globs, divisions, tame)
    if fn.kind == "plain":
        return g.gen(fn.res, 4)
    if fn.kind == "loop":
        return loop_body(g, fn)
    if fn.kind == "driver":
        return driver_body(g, fn)
    return recursive_body(g, fn)


def closed_gen(rng, prog):
    return WordsBodyGen(rng, None, [], prog.globs, "safe", True)


def array_arg(rng, prog, t):
    """An array: a top-level one by name, built inline, or a literal."""
    g = closed_gen(rng, prog)
    cands = g.arrays(t.elem, t.n)
    r = rng.random()
    if cands and r < 0.5:
        return rng.choice(cands)[0]
    if r < 0.8:
        g.builds = 1
        return g.build(t.n, t.elem, 2)
    return ArrayLit(t.elem, [scalar_lit(rng, t.elem) for _ in range(t.n)])


def eval_args(rng, prog, fn):
    """Arguments for a direct `.eval` of fn: edge values, arrays by name,
    built inline, or literal."""
    if fn.kind == "driver":
        return [Lit(NAT, rng.randint(3, 25)), scalar_lit(rng, fn.res)]
    args = []
    for t, b in zip(fn.ptypes, fn.bounds):
        if b is not None:
            big = fn.kind == "deep" and rng.random() < 0.4
            args.append(Lit(NAT, rng.randint(1000, DEEP_EVAL) if big else rng.randint(0, b)))
        elif isinstance(t, Idx):
            args.append(mk_idx(t.n, Lit(NAT, rng.randint(0, t.n - 1))))
        elif isinstance(t, Arr):
            args.append(array_arg(rng, prog, t))
        else:
            args.append(scalar_lit(rng, t))
    return args


def driver_args(rng, fn):
    return [Lit(NAT, 1000), scalar_lit(rng, fn.res)]


def add_globals(rng, prog, model, pid):
    """0-2 top-level arrays, built or literal, whose values the model has."""
    for k in range(rng.choice([0, 1, 1, 2])):
        n, elem = rng.choice(SIZES), rng.choice([F64, F64, I64, NAT])
        g = closed_gen(rng, prog)
        for _attempt in range(20):
            if rng.random() < 0.8:
                g.builds = 1
                e = g.build(n, elem, 3)
            else:
                e = ArrayLit(elem, [scalar_lit(rng, elem) for _ in range(n)])
            try:
                value = model.value(e, EVAL_BUDGET)
                break
            except (RunError, Reject):
                pass
        else:
            continue
        d = Def(f"arr{k}_p{pid}", Arr(n, elem), e, fmt=ONE_LINE)
        model.bind(d.name, value)
        prog.globs.append(d)

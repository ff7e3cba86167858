"""The first-order family's shared part: programs of top-level functions of
a kind (plain, fuel, loop, deep, driver), each drawn again until the model
gives one of its `.eval`s a value, with the output lines the model expects
and the run-time errors it found. Bodies come from a variant: loops.py (I64
only) or words.py (Nat, F64, I64, Idx, arrays); both are for the baseline
JIT tier, which compiles this fragment.

A variant is a module with SEMANTICS, add_globals(rng, prog, model, pid),
new_fn(rng, pid, k, kind), body(rng, fn, prog, divisions, **opts),
eval_args(rng, prog, fn) and driver_args(rng, fn).
"""
import sys
import threading

from core_model import RunError

from .entries import CONTINUATION, Def, Directive
from .model import Model, Reject, show_value
from .terms import App, Lit, Var, call, lam, walk
from .ty import fun_type

EVAL_BUDGET = 150_000        # model steps per `.eval`
KINDS = ["plain", "plain", "fuel", "loop", "loop", "deep"]


class Fn:
    """A top-level function. bounds[i]: None, or the largest value call sites
    give the i-th parameter (a counter)."""

    def __init__(self, name, kind, params, ptypes, bounds, res):
        self.name, self.kind, self.params, self.ptypes, self.bounds, self.res = \
            name, kind, params, ptypes, bounds, res
        self.body = None

    def definition(self):
        return Def(self.name, fun_type(self.ptypes, self.res), lam(self.params, self.body), fmt=CONTINUATION)

    def callees(self):
        """The names its body applies (the program's functions among them)."""
        return {e.fn.name for e in walk(self.body) if isinstance(e, App) and isinstance(e.fn, Var)}


def eval_text(node):
    return Directive(node).render() + "\n"


class Program:
    """Top-level values (Defs) and functions (names end in _pN), and
    `.eval`s: (call, the model's value); errors: (call, message, depth of
    calls) of `.eval`s that fail."""

    def __init__(self):
        self.globs, self.fns, self.evals, self.errors = [], [], [], []
        self.driver_call, self.driver_cost = None, 1     # model steps per iteration of the driver

    def entries(self, error=None):
        """The program's text as entries (definitions, then .evals, then the
        failing .eval `error` if given), each with the output line the model
        expects (None: prints nothing)."""
        out = [(d.render() + "\n", None) for d in self.globs + [fn.definition() for fn in self.fns]]
        out += [(eval_text(c), show_value(v) + "\n") for c, v in self.evals]
        if error:
            out.append((eval_text(error), None))
        return out

    def long_eval(self, steps):
        """A `.eval` of the driver taking about `steps` model steps (not
        evaluated by the model)."""
        c = self.driver_call
        n = max(10, min(10 ** 6, steps // self.driver_cost))
        return eval_text(App(c.fn, [Lit(c.args[0].ty, n)] + c.args[1:])), None


def try_evals(rng, variant, model, prog, fn):
    """Two `.eval`s of fn: (those with values, those that fail)."""
    evals, errors = [], []
    for _ in range(2):
        c = call(fn.name, *variant.eval_args(rng, prog, fn))
        try:
            evals.append((c, model.value(c, EVAL_BUDGET)))
        except RunError as ex:
            errors.append((c, ex.msg, ex.depth))
        except Reject:
            pass
    return evals, errors


def driver_cost(model, c):
    """Model steps per iteration of the driver call c, run until it ends or
    the budget is spent."""
    try:
        model.value(c, EVAL_BUDGET)
    except (RunError, Reject):
        pass
    return model.steps // max(model.iterations, 1) + 1


def gen_program(rng, pid, variant, kinds=None, divisions="any", **opts):
    """A program (divisions: "any", "safe" or "none", as the variant reads
    them). Each function is drawn again (up to 20 times) until one of its
    two .evals succeeds in the model."""
    prog, model = Program(), Model(variant.SEMANTICS)
    variant.add_globals(rng, prog, model, pid)
    if not kinds:
        kinds = rng.sample(KINDS, rng.randint(3, 5)) + ["driver"]
    for k, kind in enumerate(kinds):
        for _attempt in range(20):
            fn = variant.new_fn(rng, pid, k, kind)
            fn.body = variant.body(rng, fn, prog, divisions, **opts)
            model.define(fn.name, fn.params, fn.body, count_iterations=kind == "driver")
            evals, errors = try_evals(rng, variant, model, prog, fn)
            if evals:
                break
        prog.fns.append(fn)
        prog.evals += evals
        prog.errors += errors
        if kind == "driver":
            prog.driver_call = call(fn.name, *variant.driver_args(rng, fn))
            prog.driver_cost = driver_cost(model, prog.driver_call)
    return prog


class BodyGen:
    """What the variants' body generators share: the scope (later bindings
    shadow earlier ones), weighted picks, calls of the earlier functions
    (a variant's arg(ty, bound, depth) makes their arguments). fn None: a
    closed term (a top-level value, an argument)."""

    def __init__(self, rng, fn, callees, divisions):
        self.rng, self.fn, self.callees, self.divisions = rng, fn, callees, divisions
        self.scope = [] if fn is None else list(zip(fn.params, fn.ptypes))
        self.calls_left = 2
        self.self_calls = 0

    def pick(self, options):
        """options: [(weight, thunk)]; runs one chosen by weight."""
        return self.rng.run(options)

    def visible(self):
        seen, out = set(), []
        for name, t in reversed(self.scope):
            if name not in seen:
                seen.add(name)
                out.append((name, t))
        return out

    def vars(self, ty):
        return [n for n, t in self.visible() if t == ty]

    def var(self, ty):
        return Var(self.rng.choice(self.vars(ty)))

    def bind(self, name, ty, thunk):
        """thunk() with name : ty in scope."""
        self.scope.append((name, ty))
        try:
            return thunk()
        finally:
            self.scope.pop()

    def call(self, g, depth):
        self.calls_left -= 1
        return call(g.name, *[self.arg(t, b, depth) for t, b in zip(g.ptypes, g.bounds)])


def deep(thunk):
    """thunk() in a thread with a large stack: the model recurses as deep as
    the programs (a `deep` function is .eval'd up to 20,000 deep)."""
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 << 20)
    out = []

    def run():
        try:
            out.append((True, thunk()))
        except BaseException as ex:             # (raised again in the caller's thread)
            out.append((False, ex))
    t = threading.Thread(target=run)
    t.start()
    t.join()
    ok, value = out[0]
    if not ok:
        raise value
    return value

"""The strict evaluator of every family: terms compiled to Python source
(fast enough for the baseline tests' deep recursions) and run under a step
budget, with the call depth at which a run-time error happened.

Strict and left to right (arguments, operands, unused `let`s) except for
`if`; what operators and primitives do is a semantics' (semantics.py).
Costs: a call of a first-order function (`define`) costs the size of its
body, any other application of a function value one step; past the budget
the run raises OutOfBudget.
"""
from core_model import RunError

from .terms import (Ann, App, ArrayLit, BinOp, If, IdxLit, Lam, Let, Lit, Proj, Tuple, TyArg, Var,
                    size)


class Reject(Exception):
    """The model cannot give the term a value the test may rely on."""


class OutOfBudget(Reject):
    pass


class ArrV(list):
    """An array value (a tuple is a pair)."""


def show_value(v):
    """A value as thorin prints it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if v != v else repr(v)
    if isinstance(v, tuple):
        return f"({show_value(v[0])}, {show_value(v[1])})"
    if isinstance(v, ArrV):
        return "[" + ", ".join(show_value(x) for x in v) + "]"
    if callable(v):
        return "<function>"
    raise TypeError(v)


RUNTIME = """
STEPS = DEPTH = ITERS = LIMIT = 0
def TICK():
    global STEPS
    STEPS += 1
    if STEPS > LIMIT:
        raise OutOfBudget()
def AP(f, x):
    TICK()
    return f(x)
"""


def curry(fn, arity, args=()):
    if len(args) == arity:
        return fn(*args)
    return lambda x: curry(fn, arity, args + (x,))


class Model:
    """A program's functions and global values, compiled into one namespace."""

    def __init__(self, semantics):
        self.sem = semantics
        self.ns = {"OutOfBudget": OutOfBudget, "ArrV": ArrV, **semantics.namespace}
        exec(RUNTIME, self.ns)
        self.direct = {}                # name -> (Python function, arity): called when fully applied
        for name, (arity, fn) in semantics.prims.items():
            self.ns["P_" + name] = fn
            self.direct[name] = ("P_" + name, arity)
            self.bind(name, curry(fn, arity) if arity > 1 else fn)
        self.fresh = 0

    def bind(self, name, value):
        """A global value (a definition's, a top-level array's)."""
        self.ns["G_" + name] = value

    def lookup(self, name):
        return self.ns["G_" + name]

    def tick(self):
        self.ns["TICK"]()

    def define(self, name, params, body, count_iterations=False):
        """(Re)defines the first-order function `name params = body`; it
        counts its calls in `iterations` if asked to (a driver's loop)."""
        scope = {p: f"a{i}" for i, p in enumerate(params)}
        self.direct[name] = ("F_" + name, len(params))      # (before its body: it may recurse)
        count = "    global ITERS\n    ITERS += 1\n" if count_iterations else ""
        src = (f"def F_{name}({', '.join(scope.values())}):\n"
               f"    global STEPS, DEPTH\n{count}"
               f"    STEPS += {size(body)}\n"
               f"    if STEPS > LIMIT:\n"
               f"        raise OutOfBudget()\n"
               f"    DEPTH += 1\n"
               f"    r = {self.src(body, scope)}\n"
               f"    DEPTH -= 1\n"
               f"    return r\n")
        exec(src, self.ns)

    def run(self, thunk, budget):
        """thunk() with a fresh budget; a RunError gets the depth of calls it happened at."""
        self.ns.update(STEPS=0, DEPTH=0, ITERS=0, LIMIT=budget)
        try:
            return thunk()
        except RunError as ex:
            ex.depth = self.ns["DEPTH"]
            raise

    def value(self, node, budget):
        """The value of a closed term, or raises RunError / Reject."""
        exec(f"def _top():\n    return {self.src(node, {})}\n", self.ns)
        return self.run(self.ns["_top"], budget)

    @property
    def steps(self):
        return self.ns["STEPS"]

    @property
    def iterations(self):
        return self.ns["ITERS"]

    def var(self):
        self.fresh += 1
        return f"v{self.fresh}"

    def src(self, e, scope):
        """Python for e; scope maps local names to Python variables."""
        if isinstance(e, Lit):
            return repr(e.value)
        if isinstance(e, Var):
            return scope.get(e.name) or "G_" + e.name
        if isinstance(e, Ann):
            return self.src(e.node, scope)
        if isinstance(e, BinOp):
            return self.sem.op(e.op, e.ty.name, f"({self.src(e.left, scope)})", f"({self.src(e.right, scope)})")
        if isinstance(e, If):
            c, t, f = (self.src(x, scope) for x in (e.cond, e.then, e.els))
            return f"(({t}) if ({c}) else ({f}))"
        if isinstance(e, Let):
            v, value = self.var(), self.src(e.value, scope)
            return f"(({v} := ({value})), ({self.src(e.body, {**scope, e.name: v})}))[1]"
        if isinstance(e, Lam):
            inner = dict(scope)
            vs = []
            for name, _ in e.binders:
                vs.append(self.var())
                inner[name] = vs[-1]
            return "".join(f"(lambda {v}: " for v in vs) + self.src(e.body, inner) + ")" * len(vs)
        if isinstance(e, App):
            return self.app(e, scope)
        if isinstance(e, Tuple):
            return f"(({self.src(e.fst, scope)}), ({self.src(e.snd, scope)}))"
        if isinstance(e, Proj):
            return f"({self.src(e.pair, scope)})[{e.k - 1}]"
        if isinstance(e, ArrayLit):
            return "ArrV([" + ", ".join(self.src(x, scope) for x in e.elems) + "])"
        if isinstance(e, IdxLit):
            return f"IDX({e.n}, {self.src(e.k, scope)})"
        raise TypeError(f"no value for {type(e).__name__}")

    def app(self, e, scope):
        """A full application of a function or primitive is a direct call;
        anything else applies one argument at a time."""
        args = [self.src(a, scope) for a in e.args if not isinstance(a, TyArg)]
        head = e.fn.name if isinstance(e.fn, Var) and e.fn.name not in scope else None
        if head in self.direct and self.direct[head][1] == len(args):
            return f"{self.direct[head][0]}({', '.join(args)})"
        f = self.src(e.fn, scope)
        for a in args:
            f = f"AP({f}, {a})"
        return f

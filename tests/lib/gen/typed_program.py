"""The typed family's programs: library modules, definitions (recursive ones
bounded by a counter), `.eval`s with the values the model computes, and the
minimal program of an `.eval` (the definitions it needs)."""
import re

from .entries import SPLIT, Def, Directive, Line, file_text
from .library import MODULES, TEMPLATES, Global, TemplateEnv, builtin_globals, definition
from .model import Model, Reject
from .rng import Rng
from .semantics import Conservative
from .shadow import header
from .terms import App, BinOp, If, Lam, Let, Lit, Var
from .ty import I64, NAT, Church, Fun, fun_type, uncurry
from .typed import TermGen, printable, show_value

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
        return file_text([Line(f"-- program {self.pid}")] + defs + [self.evals[i] for i in idxs], shadow)

    def expected(self, eval_indices=None):
        idxs = range(len(self.evals)) if eval_indices is None else eval_indices
        return "".join(self.evals[i].expected + "\n" for i in idxs)


class ProgramGen(TermGen):
    """The generator of one program: types first, then terms of those types."""

    def __init__(self, rng, pid):
        super().__init__(rng, f"_p{pid}")
        self.pid = pid
        self.globals = builtin_globals()
        self.model = Model(Conservative())          # the run-time environment of globals
        self.defs = []
        self.own = []                               # the program's definitions (not the library's)

    def run(self, node, fuel=20000):
        return self.model.value(node, fuel)

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
            d = definition(t, s, self.church)
            self.defs.append(d)
            if t.sig is None:
                continue
            self.model.bind(d.name, t.value(TemplateEnv(self.model, s)))
            ps, res = uncurry(d.ty)
            self.add_global(d.name, t.tparams, ps, res, t.counters, 1.2)

    def add_def(self, name, ty, node, counters, **kw):
        """One of the program's own definitions, which later terms may call."""
        self.defs.append(Def(name, ty, node, **kw))
        self.own.append(name)
        more, final = uncurry(ty)
        self.add_global(name, [], more, final, counters, 2.0)

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
                self.model.bind(name, self.run(node))
                break
            except Reject:
                continue
        else:
            raise Reject("no definition")
        self.add_def(name, fun_type(params, res), node, {}, fmt=SPLIT if self.chance(0.08) else None)

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

        def call(k, args):
            return App(Var(name), [BinOp("-", cty, Var(n), Lit(cty, k))] + args)

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
        for _ in range(20):
            body = self.with_vars([(n, cty)] + xs, gen_body)
            node = Lam([(n, None)] + [(x, None) for x, _ in xs], body)
            if self.terminates(name, node, bound, params):
                break
        else:
            raise Reject("no recursive definition")
        self.add_def(name, fun_type([cty] + params, res), node, {0: bound}, recursive=True)

    def terminates(self, name, node, bound, params):
        """Binds name to node's value: does the recursion terminate, cheaply,
        for every allowed counter?"""
        self.model.bind(name, self.run(node))
        try:
            for c in (bound, bound - 1, 0, 1):
                args = [self.sample_value(p) for p in params]

                def drive():
                    f = self.model.lookup(name)(c)
                    for a in args:
                        f = f(a)
                    return f
                self.model.run(drive, 20000)
            return True
        except Reject:
            return False

    def sample_value(self, ty):
        """Some value of type ty, to test-drive a recursive definition."""
        for _ in range(5):
            try:
                return self.run(self.gen(ty, 1), 5000)
            except Reject:
                pass
        raise Reject("no sample value")

    def gen_eval(self):
        for _ in range(30):
            if self.chance(0.02):
                fns = [g for g in self.globals if g.name.endswith(self.sfx) and g.params and not g.tparams]
                if fns:
                    g = self.r.choice(fns)
                    return Directive(Var(g.name), ty=fun_type(g.params, g.res), expected="<function>")
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
                return Directive(node, ty=ty, expected=show_value(self.run(node)))
            except Reject:
                continue
        raise Reject("no eval")

    def program(self):
        self.add_modules()
        for i in range(self.r.randint(1, 3)):
            if self.chance(0.45):
                self.gen_rec_def(i)
            else:
                self.gen_def(i)
        evals = [self.gen_eval() for _ in range(self.r.randint(2, 4))]
        prog = Program(self.pid, self.defs, evals)
        prog.defs = prog.needed(range(len(evals)), self.own)      # drop unused library definitions
        return prog


def generate_one(seed, pid):
    for attempt in range(100):
        g = ProgramGen(Rng(f"{seed}/{pid}/{attempt}"), pid)
        try:
            return g.program()
        except Reject:
            continue
    raise RuntimeError(f"program {pid}: no program after 100 attempts")


def generate(count, seed):
    return [generate_one(seed, pid) for pid in range(count)]


def batch_text(programs, shadow=False):
    body = "\n".join(p.text(shadow) for p in programs)
    return header(body) + "\n" + body if shadow else body

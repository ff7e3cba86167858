"""The multi-file family: small programs in three files over builtin data,
for reloading. main.thorin `.import`s lib.thorin, which mostly `.import`s
util.thorin; main sometimes imports util too. A program is a state {file:
[entries] or None (no such file)} of entries.Def / Directive / Line.

Definitions: literals, functions, recursive functions with signatures
(applied to small literals only, so everything terminates whatever edits do
to the rest), functions of two arguments, implicit arguments (`myid`,
`twice`, the prelude's `id` redefined), type synonyms (`Num : U = Nat`),
strings, `not` redefined, proofs by `refl` that run recursive functions
during elaboration (`pf : Eq (fact 4) 24 = refl`), divisions by literals (a
literal edit can make them divide by zero: located run-time errors),
shadowing, `.eval`; optionally a long definition (`big`, 3000 terms) that
uses another one. Every name has one kind for the whole program (POOLS), so
a shadowing definition has the kind of what it shadows.
"""
from .entries import ONE_LINE, Def, Directive, Line
from .terms import L_ADD, L_CMP, L_OPEN, App, BinOp, If, Lit, Raw, Var, call, lam
from .ty import BOOL, NAT

POOLS = {
    "N": ["a", "b", "c", "d", "k", "m"],
    "B": ["ok", "flag"],
    "F": ["f", "inc", "dbl"],
    "R": ["g", "fact", "tri"],
    "F2": ["h", "add2"],
    "T": ["Num", "Cnt"],
    "P1": ["myid", "id"],
    "P2": ["twice"],
    "S": ["s", "msg"],
    "Q": ["pf", "pf2", "pf3"],
    "NB": ["not", "neg"],
}
KIND = {n: k for k, ns in POOLS.items() for n in ns}
KIND.update({"Eq": "EQ", "refl": "REFL", "big": "N"})
PRELUDE = {"id": "P1", "not": "NB"}      # prelude and core names the generator uses
FILES = ["main", "lib", "util"]
DIRECTIVES = [".eval", ".eval", ".eval", ".nf", ".check"]


def kind(v):
    """The kind of a definition, or of a prelude name (a string)."""
    return v if isinstance(v, str) else KIND[v.name]


def is_import(e):
    """The file an `.import` line imports, else None."""
    return e.text[len(".import "):] if isinstance(e, Line) and e.text.startswith(".import ") else None


def load_order(state):
    """The files a load of main.thorin reads, in order (each once)."""
    order = []

    def load(f):
        order.append(f)
        for e in state[f] or []:
            t = is_import(e)
            if t and t not in order:
                load(t)
    load("main")
    return order


def defs(state, fname=None):
    """(file, position, Def) of the files' definitions."""
    return [(f, i, e) for f in (FILES if fname is None else [fname])
            for i, e in enumerate(state[f] or []) if isinstance(e, Def)]


class RecDef(Def):
    """name : Nat → Nat = λ n. if n == 0 then base else (a step by comb,
    calling name on n - 1); `n - 1` and `n == 0` are fixed text, which
    literal edits leave alone."""

    def __init__(self, name, base, comb, lit, fmt=ONE_LINE):
        rec = App(Var(name), [Raw("n - 1", L_ADD, ["n"])])
        step = {"mul": BinOp("*", NAT, Var("n"), rec), "add": BinOp("+", NAT, rec, lit),
                "lin": BinOp("+", NAT, Var("n"), BinOp("*", NAT, rec, lit))}[comb]
        body = lam(["n"], If(NAT, Raw("n == 0", L_CMP, ["n"]), base, step))
        super().__init__(name, Raw("Nat → Nat"), body, fmt=fmt)
        self.base, self.comb, self.lit = base, comb, lit

    def value(self, n):
        """Its value at n, computed here."""
        v = self.base.value
        for i in range(1, n + 1):
            v = {"mul": i * v, "add": v + self.lit.value, "lin": i + v * self.lit.value}[self.comb]
        return v


class MultiFileGen:
    def __init__(self, rng):
        self.rng = rng

    # -- scope
    @staticmethod
    def env_at(state, fname, pos):
        """name -> Def (or kind string for prelude names) visible before entry pos of file fname
        when main.thorin is loaded (an imported file sees what is in scope where it is imported)."""
        env, loaded, found = dict(PRELUDE), set(), []

        def load(f):
            loaded.add(f)
            for i, e in enumerate(state[f] + [None]):
                if f == fname and i == pos and not found:
                    found.append(dict(env))
                if isinstance(e, Def):
                    env[e.name] = e
                elif e is not None and is_import(e) and is_import(e) not in loaded:
                    load(is_import(e))
        load("main")
        if not found:               # (a file that is not loaded: its own scope)
            env, loaded = dict(PRELUDE), set()
            load(fname)
        return found[0] if found else env

    @staticmethod
    def names_of(env, *kinds):
        return sorted(n for n, v in env.items() if kind(v) in kinds)

    # -- expressions
    def nat(self, env, locs, d=0):
        r = self.rng
        opts = [("lit", 3)]
        if locs:
            opts.append(("loc", 4))
        if self.names_of(env, "N"):
            opts.append(("var", 3))
        if d < 2:
            for k, w in (("F", 2), ("R", 2), ("F2", 1), ("P1", 1), ("P2", 1), ("S", 1)):
                if self.names_of(env, k):
                    opts.append((k, w))
            opts += [("+", 2), ("-", 1), ("*", 2), ("if", 1), ("/", 1), ("%", 1)]
        what = r.choices([o for o, _ in opts], [w for _, w in opts])[0]
        return self.nat_of(what, env, locs, d)

    def nat_of(self, what, env, locs, d):
        r = self.rng

        def sub():
            return self.nat(env, locs, d + 1)

        def named(k):
            return Var(r.choice(self.names_of(env, k)))
        if what == "lit":
            return Lit(NAT, r.randint(0, 12))
        if what == "loc":
            return Var(r.choice(locs))
        if what == "var":
            return named("N")
        if what in ("F", "P1"):
            return App(named(what), [sub()])
        if what == "R":
            return App(named("R"), [Lit(NAT, r.randint(0, 8))])
        if what == "F2":
            return App(named("F2"), [sub(), sub()])
        if what == "P2":
            fs = self.names_of(env, "F")
            fn = Var(r.choice(fs)) if fs and r.random() < 0.6 else \
                lam(["x"], BinOp("+", NAT, Var("x"), Lit(NAT, r.randint(1, 5))))
            return App(named("P2"), [fn, sub()])
        if what == "S":
            return call("strLen", named("S"))
        if what == "if":
            return If(NAT, self.bool(env, locs, d + 1), sub(), sub())
        if what == "*":                 # (by a literal only: values stay small)
            return BinOp("*", NAT, sub(), Lit(NAT, r.randint(0, 5)))
        if what in ("/", "%"):          # (a literal edit may make it a division by zero)
            return BinOp(what, NAT, sub(), Lit(NAT, r.randint(1, 5)))
        return BinOp(what, NAT, sub(), sub())

    def bool(self, env, locs, d=0):
        r = self.rng
        opts = ["lit", "cmp", "cmp"]
        if self.names_of(env, "B"):
            opts.append("var")
        if d < 2:
            opts += ["and"] + ["not"] * bool(self.names_of(env, "NB"))
        what = r.choice(opts)
        if what == "lit":
            return Lit(BOOL, r.random() < 0.5)
        if what == "var":
            return Var(r.choice(self.names_of(env, "B")))
        if what == "not":
            return App(Var(r.choice(self.names_of(env, "NB"))), [self.bool(env, locs, d + 1)])
        if what == "and":
            return BinOp(r.choice(["&&", "||"]), BOOL, self.bool(env, locs, d + 1), self.bool(env, locs, d + 1))
        return BinOp(r.choice(["==", "<", "<=", "!="]), NAT, self.nat(env, locs, d + 1), self.nat(env, locs, d + 1))

    def string(self, env, d=0):
        r = self.rng
        if self.names_of(env, "S") and r.random() < 0.4:
            return call("strCat", Var(r.choice(self.names_of(env, "S"))), Raw('"!"'))
        return call("strCat", Raw(r.choice(['"n="', '"ab"', '""'])), call("natToString", self.nat(env, [], d + 1)))

    def expr(self, env):
        x = self.rng.random()
        if x < 0.7:
            return self.nat(env, [])
        if x < 0.9:
            return self.bool(env, [])
        return self.string(env)

    # -- definitions
    def nat_type(self, env):
        ts = self.names_of(env, "T")
        return Raw(self.rng.choice(ts)) if ts and self.rng.random() < 0.3 else Raw("Nat")

    def definition(self, name, env):
        """A new definition of name, its body in env (name itself is not in scope for it)."""
        r, k = self.rng, KIND[name]
        env = {n: v for n, v in env.items() if n != name}
        fmt = r.choices([0, 1, 2], [6, 1, 1])[0]
        if k == "R":
            return RecDef(name, Lit(NAT, r.randint(0, 3)), r.choice(["mul", "add", "lin"]),
                          Lit(NAT, r.randint(1, 3)), fmt)
        if k == "Q":
            return self.proof(name, env, fmt)
        ty, body = self.signature_and_body(k, env)
        return Def(name, ty, body, fmt=fmt)

    def signature_and_body(self, k, env):
        r = self.rng
        if k == "N":
            return self.nat_type(env), Lit(NAT, r.randint(0, 12)) if r.random() < 0.35 else self.nat(env, [])
        if k == "B":
            return Raw("Bool"), self.bool(env, [])
        if k == "F":
            return Raw(r.choice(["Nat → Nat", "(n : Nat) → Nat"])), lam(["n"], self.nat(env, ["n"]))
        if k == "F2":
            return Raw("Nat → Nat → Nat"), lam(["x", "y"], self.nat(env, ["x", "y"]))
        if k == "T":
            return Raw("U"), Raw("Nat")
        if k == "P1":
            return Raw("{A : U} → A → A"), Raw("λ x. x", L_OPEN)
        if k == "P2":
            return Raw("{A : U} → (A → A) → A → A"), Raw("λ f x. f (f x)", L_OPEN)
        if k == "S":
            return Raw("String"), self.string(env)
        if k == "NB":
            return Raw("Bool → Bool"), r.choice([
                Raw("λ b. if b then false else true", L_OPEN), Raw("λ b. b", L_OPEN),
                lam(["b"], BinOp("&&", BOOL, Var("b"), Lit(BOOL, r.random() < 0.5)))])
        raise ValueError(k)

    def new_kind(self, env, kinds):
        """A kind for a new definition (proofs only where Eq and refl are in scope)."""
        ok = [k for k in kinds if k != "Q" or ("Eq" in env and "refl" in env)]
        return self.rng.choice(ok)

    def proof(self, name, env, fmt):
        r = self.rng
        opts = ["plus0"]
        rs = [v for v in env.values() if isinstance(v, RecDef)]
        ns = [v for v in env.values() if isinstance(v, Def) and kind(v) == "N" and isinstance(v.body, Lit)]
        fs = self.names_of(env, "F")
        opts += ["rec"] * 3 * bool(rs) + ["lit"] * 2 * bool(ns) + ["same"] * bool(fs)
        what = r.choice(opts)
        if what == "rec":
            d = r.choice(rs)
            n = r.randint(0, 6)
            ty = call("Eq", call(d.name, Lit(NAT, n)), Lit(NAT, d.value(n)))
        elif what == "lit":
            d = r.choice(ns)
            ty = call("Eq", Var(d.name), Lit(NAT, d.body.value))
        elif what == "same":
            f, n = r.choice(fs), r.randint(0, 9)
            ty = call("Eq", call(f, Lit(NAT, n)), call(f, Lit(NAT, n)))
        else:
            return Def(name, Raw("(n : Nat) → Eq (n + 0) n", L_OPEN, names=["Eq"]),
                       Raw("λ n. refl", L_OPEN, names=["refl"]), fmt=fmt)
        return Def(name, ty, Var("refl"), fmt=fmt)

    def add(self, state, fname, kinds):
        """A new definition at the end of fname, of one of kinds."""
        entries = state[fname]
        env = self.env_at(state, fname, len(entries))
        name = self.rng.choice(POOLS[self.new_kind(env, kinds)])
        entries.append(self.definition(name, env))

    def program(self, big=False):
        r = self.rng
        lib = [Line(".import util")] if r.random() < 0.8 else []
        lib += [Def("Eq", Raw("{A : U} → A → A → U"), Raw("λ {A} x y. (P : A → U) → P x → P y", L_OPEN),
                    fmt=ONE_LINE),
                Def("refl", Raw("{A : U} {x : A} → Eq x x", names=["Eq"]), Raw("λ P px. px", L_OPEN),
                    fmt=ONE_LINE)]
        state = {"main": [Line(".import lib")], "lib": lib, "util": []}
        if r.random() < 0.3:
            state["main"].insert(r.randint(0, 1), Line(".import util"))
        kinds = ["N", "N", "N", "F", "F", "R", "R", "F2", "B", "T", "P1", "P2", "S", "Q", "NB"]
        for fname, count in (("util", r.randint(2, 3)), ("lib", r.randint(3, 5)), ("main", r.randint(6, 9))):
            for _ in range(count):
                self.add(state, fname, kinds)
                if fname == "main" and r.random() < 0.3:
                    state["main"].append(Directive(self.expr(self.env_at(state, "main", len(state["main"])))))
        state["main"].append(Directive(self.expr(self.env_at(state, "main", len(state["main"])))))
        if big:
            self.add_big(state)
        return state

    def add_big(self, state):
        """A long definition that uses another one: re-checking it again and again makes
        garbage, and a reload that finds enough of it is a full one."""
        r = self.rng
        es = state["main"]
        j = next((i + 1 for i, e in enumerate(es) if isinstance(e, Def) and kind(e) == "N"), len(es))
        uses = self.names_of(self.env_at(state, "main", j), "N") or ["0"]
        terms = Raw(" + ".join(str(r.randint(0, 9)) for _ in range(3000)), L_ADD)
        es.insert(j, Def("big", Raw("Nat"), BinOp("+", NAT, Var(r.choice(uses)), terms), fmt=ONE_LINE))

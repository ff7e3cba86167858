"""The data family: random well-typed programs over `data` declarations and
pattern matching, with the output thorin must print
(tests/scripts/test_data_differential.py).

A program (names end in a suffix unique to it, `_p17`) declares 2-4 data
types of several shapes (enumerations, records of one constructor, options,
lists and trees with a parameter, expression-like sums with recursive
fields, rose trees nested through a list), then defines functions over them:
- builders `Nat → T` by clauses with literal patterns (`b 0 = …`, `b n = …`),
  recursive on the counter (`n - 1`, or `n / k` with k recursive fields, so
  a tree stays linear in n), and tail-recursive ones with an accumulator:
  the values the `.eval`s build reach hundreds to thousands of
  constructors, so the JIT tiers compile hot loops;
- consumers by clauses, the clauses a random pattern matrix (nested
  constructor patterns, literal patterns of Nat, I64, String and Bool,
  variables and `_`), recursive only on variables that are strict subterms
  of the first argument (through the clause's patterns and through `case`s
  on such variables), each at most once and never both a variable and one
  of its subterms, so every recursion ends and stays linear;
- definitions whose body is a `case` (laid out on lines, or `{ …; … }`),
  `case`s anywhere in terms (also on a call, an operator's result, a
  literal type), `let`, `if`, pairs and their projections, lambdas,
  closures stored in data;
- the generated eliminators `elimT` (motive `λ _. R`, one method per
  constructor with an induction hypothesis per recursive field), point-free
  or applied;
- polymorphic functions derived from a declaration: `size` (with implicit
  patterns `{A}` at times), `map`, `fold`, `append`, `reverse` (an
  accumulator with `{A}`), called with implicit arguments inferred or given
  (`{Nat}`).
The `.eval`s call the program's functions (on values built by the builders,
up to their bounds, or on small constructed values), `.nf`s normalize small
ones in the elaborator's evaluator; both print Nat, I64, Bool, String,
pairs and data values.

The expected output comes from a model of the semantics in Python,
independent of thorin: values are Python ints, bools, strs, tuples,
closures and `DV` (a constructor and its explicit fields); clauses and
`case` alternatives are tried top to bottom, first match wins; evaluation
is strict (conservative semantics.binop for the operators), under a step
budget. Printing follows thorin's two printers: `.eval` shows a data value
as its constructor applied to its explicit fields (`cons -1 (cons 2 nil)`),
`.nf` with the parameters as implicit arguments
(`cons {I64} (-1) (cons {I64} 2 (nil {I64}))`).

Pattern matrices: clauses no earlier clauses make unreachable, and a
final catch-all only when the others are not exhaustive (Maranget's
usefulness, in Python), so thorin must find every definition by clauses
total and warn about none of its clauses: the test checks that too. (An
alternative of a `case` may draw a warning: thorin also counts those that a
scrutinee it knows the value of never reaches.)

Switches that exclude a feature because of a known thorin bug (each named
in test_data_differential.py's report) are the module-level constants
below, all True when every bug is fixed.
"""
import gc
import re
import sys
import threading
from dataclasses import dataclass

from .entries import Line
from .model import OutOfBudget, Reject
from .rng import Rng
from .semantics import binop
from .terms import L_APP, L_ATOM, L_OPEN, L_OR, App, BinOp, If, Lit, Node, Proj, Tuple, Var
from .ty import BOOL, I64, NAT, T_APP, T_ARROW, T_ATOM, Base, Fun, Pair, Ty, TVar

# Features once held back by thorin bugs (fixed; kept as switches, on, so a
# regression can be narrowed down with --with): fields named like the
# eliminator's generated names or like constructors; `case` on a let-bound
# variable; number patterns on a scrutinee whose type is not known yet.
ELIM_FIELD_NAMES_LIKE_GENERATED = True
CASE_ON_LET_BOUND = True
NUMBER_CASE_ON_UNSOLVED_TYPE = True

STRING = Base("String")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
BINDERS = re.compile(r"[A-Za-z_][A-Za-z0-9_']*( [A-Za-z_][A-Za-z0-9_']*)+")
STRINGS = ["", "a", "ab", "hi", "thorin", "x y", "zz", "a\nb", "q\"", "t\tab", "back\\"]
BIG_NATS = [(1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, (1 << 64) + 1, 10 ** 30]
EDGE_I64S = [-(1 << 63), (1 << 63) - 1, -(1 << 31), (1 << 32) + 7, -1000000007]
EVAL_BUDGET = 150_000            # model steps of an `.eval`
NF_BUDGET = 20_000               # of an `.nf` (the elaborator's evaluator is slower)
PRINT_LIMIT = 60                 # constructors in a printed value


# ---------------------------------------------------------------- types
@dataclass(frozen=True)
class DataTy(Ty):
    name: str
    args: tuple = ()


def show_type(t, lvl=T_ARROW):
    def par(s, level):
        return s if level >= lvl else f"({s})"
    if isinstance(t, (Base, TVar)):
        return t.name
    if isinstance(t, DataTy):
        if not t.args:
            return t.name
        return par(t.name + "".join(" " + show_type(a, T_ATOM) for a in t.args), T_APP)
    if isinstance(t, Fun):
        res = show_type(t.res, T_ARROW if isinstance(t.res, Fun) else T_APP)
        return par(f"{show_type(t.arg, T_APP)} → {res}", T_ARROW)
    if isinstance(t, Pair):
        return par(f"{show_type(t.fst, T_APP)} × {show_type(t.snd, T_APP)}", 1)
    raise TypeError(t)


def subst(t, sub):
    if isinstance(t, TVar):
        return sub.get(t.name, t)
    if isinstance(t, DataTy):
        return DataTy(t.name, tuple(subst(a, sub) for a in t.args))
    if isinstance(t, Fun):
        return Fun(subst(t.arg, sub), subst(t.res, sub))
    if isinstance(t, Pair):
        return Pair(subst(t.fst, sub), subst(t.snd, sub))
    return t


def tvars(t, acc=None):
    acc = set() if acc is None else acc
    if isinstance(t, TVar):
        acc.add(t.name)
    elif isinstance(t, DataTy):
        for a in t.args:
            tvars(a, acc)
    elif isinstance(t, Fun):
        tvars(t.arg, acc)
        tvars(t.res, acc)
    elif isinstance(t, Pair):
        tvars(t.fst, acc)
        tvars(t.snd, acc)
    return acc


def match_ty(pat, t, sub):
    """Extends sub so that pat[sub] == t."""
    if isinstance(pat, TVar):
        if pat.name in sub:
            return sub[pat.name] == t
        sub[pat.name] = t
        return True
    if type(pat) is not type(t):
        return False
    if isinstance(pat, Base):
        return pat == t
    if isinstance(pat, DataTy):
        return pat.name == t.name and len(pat.args) == len(t.args) and \
            all(match_ty(a, b, sub) for a, b in zip(pat.args, t.args))
    if isinstance(pat, Fun):
        return match_ty(pat.arg, t.arg, sub) and match_ty(pat.res, t.res, sub)
    if isinstance(pat, Pair):
        return match_ty(pat.fst, t.fst, sub) and match_ty(pat.snd, t.snd, sub)
    return False


def fun_type(params, res):
    for p in reversed(params):
        res = Fun(p, res)
    return res


def mentions(t, name):
    if isinstance(t, DataTy):
        return t.name == name or any(mentions(a, name) for a in t.args)
    if isinstance(t, Fun):
        return mentions(t.arg, name) or mentions(t.res, name)
    if isinstance(t, Pair):
        return mentions(t.fst, name) or mentions(t.snd, name)
    return False


def type_size(t):
    if isinstance(t, DataTy):
        return 1 + sum(type_size(a) for a in t.args)
    if isinstance(t, Fun):
        return 1 + type_size(t.arg) + type_size(t.res)
    if isinstance(t, Pair):
        return 1 + type_size(t.fst) + type_size(t.snd)
    return 1


def has_fun(t):
    if isinstance(t, Fun):
        return True
    if isinstance(t, DataTy):
        return any(has_fun(a) for a in t.args)
    if isinstance(t, Pair):
        return has_fun(t.fst) or has_fun(t.snd)
    return False


# ---------------------------------------------------------------- declarations
class Con:
    def __init__(self, name, decl, index, fields):
        self.name, self.decl, self.index = name, decl, index
        self.fields = fields                    # [(field name or None, type over the parameters)]
        self.rec = None                         # which fields are recursive (once the declaration is done)

    def field_types(self, args):
        return [subst(t, dict(zip(self.decl.params, args))) for _n, t in self.fields]

    def recursive(self, i):
        if self.rec is None:
            me = self.decl.self_ty()
            self.rec = tuple(t == me for _n, t in self.fields)
        return self.rec[i]

    @property
    def arity(self):
        return len(self.fields)


class DataDecl:
    def __init__(self, name, params, kind):
        self.name, self.params, self.kind = name, params, kind
        self.cons = []
        self.elim = "elim" + name
        self.param_groups = True
        self.sort = True                       # `: U` written

    def self_ty(self):
        return DataTy(self.name, tuple(TVar(p) for p in self.params))

    def recursive(self):
        return any(c.recursive(i) for c in self.cons for i in range(c.arity))

    def base_cons(self):
        """The constructors whose fields do not mention the type (directly or nested)."""
        return [c for c in self.cons if not any(mentions(t, self.name) for _n, t in c.fields)]

    def defines(self):
        return {self.name, self.elim} | {c.name for c in self.cons}

    def render(self):
        if not self.params:
            head = self.name
        elif self.param_groups:
            head = f"{self.name} ({' '.join(self.params)} : U)"
        else:
            head = self.name + "".join(f" ({p} : U)" for p in self.params)
        lines = [f"data {head}{' : U' if self.sort else ''} where"]
        width = max(len(c.name) for c in self.cons)
        me = show_type(self.self_ty())
        for c in self.cons:
            parts = []
            for fname, t in c.fields:
                parts.append(f"({fname} : {show_type(t)})" if fname else show_type(t, T_APP))
            ty = " → ".join(parts + [me])
            lines.append(f"  {c.name.ljust(width)} : {ty}")
        return "\n".join(lines)


# ---------------------------------------------------------------- terms
class StrLit(Node):
    def __init__(self, value):
        self.value = value

    def render(self, shadow):
        v = self.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{v}"', L_ATOM


class TArg:
    """An implicit argument given explicitly: `{List Nat}`."""

    def __init__(self, ty):
        self.ty = ty

    def text(self, shadow=False, lvl=L_OPEN):
        return "{" + show_type(self.ty) + "}"


class TyTerm(Node):
    """A type in term position (a motive's body)."""

    def __init__(self, ty):
        self.ty = ty

    def render(self, shadow):
        s = show_type(self.ty)
        return s, (L_ATOM if " " not in s else L_APP if isinstance(self.ty, DataTy) else L_OPEN)


class Annot(Node):
    def __init__(self, node, ty):
        self.node, self.ty = node, ty

    def children(self):
        return [self.node]

    def render(self, shadow):
        inner = self.node.text(False, L_OR)
        if BINDERS.fullmatch(inner):            # `(f x : T)` would be binders (of a Π)
            inner = f"({inner})"
        return f"({inner} : {show_type(self.ty)})", L_ATOM


class LamD(Node):
    def __init__(self, binders, body):
        self.binders, self.body = binders, body     # [(name, type or None)]

    def children(self):
        return [self.body]

    def render(self, shadow):
        bs = " ".join(n if t is None else f"({n} : {show_type(t)})" for n, t in self.binders)
        return f"λ {bs}. {self.body.text()}", L_OPEN


class LetD(Node):
    def __init__(self, name, ty, value, body):
        self.name, self.ty, self.value, self.body = name, ty, value, body

    def children(self):
        return [self.value, self.body]

    def render(self, shadow):
        ann = "" if self.ty is None else f" : {show_type(self.ty)}"
        return f"let {self.name}{ann} = {self.value.text()}; {self.body.text()}", L_OPEN


def top_level_semicolon(text):
    depth, in_str, esc = 0, False, False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth == 0:
            return True
    return False


class Case(Node):
    """`case e of { p → b; … }`; layout: laid out on lines where the
    definition's text allows it (layout_text)."""

    def __init__(self, scrut, alts, layout=False):
        self.scrut, self.alts, self.layout = scrut, alts, layout   # alts: [(pattern, body)]

    def children(self):
        return [self.scrut] + [b for _p, b in self.alts]

    def render(self, shadow):
        alts = []
        for p, b in self.alts:
            body = b.text()
            if top_level_semicolon(body):
                body = f"({body})"
            alts.append(f"{show_pat(p, False)} → {body}")
        return f"case {self.scrut.text(False, L_OR)} of {{ {'; '.join(alts)} }}", L_OPEN


def layout_text(node, indent):
    """node's text, with a `case` marked layout (and those in its
    alternatives' bodies) laid out on lines indented under `indent`."""
    if isinstance(node, Case) and node.layout:
        out = f"case {node.scrut.text(False, L_OR)} of"
        for p, b in node.alts:
            out += "\n" + " " * (indent + 2) + f"{show_pat(p, False)} → {layout_text(b, indent + 2)}"
        return out
    if isinstance(node, LamD) and isinstance(node.body, Case) and node.body.layout:
        bs = " ".join(n if t is None else f"({n} : {show_type(t)})" for n, t in node.binders)
        return f"λ {bs}. {layout_text(node.body, indent)}"
    return node.text()


# ---------------------------------------------------------------- patterns
class PVar:
    def __init__(self, name):
        self.name = name


class PWild:
    pass


WILD = PWild()


class PLit:
    def __init__(self, ty, value, bare=False):
        self.ty, self.value = ty, value
        self.bare = bare                        # a negative literal as an argument without parentheses


class PCon:
    def __init__(self, con, args):
        self.con, self.args = con, args


def show_pat(p, atom):
    if isinstance(p, PVar):
        return p.name
    if isinstance(p, PWild):
        return "_"
    if isinstance(p, PLit):
        if p.ty == BOOL:
            return "true" if p.value else "false"
        if p.ty == STRING:
            return StrLit(p.value).text()
        if p.value < 0 and atom and not p.bare:
            return f"({p.value})"
        return str(p.value)
    if not p.args:
        return p.con.name
    s = p.con.name + "".join(" " + show_pat(a, True) for a in p.args)
    return f"({s})" if atom else s


def pat_vars(p, acc=None):
    acc = [] if acc is None else acc
    if isinstance(p, PVar):
        acc.append(p.name)
    elif isinstance(p, PCon):
        for a in p.args:
            pat_vars(a, acc)
    return acc


def is_wild(p):
    return isinstance(p, (PWild, PVar))


# ---- usefulness (Maranget): which clauses are reachable, which matrices exhaustive
def head_key(p):
    return ("c", p.con.name) if isinstance(p, PCon) else ("l", p.value)


def signature(ty, decls):
    """[(key, sub-column types, constructor or None)] of a finite type, or None."""
    if ty == BOOL:
        return [(("l", True), [], None), (("l", False), [], None)]
    if isinstance(ty, DataTy):
        d = decls[ty.name]
        return [(("c", c.name), c.field_types(ty.args), c) for c in d.cons]
    return None


def sub_types(p, ty, decls):
    if isinstance(p, PCon):
        return p.con.field_types(ty.args)
    return []


def specialize(row, key, arity):
    p = row[0]
    if is_wild(p):
        return [WILD] * arity + row[1:]
    if head_key(p) == key:
        return (list(p.args) if isinstance(p, PCon) else []) + row[1:]
    return None


def useful(rows, vec, tys, decls):
    if not vec:
        return not rows
    p, t = vec[0], tys[0]
    if not is_wild(p):
        key, subs = head_key(p), sub_types(p, t, decls)
        srows = [r for r in (specialize(r, key, len(subs)) for r in rows) if r is not None]
        return useful(srows, specialize(vec, key, len(subs)), subs + tys[1:], decls)
    heads = {head_key(r[0]) for r in rows if not is_wild(r[0])}
    sig = signature(t, decls)
    if sig is not None and heads >= {k for k, _s, _c in sig}:
        for key, subs, _c in sig:
            srows = [r for r in (specialize(r, key, len(subs)) for r in rows) if r is not None]
            if useful(srows, specialize(vec, key, len(subs)), subs + tys[1:], decls):
                return True
        return False
    return useful([r[1:] for r in rows if is_wild(r[0])], vec[1:], tys[1:], decls)


def reachable_rows(rows, tys, decls):
    kept = []
    for r in rows:
        if useful(kept, r, tys, decls):
            kept.append(r)
    return kept


def exhaustive(rows, tys, decls):
    return not useful(rows, [WILD] * len(tys), tys, decls)


# ---------------------------------------------------------------- the model
class DV:
    """A data value: a constructor and its explicit fields."""
    __slots__ = ("con", "fields")

    def __init__(self, con, fields):
        self.con, self.fields = con, fields


def match(p, v, binds):
    if isinstance(p, PVar):
        binds[p.name] = v
        return True
    if isinstance(p, PWild):
        return True
    if isinstance(p, PLit):
        return type(v) is type(p.value) and v == p.value
    if v.con is not p.con:
        return False
    return all(match(a, f, binds) for a, f in zip(p.args, v.fields))


def curry(fn, arity, args=()):
    if arity == 0:
        return fn(())
    return lambda x: fn(args + (x,)) if len(args) + 1 == arity else curry(fn, arity, args + (x,))


class Evaluator:
    """The programs' globals and a strict evaluator of terms under a budget."""

    def __init__(self):
        self.G = {}
        self.steps = 0
        self.limit = 0

    def tick(self):
        self.steps += 1
        if self.steps > self.limit:
            raise OutOfBudget()

    def ap(self, f, x):
        self.tick()
        return f(x)

    def run(self, node, limit):
        self.steps, self.limit = 0, limit
        return self.comp(node, frozenset())({})

    def call(self, name, args, limit):
        self.steps, self.limit = 0, limit
        f = self.G[name]
        for a in args:
            f = self.ap(f, a)
        return f

    # ---- terms compiled to closures of an environment (a dict of the locals)
    def comp(self, n, locs):
        G, ap = self.G, self.ap
        if isinstance(n, Var):
            name = n.name
            if name in locs:
                return lambda e: e[name]
            return lambda e: G[name]
        if isinstance(n, Lit):
            v = bool(n.value) if n.ty == BOOL else n.value
            return lambda e: v
        if isinstance(n, StrLit):
            v = n.value
            return lambda e: v
        if isinstance(n, TyTerm):
            return lambda e: None
        if isinstance(n, Annot):
            return self.comp(n.node, locs)
        if isinstance(n, App):
            f = self.comp(n.fn, locs)
            args = [self.comp(a, locs) for a in n.args if not isinstance(a, TArg)]

            def app(e):
                v = f(e)
                for a in args:
                    v = ap(v, a(e))
                return v
            return app
        if isinstance(n, LamD):
            names = [x for x, _t in n.binders]
            body = self.comp(n.body, locs | set(names))

            def lam(e, i=0):
                def f(x):
                    e2 = dict(e)
                    if names[i] != "_":
                        e2[names[i]] = x
                    return body(e2) if i + 1 == len(names) else lam(e2, i + 1)
                return f
            return lambda e: lam(e)
        if isinstance(n, LetD):
            val = self.comp(n.value, locs)
            body = self.comp(n.body, locs | {n.name})
            name = n.name

            def let(e):
                e2 = dict(e)
                e2[name] = val(e)
                return body(e2)
            return let
        if isinstance(n, If):
            c, a, b = self.comp(n.cond, locs), self.comp(n.then, locs), self.comp(n.els, locs)
            return lambda e: a(e) if c(e) else b(e)
        if isinstance(n, BinOp):
            a, b = self.comp(n.left, locs), self.comp(n.right, locs)
            op, ty = n.op, n.ty.name
            return lambda e: binop(op, ty, a(e), b(e))
        if isinstance(n, Tuple):
            a, b = self.comp(n.fst, locs), self.comp(n.snd, locs)
            return lambda e: (a(e), b(e))
        if isinstance(n, Proj):
            p, k = self.comp(n.pair, locs), n.k - 1
            return lambda e: p(e)[k]
        if isinstance(n, Case):
            s = self.comp(n.scrut, locs)
            alts = [(p, self.comp(b, locs | set(pat_vars(p)))) for p, b in n.alts]
            tick = self.tick

            def case(e):
                v = s(e)
                tick()
                for p, b in alts:
                    binds = {}
                    if match(p, v, binds):
                        e2 = dict(e)
                        e2.update(binds)
                        return b(e2)
                raise Reject("no alternative matches")
            return case
        raise TypeError(n)

    # ---- globals
    def define_data(self, d):
        for c in d.cons:
            self.G[c.name] = curry(lambda fs, c=c: DV(c, fs), c.arity)
        tick = self.tick

        def elim(args):
            ms = args[1:-1]

            def go(v):
                tick()
                f = ms[v.con.index]
                for x in v.fields:
                    f = self.ap(f, x)
                for i, x in enumerate(v.fields):
                    if v.con.recursive(i):
                        f = self.ap(f, go(x))
                return f
            return go(args[-1])
        self.G[d.elim] = curry(elim, len(d.cons) + 2)

    def define_clauses(self, name, arity, clauses):
        """clauses: [(patterns of the explicit arguments, body)]"""
        rows = [(pats, self.comp(body, frozenset(v for p in pats for v in pat_vars(p))))
                for pats, body in clauses]
        tick = self.tick

        def call(args):
            tick()
            for pats, body in rows:
                binds = {}
                if all(match(p, a, binds) for p, a in zip(pats, args)):
                    return body(binds)
            raise Reject("no clause matches")
        self.G[name] = curry(call, arity)

    def define_value(self, name, node, limit=EVAL_BUDGET):
        self.G[name] = self.run(node, limit)


# ---- printing, as thorin prints
def quote(s):
    return StrLit(s).text()


def show_eval(v, arg=False):
    """`.eval`'s printer: no implicit arguments, a negative number bare."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, tuple):
        return f"({show_eval(v[0])}, {show_eval(v[1])})"
    if isinstance(v, DV):
        if not v.fields:
            return v.con.name
        s = v.con.name + "".join(" " + show_eval(f, True) for f in v.fields)
        return f"({s})" if arg else s
    if callable(v):
        return "<function>"
    raise TypeError(v)


def show_nf(v, ty, arg=False):
    """`.nf`'s printer: the parameters as implicit arguments, `(-1)` as an argument."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"({v})" if v < 0 and arg else str(v)
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, tuple):
        return f"({show_nf(v[0], ty.fst)}, {show_nf(v[1], ty.snd)})"
    if isinstance(v, DV):
        parts = [v.con.name] + ["{" + show_type(a) + "}" for a in ty.args]
        parts += [show_nf(f, ft, True) for f, ft in zip(v.fields, v.con.field_types(ty.args))]
        s = " ".join(parts)
        return f"({s})" if arg and len(parts) > 1 else s
    raise TypeError(v)          # a function: its normal form is not modelled


def value_size(v):
    if isinstance(v, DV):
        return 1 + sum(value_size(f) for f in v.fields)
    if isinstance(v, tuple):
        return value_size(v[0]) + value_size(v[1])
    return 0


# ---------------------------------------------------------------- entries and programs
class Entry:
    def __init__(self, text, defines):
        self.text, self.defines = text, set(defines)

    def render(self):
        return self.text


class Directive:
    def __init__(self, word, node, expected):
        self.word, self.node, self.expected = word, node, expected

    def render(self):
        return f"{self.word} {self.node.text()}"


class Program:
    def __init__(self, pid, entries, evals):
        self.pid, self.entries, self.evals = pid, entries, evals

    def needed(self, eval_indices):
        defined = {}
        for e in self.entries:
            for n in e.defines:
                defined[n] = e
        todo = set()
        for i in eval_indices:
            todo |= set(IDENT.findall(self.evals[i].render())) & defined.keys()
        seen = set()
        while todo:
            n = todo.pop()
            e = defined[n]
            if id(e) in seen:
                continue
            seen.add(id(e))
            todo |= (set(IDENT.findall(e.render())) & defined.keys()) - e.defines
        return [e for e in self.entries if id(e) in seen]

    def text(self, eval_indices=None):
        idxs = range(len(self.evals)) if eval_indices is None else eval_indices
        entries = self.entries if eval_indices is None else self.needed(idxs)
        lines = [Line(f"-- program {self.pid}")] + entries + [self.evals[i] for i in idxs]
        return "".join(e.render() + "\n" for e in lines)

    def expected(self, eval_indices=None):
        idxs = range(len(self.evals)) if eval_indices is None else eval_indices
        return "".join(self.evals[i].expected + "\n" for i in idxs)


# ---------------------------------------------------------------- the generator
class Fn:
    """A global function (or value: no params) the terms may call."""

    def __init__(self, name, params, res, tparams=(), counters=None, weight=1.0):
        self.name, self.params, self.res = name, list(params), res
        self.tparams = list(tparams)            # type variables (implicit, of type U)
        self.counters = counters or {}          # param index -> bound (a builder's counter)
        self.weight = weight


class Rec:
    """The recursion allowed in the clauses of a function being defined:
    calls of `name` whose first argument is a variable strictly smaller than
    its first parameter, each variable once, no two related."""

    def __init__(self, fn):
        self.fn = fn
        self.calls_left = 2
        self.used = []                          # [(variable, its ancestors)]


class ProgramGen:
    def __init__(self, rng, pid):
        self.r = rng
        self.pid = pid
        self.sfx = f"_p{pid}"
        self.decls = {}
        self.order = []
        self.types = []                         # concrete data types in use
        self.fns = []
        self.entries = []
        self.ev = Evaluator()
        self.scope = []                         # [(name, type, ancestors or None)]: later shadow earlier
        self.rec = None
        self.nvar = 0
        self.used_names = set()
        self.builders = {}                      # type -> [Fn], builders of big values
        self.let_vars = set()                   # the let-bound variables
        self.generics = {}                      # data type -> {"size"/"map"/"fold"/"reverse": name}
        self.typed_literals = not NUMBER_CASE_ON_UNSOLVED_TYPE    # Nat literals in infer mode annotated

    # ---- small helpers
    def chance(self, p):
        return self.r.random() < p

    def pick(self, weighted):
        return self.r.pick(weighted)

    def fresh(self, base="x"):
        self.nvar += 1
        return f"{base}{self.nvar}"

    def unique(self, base):
        name = base + self.sfx
        k = 2
        while name in self.used_names:
            name = f"{base}{k}{self.sfx}"
            k += 1
        self.used_names.add(name)
        return name

    def var_base(self, ty):
        if isinstance(ty, DataTy):
            return ty.name[0].lower()
        return {"Nat": "n", "Bool": "b", "I64": "i", "String": "s"}.get(getattr(ty, "name", ""), "v")

    # ---- data declarations
    def gen_decls(self):
        n = self.r.randint(2, 4)
        kinds = [self.pick([(2, "enum"), (2, "record"), (1.5, "option"), (3, "list"), (2.5, "tree"),
                            (2.5, "expr"), (1, "rose")]) for _ in range(n)]
        if not any(k in ("list", "tree", "expr") for k in kinds):
            kinds[self.r.randrange(n)] = self.r.choice(["list", "tree", "expr"])
        for k in kinds:
            d = self.gen_decl(k)
            if d is not None:
                self.decls[d.name] = d
                self.order.append(d)
                self.ev.define_data(d)
                self.entries.append(Entry(d.render(), d.defines()))

    def field_type(self, params, self_ty, allow_self, allow_fun=True):
        opts = [(3, lambda: NAT), (2, lambda: BOOL), (1, lambda: I64), (0.6, lambda: STRING)]
        if params:
            opts.append((3, lambda: TVar(self.r.choice(params))))
        if self.order:
            opts.append((2.5, lambda: self.inst_type(self.r.choice(self.order), params)))
        if allow_self:
            opts.append((3, lambda: self_ty))
        if allow_fun:
            opts.append((0.3, lambda: Fun(NAT, NAT)))
        opts.append((0.3, lambda: Pair(NAT, BOOL)))
        return self.r.run(opts)

    def inst_type(self, d, params=(), depth=0):
        """d applied to arguments: base types, the enclosing parameters, other data types."""
        args = []
        for _ in d.params:
            opts = [(3, NAT), (1.5, BOOL), (1, I64), (0.4, STRING)]
            if params:
                opts.append((3, TVar(self.r.choice(list(params)))))
            if depth < 1:
                others = [o for o in self.order if o is not d]
                if others:
                    opts.append((2, "data"))
            a = self.pick(opts)
            if a == "data":
                a = self.inst_type(self.r.choice([o for o in self.order if o is not d]), params, depth + 1)
            args.append(a)
        return DataTy(d.name, tuple(args))

    def field_name(self, fields):
        if not self.chance(0.2):
            return None
        pool = ["n", "k", "val", "item", "flag", "key"]
        if ELIM_FIELD_NAMES_LIKE_GENERATED:
            pool += ["x1", "x2", "x3", "y1", "P'", "left", "right"]
        taken = {f for f, _t in fields}
        free = [p for p in pool if p not in taken]
        return self.r.choice(free) if free else None

    def gen_decl(self, kind):
        names = {"enum": ["Color", "Dir", "Suit", "Mode"], "record": ["Point", "Info", "Cell", "Entry"],
                 "option": ["Opt", "Maybe"], "list": ["List", "Seq", "Stack"], "tree": ["Tree", "Heap"],
                 "expr": ["Expr", "Term", "Cmd", "Shape"], "rose": ["Rose", "Forest"]}[kind]
        name = self.unique(self.r.choice(names))
        nparams = {"enum": 0, "record": self.pick([(2, 0), (1, 1), (1, 2)]), "option": 1, "list": 1,
                   "tree": self.pick([(1, 0), (1, 1)]), "expr": self.pick([(3, 0), (1, 1)]), "rose": 0}[kind]
        params = ["A", "B"][:nparams]
        d = DataDecl(name, params, kind)
        d.param_groups = self.chance(0.6)
        d.sort = self.chance(0.8)
        me = d.self_ty()

        def con(base, fields):
            c = Con(self.unique(base), d, len(d.cons), fields)
            d.cons.append(c)
            return c

        pA = TVar("A") if params else None
        if kind == "enum":
            pool = self.r.choice([["red", "green", "blue", "cyan", "gray"], ["north", "east", "south", "west"],
                                  ["spades", "hearts", "clubs", "diamonds"], ["on", "off", "idle", "busy", "done"],
                                  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                   "dec"]])
            for b in pool[:self.r.randint(2, len(pool))]:
                con(b, [])
        elif kind == "record":
            fields = []
            for _ in range(self.r.randint(1, 4) if self.chance(0.8) else self.r.randint(5, 8)):
                fields.append((self.field_name(fields), self.field_type(params, me, False)))
            for p in params:                        # every parameter used
                if not any(t == TVar(p) for _f, t in fields):
                    fields.append((self.field_name(fields), TVar(p)))
            con("mk" + name.split("_")[0], fields)
        elif kind == "option":
            con(self.r.choice(["none", "nothing"]), [])
            con(self.r.choice(["some", "just"]), [(self.field_name([]), pA)])
        elif kind == "list":
            con(self.r.choice(["nil", "empty"]), [])
            con(self.r.choice(["cons", "push"]), [(None, pA), (self.field_name([]), me)])
        elif kind == "tree":
            elem = pA if params else self.pick([(3, NAT), (1, BOOL), (0.5, I64)])
            if self.chance(0.3):
                con("tip", [(None, elem)])
            else:
                con("leaf", [])
            fields = [(None, me), (None, elem), (None, me)]
            if self.chance(0.5):
                fields = [(self.field_name([]), t) for _f, t in fields]
                if len({f for f, _t in fields if f}) < len([f for f, _t in fields if f]):
                    fields = [(None, t) for _f, t in fields]
            con("node", fields)
        elif kind == "expr":
            ncons = self.r.randint(2, 4)
            pool = self.r.sample(["lit", "add", "neg", "var", "ite", "pair", "mul", "skip", "seq", "ret"], ncons)
            for i, b in enumerate(pool):
                fields = []
                nf = self.r.randint(0 if i else 1, 3 if self.chance(0.9) else 5)
                for _ in range(nf):
                    recursive_ok = i > 0 and sum(t == me for _f, t in fields) < 2
                    fields.append((self.field_name(fields), self.field_type(params, me, recursive_ok)))
                con(b, fields)
            if params and not any(TVar("A") == t for c in d.cons for _f, t in c.fields):
                d.cons[0].fields.append((None, TVar("A")))
        elif kind == "rose":
            lists = [o for o in self.order if o.kind == "list"]
            if not lists:
                return None
            lst = self.r.choice(lists)
            con("rleaf", [(None, self.pick([(3, NAT), (1, BOOL)]))])
            con("rnode", [(None, NAT), (None, DataTy(lst.name, (me,)))])
        # field names unique in each constructor (or unnamed)
        for c in d.cons:
            seen = set()
            for i, (f, t) in enumerate(c.fields):
                if f in seen:
                    c.fields[i] = (None, t)
                seen.add(f)
        return d

    def gen_types(self):
        for d in self.order:
            for _ in range(1 if not d.params else self.r.randint(1, 2)):
                t = self.inst_type(d)
                if t not in self.types:
                    self.types.append(t)

    def any_type(self, depth=1, fun=True):
        """A type for a parameter or a result."""
        opts = [(4, lambda: self.r.choice(self.types)), (2.5, lambda: NAT), (1.5, lambda: BOOL),
                (0.8, lambda: I64), (0.4, lambda: STRING)]
        if depth > 0:
            opts.append((0.8, lambda: Pair(self.any_type(0, False), self.any_type(0, False))))
            if fun:
                opts.append((0.3, lambda: Fun(self.r.choice([NAT, BOOL]), self.r.choice([NAT, BOOL]))))
        return self.r.run(opts)

    # ---- scope
    def visible(self):
        seen, out = set(), []
        for name, t, anc in reversed(self.scope):
            if name not in seen:
                seen.add(name)
                out.append((name, t, anc))
        return out

    def with_vars(self, vs, thunk):
        """vs: [(name, type, ancestors or None)]"""
        n = len(self.scope)
        self.scope.extend(vs)
        try:
            return thunk()
        finally:
            del self.scope[n:]

    def vars_of(self, ty):
        return [n for n, t, _a in self.visible() if t == ty]

    # ---- terms
    def gen(self, ty, d, infer=False):
        opts = []
        if self.vars_of(ty) or self.globals_of(ty):
            opts.append((3 if d > 0 else 8, self.try_var))
        if d > 0:
            opts += [(4, self.try_call), (1.6 if d > 1 else 0.6, self.try_case), (0.5, self.try_let),
                     (0.7, self.try_if), (0.6, self.try_elim), (0.4, self.try_proj)]
            if self.rec is not None:
                opts.append((6, self.try_self_call))
        opts.append((4, self.gen_typed))
        while opts:
            f = self.pick(opts)
            e = f(ty, d, infer)
            if e is not None:
                return e
            opts = [o for o in opts if o[1] != f]
        raise Reject(f"no term of type {show_type(ty)}")

    def globals_of(self, ty):
        return [f.name for f in self.fns if not f.params and not f.tparams and f.res == ty]

    def try_var(self, ty, d, infer):
        names = self.vars_of(ty) * 2 + self.globals_of(ty)
        return Var(self.r.choice(names)) if names else None

    def gen_typed(self, ty, d, infer):
        if ty == NAT:
            return self.gen_nat(d, infer)
        if ty == I64:
            return self.gen_i64(d, infer)
        if ty == BOOL:
            return self.gen_bool(d, infer)
        if ty == STRING:
            return StrLit(self.r.choice(STRINGS))
        if isinstance(ty, DataTy):
            return self.gen_con(ty, d, infer)
        if isinstance(ty, Pair):
            return Tuple(self.gen(ty.fst, d - 1, infer), self.gen(ty.snd, d - 1, infer))
        if isinstance(ty, Fun):
            return self.gen_lam(ty, d, infer)
        raise TypeError(ty)

    def gen_nat(self, d, infer):
        if d <= 0 or self.chance(0.2):
            lit = Lit(NAT, self.pick([(5, self.r.randint(0, 9)), (1, self.r.randint(10, 100)),
                                      (0.15, self.r.choice(BIG_NATS))]))
            return Annot(lit, NAT) if infer and self.typed_literals else lit
        op = self.pick([(4, "+"), (2, "-"), (2, "*"), (1, "/"), (1, "%")])
        left = self.gen(NAT, d - 1, True)
        if op in ("/", "%"):
            right = Lit(NAT, self.r.randint(1, 7)) if self.chance(0.6) else \
                BinOp("+", NAT, BinOp("%", NAT, self.gen(NAT, d - 1, True), Lit(NAT, 5)), Lit(NAT, 1))
        elif op == "*":
            right = Lit(NAT, self.r.randint(0, 5))
        else:
            right = self.gen(NAT, d - 1)
        return BinOp(op, NAT, left, right)

    def i64_lit(self, infer):
        v = self.pick([(4, self.r.randint(-9, 9)), (1, self.r.randint(-1000, 1000)),
                       (0.15, self.r.choice(EDGE_I64S))])
        if infer:
            return Annot(Lit(I64, v, signed=True), I64)
        return Lit(I64, v, signed=self.chance(0.6))

    def gen_i64(self, d, infer):
        if d <= 0 or self.chance(0.2):
            return self.i64_lit(infer)
        op = self.pick([(4, "+"), (3, "-"), (2, "*"), (1, "/"), (1, "%")])
        left = self.gen(I64, d - 1, True)
        if op in ("/", "%"):
            right = Lit(I64, self.r.choice([2, 3, 5, 7, -3]), signed=True)
        elif op == "*":
            right = Lit(I64, self.r.randint(-4, 4), signed=True)
        else:
            right = self.gen(I64, d - 1)
        return BinOp(op, I64, left, right)

    def gen_bool(self, d, infer):
        if d <= 0 or self.chance(0.15):
            return Lit(BOOL, self.chance(0.5))
        k = self.pick([(4, "cmp"), (1.5, "logic")])
        if k == "cmp":
            t = self.pick([(3, NAT), (1, I64)])
            op = self.r.choice(["==", "!=", "<", "<=", ">", ">="])
            return BinOp(op, t, self.gen(t, d - 1, True), self.gen(t, d - 1))
        return BinOp(self.r.choice(["&&", "||"]), BOOL, self.gen(BOOL, d - 1, True), self.gen(BOOL, d - 1))

    def gen_lam(self, ty, d, infer):
        x = self.fresh("y")
        annotate = infer or self.chance(0.3)
        body = self.with_vars([(x, ty.arg, None)], lambda: self.gen(ty.res, d - 1, infer))
        return LamD([(x, ty.arg if annotate else None)], body)

    def gen_con(self, ty, d, infer):
        decl = self.decls[ty.name]
        cons = decl.cons if d > 0 else (decl.base_cons() or decl.cons)
        weights = [(3 if c in decl.base_cons() else 2, c) for c in cons]
        c = self.pick(weights)
        return self.apply_poly(c.name, decl.params, [t for _f, t in c.fields], decl.self_ty(), ty, d, infer,
                               counters={})

    def apply_poly(self, name, tparams, params, res, want, d, infer, counters, k=None):
        """name (of type {tparams} → params → res) applied to k arguments so that
        the result has type `want`: implicit arguments given or inferred."""
        k = len(params) if k is None else k
        sub = {}
        if not match_ty(fun_type(params[k:], res), want, sub):
            return None
        for tv in tparams:
            if tv not in sub:
                sub[tv] = self.any_type(0, False)
        determined = set()
        for p in params[:k]:
            tvars(p, determined)
        must = bool(set(tparams) - determined) and infer
        explicit = bool(tparams) and (must or self.chance(0.2))
        args = [TArg(sub[tv]) for tv in tparams] if explicit else []
        known = set(tparams) if explicit else set()
        for i, p in enumerate(params[:k]):
            pt = subst(p, sub)
            if i in counters:
                args.append(self.gen_counter(counters[i], d - 1))
                continue
            free = tvars(p) - known
            args.append(self.gen(pt, d - 1, infer=bool(free)))
            known |= tvars(p)
        node = App(Var(name), args) if args else Var(name)
        if tparams and not explicit and infer and not (set(tparams) <= known):
            node = Annot(node, want)
        return node

    def gen_counter(self, bound, d):
        if d > 0 and self.chance(0.3):
            return BinOp("%", NAT, self.gen(NAT, d - 1, True), Lit(NAT, min(bound, 12) + 1))
        return Lit(NAT, self.r.randint(0, min(bound, 12)))

    def try_call(self, ty, d, infer):
        cands = []
        for f in self.fns:
            if not f.params or (self.rec is not None and f is self.rec.fn):
                continue
            for k in range(1 if not f.tparams else len(f.params), len(f.params) + 1):
                sub = {}
                if match_ty(fun_type(f.params[k:], f.res), ty, sub) and \
                        all(type_size(t) <= 4 for t in sub.values()):
                    cands.append((f.weight * (2 if k == len(f.params) else 0.3), (f, k)))
        if isinstance(ty, Fun):
            for decl in self.order:
                for c in decl.cons:
                    fts = [t for _f, t in c.fields]
                    for k in range(0, len(fts)):
                        sub = {}
                        if match_ty(fun_type(fts[k:], decl.self_ty()), ty, sub) and \
                                all(type_size(t) <= 4 for t in sub.values()):
                            cands.append((1.5, (Fn(c.name, fts, decl.self_ty(), tparams=decl.params), k)))
        for n, t, _a in self.visible():
            ps = []
            while isinstance(t, Fun):
                ps.append(t.arg)
                t = t.res
                if t == ty:
                    cands.append((2, (n, ps[:])))
        if not cands:
            return None
        f, k = self.pick(cands)
        if isinstance(f, str):
            return App(Var(f), [self.gen(p, d - 1) for p in k])
        return self.apply_poly(f.name, f.tparams, f.params, f.res, ty, d, infer, f.counters, k)

    def try_self_call(self, ty, d, infer):
        rec = self.rec
        f = rec.fn
        if f.res != ty or rec.calls_left <= 0:
            return None
        cands = []
        for n, t, anc in self.visible():
            if t != f.params[0] or anc is None or not anc:
                continue
            if any(n == u or n in ua or u in anc for u, ua in rec.used):
                continue
            cands.append((n, anc))
        if not cands:
            return None
        n, anc = self.r.choice(cands)
        rec.calls_left -= 1
        rec.used.append((n, anc))
        args = [Var(n)] + [self.gen(p, d - 1) for p in f.params[1:]]
        return App(Var(f.name), args)

    def try_let(self, ty, d, infer):
        x = self.fresh(self.var_base(ty))
        aty = self.any_type()
        typed = self.chance(0.5)
        value = self.gen(aty, d - 1, infer=not typed)
        self.let_vars.add(x)
        if not isinstance(aty, (Pair, Fun)) and (CASE_ON_LET_BOUND or not isinstance(aty, DataTy)) and \
                self.chance(0.3):                   # `let x = e; case x of …`
            body = self.with_vars([(x, aty, None)], lambda: self.try_case(ty, d - 1, infer, aty, Var(x)))
        else:
            body = self.with_vars([(x, aty, None)], lambda: self.gen(ty, d - 1, infer))
        return LetD(x, aty if typed else None, value, body)

    def try_if(self, ty, d, infer):
        return If(None, self.gen(BOOL, d - 1), self.gen(ty, d - 1, infer), self.gen(ty, d - 1, infer))

    def try_proj(self, ty, d, infer):
        pairs = [(n, t) for n, t, _a in self.visible() if isinstance(t, Pair) and ty in (t.fst, t.snd)]
        if pairs and self.chance(0.7):
            n, t = self.r.choice(pairs)
            return Proj(Var(n), 1 if t.fst == ty and (t.snd != ty or self.chance(0.5)) else 2)
        other = self.any_type(0, False)
        first = self.chance(0.5)
        pty = Pair(ty, other) if first else Pair(other, ty)
        p = self.gen(pty, d - 1, True)
        if isinstance(p, Tuple):
            p = Annot(p, pty)
        return Proj(p, 1 if first else 2)

    def try_elim(self, ty, d, infer):
        """elimT (λ _. ty) methods t"""
        if has_fun(ty):
            return None
        dt = self.r.choice(self.types)
        decl = self.decls[dt.name]
        target = self.gen(dt, d - 1, infer=True)
        return App(Var(decl.elim), self.elim_args(decl, dt, ty, d, infer=infer) + [target])

    def elim_args(self, decl, dt, res, d, infer):
        explicit = decl.params and (infer or self.chance(0.3))
        args = [TArg(a) for a in dt.args] if explicit else []
        args.append(LamD([("_", None)], TyTerm(res)))
        for c in decl.cons:
            fts = c.field_types(dt.args)
            if not fts:
                args.append(self.gen(res, d - 1, infer=infer and not explicit))
                continue
            names = [self.fresh(self.var_base(t)) for t in fts]
            ihs = [self.fresh("ih") for i in range(c.arity) if c.recursive(i)]
            vs = [(n, t, None) for n, t in zip(names, fts)] + [(n, res, None) for n in ihs]
            body = self.with_vars(vs, lambda: self.gen(res, d - 1))
            used = set(IDENT.findall(body.text()))
            # (with the parameters inferred from the target, the last
            # argument, a field's type is not known in its method's body)
            binders = []
            for k, (n, _t, _a) in enumerate(vs):
                annotate = k < len(fts) and n in used and not explicit and tvars(c.fields[k][1])
                binders.append((n if n in used else "_", fts[k] if annotate else None))
            args.append(LamD(binders, body))
        return args

    # ---- case
    def scrutinee_type(self):
        return self.pick([(6, lambda: self.r.choice(self.types)), (1, lambda: BOOL), (1, lambda: NAT),
                          (0.5, lambda: I64), (0.3, lambda: STRING)])()

    def try_case(self, ty, d, infer, sty=None, scrut=None, layout=False):
        rec_vars = [(n, t, a) for n, t, a in self.visible() if isinstance(t, DataTy) and a is not None]
        if scrut is None:
            if self.rec is not None and rec_vars and self.chance(0.5):
                n, sty, _a = self.r.choice(rec_vars)
                scrut = Var(n)
            else:
                sty = self.scrutinee_type()
                vs = self.vars_of(sty)
                if not CASE_ON_LET_BOUND and isinstance(sty, DataTy):
                    vs = [v for v in vs if v not in self.let_vars]
                if vs and self.chance(0.6):
                    scrut = Var(self.r.choice(vs))
                elif self.chance(0.3):              # a closed term
                    saved = self.scope
                    self.scope = []
                    try:
                        scrut = self.gen(sty, d - 1, True)
                    finally:
                        self.scope = saved
                else:
                    scrut = self.gen(sty, d - 1, True)
                if isinstance(scrut, (Tuple, LamD)):
                    scrut = Annot(scrut, sty)
        anc = None
        if isinstance(scrut, Var):
            anc = next((a for n, t, a in self.visible() if n == scrut.name), None)
        rows = self.gen_rows([sty], 2 if d > 1 else 1, 6)
        if not NUMBER_CASE_ON_UNSOLVED_TYPE and not isinstance(scrut, (Var, Annot)) and \
                any(has_number(p) for row in rows for p in row):
            scrut = Annot(scrut, sty)
        alts = []
        for row in rows:
            pat = self.name_pattern(row[0], sty, anc, scrut.name if anc is not None else None, depth=0)
            pat = self.dedupe(pat, set())
            vs = self.pattern_scope(pat, sty, anc, scrut.name if anc is not None else None)
            body = self.with_vars(vs, lambda: self.gen(ty, d - 1, infer))
            alts.append((pat, body))
        return Case(scrut, alts, layout)

    # ---- patterns
    def lit_value(self, ty):
        if ty == NAT:
            return self.pick([(4, self.r.randint(0, 3)), (1, self.r.randint(4, 20)), (0.3, self.r.choice(BIG_NATS))])
        if ty == I64:
            return self.pick([(5, self.r.randint(-3, 3)), (0.4, self.r.choice(EDGE_I64S))])
        return self.r.choice(STRINGS)

    def random_pattern(self, ty, depth):
        if depth <= 0 or self.chance(0.35):
            return WILD
        if ty == BOOL:
            return PLit(BOOL, self.chance(0.5))
        if ty in (NAT, I64, STRING):
            return PLit(ty, self.lit_value(ty))
        if isinstance(ty, DataTy):
            c = self.r.choice(self.decls[ty.name].cons)
            return PCon(c, [self.random_pattern(t, depth - 1) for t in c.field_types(ty.args)])
        return WILD

    def split_once(self, rows, tys, max_depth):
        """Replaces a wildcard of one row by the constructors (or literals) at its place."""
        spots = []
        for ri, row in enumerate(rows):
            for ci, (p, t) in enumerate(zip(row, tys)):
                for path, st, depth in wild_spots(p, t, self.decls):
                    if depth < max_depth and (st == BOOL or st in (NAT, I64, STRING) or isinstance(st, DataTy)):
                        spots.append((ri, ci, path, st))
        if not spots:
            return rows
        ri, ci, path, st = self.r.choice(spots)
        if isinstance(st, DataTy):
            news = [PCon(c, [WILD] * c.arity) for c in self.decls[st.name].cons]
            if self.chance(0.3):
                self.r.shuffle(news)
        elif st == BOOL:
            news = [PLit(BOOL, True), PLit(BOOL, False)]
            if self.chance(0.5):
                news.reverse()
        else:
            vals = []
            for _ in range(self.r.randint(1, 3) if self.chance(0.85) else self.r.randint(6, 14)):
                v = self.lit_value(st)
                if v not in vals:
                    vals.append(v)
            news = [PLit(st, v) for v in vals] + [WILD]
        row = rows[ri]
        out = [row[:ci] + [replace_at(row[ci], path, q)] + row[ci + 1:] for q in news]
        return rows[:ri] + out + rows[ri + 1:]

    def gen_rows(self, tys, max_depth, max_rows):
        """A matrix of patterns: every clause reachable, all together exhaustive."""
        style = self.pick([(5, "split"), (1.5, "random")])
        if style == "split":
            rows = [[WILD] * len(tys)]
            for _ in range(self.r.randint(1, 4)):
                new = self.split_once(rows, tys, max_depth)
                if len(new) > max(max_rows, len(rows) + 1) and len(rows) > 1:
                    break
                rows = new
            # generalize a sub-pattern now and then (later clauses may become unreachable)
            if len(rows) > 1 and self.chance(0.3):
                ri = self.r.randrange(len(rows) - 1)
                ci = self.r.randrange(len(tys))
                spots = list(con_spots(rows[ri][ci]))
                if spots:
                    row = list(rows[ri])
                    row[ci] = replace_at(row[ci], self.r.choice(spots), WILD)
                    rows[ri] = row
            if self.chance(0.3):
                extra = [self.random_pattern(t, max_depth) for t in tys]
                rows.insert(self.r.randrange(len(rows) + 1), extra)
        else:
            rows = [[self.random_pattern(t, max_depth) for t in tys] for _ in range(self.r.randint(1, max_rows - 1))]
        rows = reachable_rows(rows, tys, self.decls)
        if not exhaustive(rows, tys, self.decls):
            rows.append([WILD] * len(tys))
        return rows

    def name_pattern(self, p, ty, anc, root, depth):
        """Wildcards to variables (or `_`)."""
        if is_wild(p):
            if depth == 0 and self.chance(0.3):
                return WILD
            if self.chance(0.2 if depth else 0.1):
                return WILD
            # sometimes reuse a name in scope (shadowing)
            if self.rec is None and self.chance(0.12):
                names = [n for n, _t, _a in self.visible() if n != root]
                if names:
                    return PVar(self.r.choice(names))
            return PVar(self.fresh(self.var_base(ty)))
        if isinstance(p, PCon):
            fts = p.con.field_types(ty.args)
            return PCon(p.con, [self.name_pattern(a, t, anc, root, depth + 1) for a, t in zip(p.args, fts)])
        if isinstance(p, PLit) and p.ty == I64 and p.value < 0:
            return PLit(p.ty, p.value, self.chance(0.4))
        return p

    def pattern_scope(self, p, ty, anc, root, depth=0, acc=None, clause=False):
        """The variables a pattern binds: (name, type, ancestors), where
        ancestors (for a strict part of a scrutinee that may be recursed on) is
        the chain of variables it comes from."""
        acc = [] if acc is None else acc
        if isinstance(p, PVar):
            a = None
            if anc is not None:
                a = list(anc) + [root] if depth > 0 else (list(anc) if clause else None)
            acc.append((p.name, ty, a))
        elif isinstance(p, PCon):
            for q, t in zip(p.args, p.con.field_types(ty.args)):
                self.pattern_scope(q, t, anc, root, depth + 1, acc, clause)
        return acc

    # ---- definitions
    def add_fn(self, fn, entry):
        self.fns.append(fn)
        self.entries.append(entry)

    def clause_text(self, name, tparams, params, res, clauses, implicit_pats=None):
        groups = f"{{{' '.join(tparams)} : U}} → " if tparams else ""
        lines = [f"{name} : {groups}{show_type(fun_type(params, res))}"]
        for i, (pats, body) in enumerate(clauses):
            imp = "".join(" {" + x + "}" for x in implicit_pats[i]) if implicit_pats and implicit_pats[i] else ""
            ps = "".join(" " + show_pat(p, True) for p in pats)
            rhs = layout_text(body, 0) if isinstance(body, Case) and body.layout else body.text()
            lines.append(f"{name}{imp}{ps} = {rhs}")
        return "\n".join(lines)

    def test_drive(self, fn, tries=4):
        """Does some call of fn on small arguments succeed in the model?"""
        ok = 0
        for _ in range(tries):
            try:
                args = [self.ev.run(self.gen_arg(p, fn.counters.get(i)), 20000)
                        for i, p in enumerate(fn.params)]
                self.ev.call(fn.name, args, 50000)
                ok += 1
            except Reject:
                pass
        return ok > 0

    def gen_arg(self, ty, bound, d=2, big=False):
        if bound is not None:
            return Lit(NAT, self.r.randint(bound // 2, bound) if big else self.r.randint(0, min(bound, 12)))
        saved, self.rec = self.rec, None
        try:
            return self.gen(ty, d)
        finally:
            self.rec = saved

    def def_clauses(self, i):
        """A consumer by clauses: first parameter a data type."""
        recs = [t for t in self.types if self.decls[t.name].recursive()]
        first = self.r.choice(recs) if recs and self.chance(0.75) else self.r.choice(self.types)
        params = [first] + [self.any_type() for _ in range(self.pick([(3, 0), (3, 1), (1, 2)]))]
        res = self.any_type()
        name = self.unique(f"f{i}")
        fn = Fn(name, params, res, weight=2.0)
        recursive = self.decls[first.name].recursive() and self.chance(0.8)
        for _attempt in range(10):
            rows = self.gen_rows(params, 3, 7)
            clauses = []
            self.rec = Rec(fn) if recursive else None
            try:
                for row in rows:
                    pats = []
                    vs = []
                    for ci, (p, t) in enumerate(zip(row, params)):
                        q = self.name_pattern(p, t, [] if ci == 0 else None, None, 0)
                        q = self.dedupe(q, {v for v in pat_vars_list(pats)})
                        pats.append(q)
                    for ci, (q, t) in enumerate(zip(pats, params)):
                        root = q.name if isinstance(q, PVar) else f"<arg{ci}>"
                        vs += self.pattern_scope(q, t, [] if ci == 0 else None, root, clause=True)
                    if self.rec is not None:
                        self.rec.calls_left, self.rec.used = 2, []
                    body = self.with_vars(vs, lambda: self.gen(res, self.r.randint(2, 3)))
                    clauses.append((pats, body))
            finally:
                self.rec = None
            self.ev.define_clauses(name, len(params), clauses)
            self.fns.append(fn)
            if self.test_drive(fn):
                self.fns.pop()
                for _pats, body in clauses:
                    if isinstance(body, Case) and self.chance(0.3):
                        body.layout = True
                text = self.clause_text(name, [], params, res, clauses)
                self.add_fn(fn, Entry(text, {name}))
                return fn
            self.fns.pop()
        return None

    def dedupe(self, p, taken):
        """Pattern variables of one clause are distinct (a reused name becomes fresh)."""
        if isinstance(p, PVar):
            if p.name in taken:
                p = PVar(self.fresh("z"))
            taken.add(p.name)
            return p
        if isinstance(p, PCon):
            return PCon(p.con, [self.dedupe(a, taken) for a in p.args])
        return p

    def def_case(self, i):
        """name : P… → R = λ x…. case … of …"""
        params = [self.r.choice(self.types)] + [self.any_type() for _ in range(self.pick([(3, 0), (2, 1)]))]
        res = self.any_type()
        name = self.unique(f"g{i}")
        fn = Fn(name, params, res, weight=2.0)
        recursive = self.decls[params[0].name].recursive() and self.chance(0.6)
        xs = [self.fresh(self.var_base(p)) for p in params]
        for _attempt in range(10):
            self.rec = Rec(fn) if recursive else None
            try:
                vs = [(x, p, [] if k == 0 else None) for k, (x, p) in enumerate(zip(xs, params))]
                if self.chance(0.75):
                    scrut, sty = Var(xs[0]), params[0]
                else:
                    scrut, sty = None, None
                layout = self.chance(0.5)
                body = self.with_vars(vs, lambda: self.try_case(res, self.r.randint(2, 3), False, sty, scrut,
                                                                layout))
                if layout:
                    for _p, b in body.alts:
                        if isinstance(b, Case) and self.chance(0.5):
                            b.layout = True
            finally:
                self.rec = None
            node = LamD([(x, None) for x in xs], body)
            self.fns.append(fn)
            try:
                self.ev.define_value(name, node)
                good = self.test_drive(fn)
            except Reject:
                good = False
            self.fns.pop()
            if good:
                text = f"{name} : {show_type(fun_type(params, res))} = {layout_text(node, 0)}"
                self.add_fn(fn, Entry(text, {name}))
                return fn
        return None

    def def_builder(self, i, ty):
        """build : Nat → T by clauses on the counter."""
        decl = self.decls[ty.name]
        name = self.unique(f"build{decl.name.split('_')[0]}")
        bound = self.r.randint(50, 2000) if decl.recursive() else 20
        fn = Fn(name, [NAT], ty, counters={0: bound}, weight=1.5)
        rec_cons = [c for c in decl.cons if any(c.recursive(k) for k in range(c.arity))]
        n = self.fresh("n")
        for _attempt in range(10):
            clauses = []
            try:
                # the base cases: literal patterns
                lits = sorted(self.r.sample(range(0, 4), self.r.randint(1, 2)))
                if 0 not in lits:
                    lits = [0] + lits
                for v in lits:
                    clauses.append(([PLit(NAT, v)], self.with_vars([], lambda: self.gen(ty, 2))))
                if rec_cons:
                    body = self.builder_step(name, ty, decl, rec_cons, n)
                    variant = self.pick([(3, "plain"), (1, "case"), (1, "if")])
                    if variant == "case":             # a case on the counter, literal patterns
                        m = self.r.randint(2, 4)
                        other = self.builder_step(name, ty, decl, rec_cons, n)
                        body = Case(BinOp("%", NAT, Var(n), Lit(NAT, m)),
                                    [(PLit(NAT, self.r.randrange(m)), body), (WILD, other)])
                    elif variant == "if":
                        other = self.builder_step(name, ty, decl, rec_cons, n)
                        cond = BinOp("==", NAT, BinOp("%", NAT, Var(n), Lit(NAT, 2)), Lit(NAT, 0))
                        body = If(None, cond, body, other)
                else:
                    body = self.with_vars([(n, NAT, None)], lambda: self.gen(ty, 2))
                clauses.append(([PVar(n)], body))
            except Reject:
                continue
            self.ev.define_clauses(name, 1, clauses)
            fit = self.fit_bound(name, bound, [])
            if fit is None:
                continue
            fn.counters[0] = fit
            text = self.clause_text(name, [], [NAT], ty, clauses)
            self.add_fn(fn, Entry(text, {name}))
            self.builders.setdefault(ty, []).append(fn)
            return fn
        return None

    def fit_bound(self, name, bound, more):
        """The largest counter up to `bound` whose call should cost at most a
        third of an `.eval`'s budget, from the cost of calls at 0 … 40 (a
        builder is linear in its counter); None if a call fails."""
        try:
            for k in range(0, min(bound, 40) + 1, 8):
                self.ev.call(name, [k] + more, EVAL_BUDGET)
            steps = self.ev.steps
        except Reject:
            return None
        per = steps / (min(bound, 40) // 8 * 8 + 1)
        fit = min(bound, int(EVAL_BUDGET / 3 / per))
        return fit if fit >= min(bound, 50) else None

    def builder_step(self, name, ty, decl, rec_cons, n):
        """A recursive constructor applied to `name (n - 1)` (or `name (n / k)`
        … for k recursive fields) and other fields."""
        c = self.r.choice(rec_cons)
        fts = c.field_types(ty.args)
        k = sum(1 for j in range(c.arity) if c.recursive(j))
        explicit = bool(decl.params) and self.chance(0.3)
        args, rj = [], 0
        for j, ft in enumerate(fts):
            if c.recursive(j):
                if k == 1:
                    arg = BinOp("-", NAT, Var(n), Lit(NAT, 1))
                else:
                    arg = BinOp("/", NAT, BinOp("-", NAT, Var(n), Lit(NAT, rj)) if rj else Var(n), Lit(NAT, k))
                rj += 1
                args.append(App(Var(name), [arg]))
            else:
                infer = not explicit and bool(tvars(c.fields[j][1]))
                args.append(self.with_vars([(n, NAT, None)], lambda ft=ft, infer=infer: self.gen(ft, 1, infer)))
        return App(Var(c.name), ([TArg(a) for a in ty.args] if explicit else []) + args)

    def def_acc_builder(self, ty):
        """go : Nat → L → L, tail-recursive, for a list type."""
        decl = self.decls[ty.name]
        nil, cons = decl.cons
        name = self.unique("go" + decl.name.split("_")[0])
        bound = self.r.randint(100, 2000)
        fn = Fn(name, [NAT, ty], ty, counters={0: bound}, weight=1.5)
        n, acc = self.fresh("n"), self.fresh("acc")
        elem = cons.field_types(ty.args)[0]
        for _attempt in range(10):
            try:
                x = self.with_vars([(n, NAT, None), (acc, ty, None)], lambda: self.gen(elem, 1, infer=True))
            except Reject:
                continue
            step = App(Var(name), [BinOp("-", NAT, Var(n), Lit(NAT, 1)), App(Var(cons.name), [x, Var(acc)])])
            clauses = [([PLit(NAT, 0), PVar(acc)], Var(acc)), ([PVar(n), PVar(acc)], step)]
            self.ev.define_clauses(name, 2, clauses)
            fit = self.fit_bound(name, bound, [DV(nil, ())])
            if fit is None:
                continue
            fn.counters[0] = fit
            self.add_fn(fn, Entry(self.clause_text(name, [], [NAT, ty], ty, clauses), {name}))
            return fn
        return None

    def def_value(self, i):
        ty = self.r.choice(self.types)
        name = self.unique(f"v{i}")
        for _ in range(10):
            node = self.gen(ty, 3)
            try:
                self.ev.define_value(name, node, 50000)
            except Reject:
                continue
            self.add_fn(Fn(name, [], ty, weight=1.0), Entry(f"{name} : {show_type(ty)} = {node.text()}", {name}))
            return
        return

    def def_elim(self, i):
        """name : T → R = elimT (λ _. R) m… (point-free, or applied)"""
        ty = self.r.choice(self.types)
        decl = self.decls[ty.name]
        res = self.any_type(fun=False)
        name = self.unique(f"e{i}")
        for _ in range(10):
            try:
                args = self.elim_args(decl, ty, res, 3, infer=False)
            except Reject:
                continue
            if self.chance(0.5):
                node = App(Var(decl.elim), args)
            else:
                t = self.fresh(self.var_base(ty))
                node = LamD([(t, None)], App(Var(decl.elim), args + [Var(t)]))
            fn = Fn(name, [ty], res, weight=1.5)
            try:
                self.ev.define_value(name, node)
            except Reject:
                continue
            self.fns.append(fn)
            good = self.test_drive(fn)
            self.fns.pop()
            if good:
                self.add_fn(fn, Entry(f"{name} : {show_type(Fun(ty, res))} = {node.text()}", {name}))
                return

    # ---- polymorphic functions derived from a declaration
    def def_generic(self, decl):
        made = []
        a_ty = DataTy(decl.name, tuple(TVar(p) for p in decl.params))
        tps = list(decl.params)
        # size: one per constructor (plus a weight), recursive fields added
        name = self.unique("size" + decl.name.split("_")[0])
        clauses, imps = [], []
        for c in decl.cons:
            xs = [self.fresh("t") if c.recursive(k) else "_" for k in range(c.arity)]
            body = Lit(NAT, self.r.randint(0, 2))
            for k, x in enumerate(xs):
                if x != "_":
                    body = BinOp("+", NAT, body, App(Var(name), [Var(x)]))
            clauses.append(([PCon(c, [PVar(x) if x != "_" else WILD for x in xs])], body))
            imps.append(list(tps) if tps and self.chance(0.3) else None)
        if self.chance(0.5) and len(clauses) > 1:          # a catch-all for the last constructors
            last = clauses[-1]
            if not any(isinstance(p, PVar) for p in last[0][0].args):
                clauses[-1] = ([PVar(self.fresh("t"))], last[1])
        self.ev.define_clauses(name, 1, clauses)
        self.add_fn(Fn(name, [a_ty], NAT, tparams=tps, weight=1.5),
                    Entry(self.clause_text(name, tps, [a_ty], NAT, clauses, imps), {name}))
        self.generics.setdefault(decl.name, {})["size"] = name
        made.append(name)
        if len(decl.params) == 1 and decl.kind in ("list", "tree", "option", "expr", "record"):
            self.def_map(decl)
        if decl.kind == "list":
            self.def_list_functions(decl)
        return made

    def def_map(self, decl):
        A, B = TVar("A"), TVar("B")
        me = decl.self_ty()
        for c in decl.cons:
            for _f, t in c.fields:
                if t not in (A, me) and "A" in tvars(t):
                    return
        name = self.unique("map" + decl.name.split("_")[0])
        f = self.fresh("f")
        clauses = []
        for c in decl.cons:
            xs = [self.fresh("x") for _ in range(c.arity)]
            args = []
            for (_fn, t), x in zip(c.fields, xs):
                if t == A:
                    args.append(App(Var(f), [Var(x)]))
                elif t == me:
                    args.append(App(Var(name), [Var(f), Var(x)]))
                else:
                    args.append(Var(x))
            body = App(Var(c.name), args) if args else Var(c.name)
            clauses.append(([PVar(f), PCon(c, [PVar(x) for x in xs])], body))
        self.ev.define_clauses(name, 2, clauses)
        pty = [Fun(A, B), me]
        res = DataTy(decl.name, (B,))
        self.add_fn(Fn(name, pty, res, tparams=["A", "B"], weight=1.5),
                    Entry(self.clause_text(name, ["A", "B"], pty, res, clauses), {name}))
        self.generics.setdefault(decl.name, {})["map"] = name

    def def_list_functions(self, decl):
        nil, cons = decl.cons
        A, B = TVar("A"), TVar("B")
        me = decl.self_ty()
        base = decl.name.split("_")[0]
        # foldr
        name = self.unique("fold" + base)
        f, z, x, t = self.fresh("f"), self.fresh("z"), self.fresh("x"), self.fresh("t")
        clauses = [([PVar(f), PVar(z), PCon(nil, [])], Var(z)),
                   ([PVar(f), PVar(z), PCon(cons, [PVar(x), PVar(t)])],
                    App(Var(f), [Var(x), App(Var(name), [Var(f), Var(z), Var(t)])]))]
        self.ev.define_clauses(name, 3, clauses)
        pty = [Fun(A, Fun(B, B)), B, me]
        self.add_fn(Fn(name, pty, B, tparams=["A", "B"], weight=1.5),
                    Entry(self.clause_text(name, ["A", "B"], pty, B, clauses), {name}))
        self.generics.setdefault(decl.name, {})["fold"] = name
        # append
        name = self.unique("append" + base)
        ys = self.fresh("ys")
        clauses = [([PCon(nil, []), PVar(ys)], Var(ys)),
                   ([PCon(cons, [PVar(x), PVar(t)]), PVar(ys)],
                    App(Var(cons.name), [Var(x), App(Var(name), [Var(t), Var(ys)])]))]
        self.ev.define_clauses(name, 2, clauses)
        self.add_fn(Fn(name, [me, me], me, tparams=["A"], weight=1.0),
                    Entry(self.clause_text(name, ["A"], [me, me], me, clauses), {name}))
        # reverse, through an accumulator with implicit patterns
        rev = self.unique("revOnto" + base)
        acc = self.fresh("acc")
        clauses = [([PCon(nil, []), PVar(acc)], Var(acc)),
                   ([PCon(cons, [PVar(x), PVar(t)]), PVar(acc)],
                    App(Var(rev), [Var(t), App(Var(cons.name), [TArg(TVar("C")), Var(x), Var(acc)])]))]
        self.ev.define_clauses(rev, 2, clauses)
        text = self.clause_text(rev, ["A"], [me, me], me, clauses, [["C"], ["C"]])
        self.entries.append(Entry(text, {rev}))
        name = self.unique("reverse" + base)
        xs = self.fresh("xs")
        node = LamD([(xs, None)], App(Var(rev), [Var(xs), Var(nil.name)]))
        self.ev.define_value(name, node)
        self.add_fn(Fn(name, [me], me, tparams=["A"], weight=1.0),
                    Entry(f"{name} : {{A : U}} → {show_type(Fun(me, me))} = {node.text()}", {name}))
        self.generics.setdefault(decl.name, {})["reverse"] = name

    # ---- directives
    def gen_directive(self):
        for _ in range(30):
            kind = self.pick([(2, "big"), (2, "big_generic"), (4, "call"), (2, "expr"), (2, "nf"),
                              (1, "nf_generic")])
            try:
                d = getattr(self, "dir_" + kind)()
            except Reject:
                continue
            if d is not None:
                return d
        raise Reject("no directive")

    def check_print(self, v, ty, nf):
        if value_size(v) > PRINT_LIMIT:
            raise Reject("too large to print")
        if nf:
            try:
                return show_nf(v, ty)
            except TypeError:
                raise Reject("a function in an .nf") from None
        return show_eval(v)

    def dir_big(self):
        cands = [f for f in self.fns if f.params and not f.tparams and f.params[0] in self.builders]
        if not cands:
            return None
        f = self.r.choice(cands)
        b = self.r.choice(self.builders[f.params[0]])
        arg = App(Var(b.name), [Lit(NAT, self.r.randint(b.counters[0] // 2, b.counters[0]))])
        args = [arg] + [self.gen_arg(p, f.counters.get(i + 1), 2) for i, p in enumerate(f.params[1:])]
        node = App(Var(f.name), args)
        v = self.ev.run(node, EVAL_BUDGET)
        return Directive(".eval", node, self.check_print(v, f.res, False))

    def dir_big_generic(self, nf=False):
        """A polymorphic function (size, fold, map, reverse) or the eliminator
        on a builder's large value."""
        cands = [(t, b) for t, bs in self.builders.items() for b in bs if self.decls[t.name].recursive()]
        if not cands:
            return None
        t, b = self.r.choice(cands)
        decl = self.decls[t.name]
        g = self.generics.get(t.name, {})
        bound = b.counters[0]
        n = self.r.randint(0, min(bound, 40)) if nf else self.r.randint(bound // 2, bound)
        big = App(Var(b.name), [Lit(NAT, n)])
        kinds = [(2, "elim")]
        if "size" in g:
            kinds += [(2, "size")] + [(1, "reverse")] * ("reverse" in g) + [(1.5, "map")] * ("map" in g)
        if "fold" in g:
            kinds.append((2, "fold"))
        k = self.pick(kinds)
        res = self.r.choice([NAT, NAT, BOOL, I64])
        if k == "size":
            node, res = App(Var(g["size"]), [big]), NAT
        elif k == "reverse":
            rev = App(Var(g["reverse"]), [big])
            if self.chance(0.5):
                node = self.try_case(res, 2, True, t, rev)
            else:                                   # the case on a λ's variable
                x = self.fresh(self.var_base(t))
                body = self.with_vars([(x, t, None)], lambda: self.try_case(res, 2, True, t, Var(x)))
                node = App(LamD([(x, t)], body), [rev])
        elif k == "map":
            f = self.gen_infer(Fun(t.args[0], res), 2)
            node, res = App(Var(g["size"]), [App(Var(g["map"]), [f, big])]), NAT
        elif k == "fold":
            f = self.gen_infer(Fun(t.args[0], Fun(res, res)), 2)
            node = App(Var(g["fold"]), [f, self.gen_infer(res, 1), big])
        else:
            node = App(Var(decl.elim), self.elim_args(decl, t, res, 2, infer=True) + [big])
        v = self.ev.run(node, NF_BUDGET if nf else EVAL_BUDGET)
        return Directive(".nf" if nf else ".eval", node, self.check_print(v, res, nf))

    def dir_nf_generic(self):
        return self.dir_big_generic(nf=True)

    def dir_call(self):
        cands = [f for f in self.fns if f.params and not f.tparams]
        if not cands:
            return None
        f = self.r.choice(cands)
        node = App(Var(f.name), [self.gen_arg(p, f.counters.get(i), 2) for i, p in enumerate(f.params)])
        v = self.ev.run(node, EVAL_BUDGET)
        return Directive(".eval", node, self.check_print(v, f.res, False))

    def dir_expr(self):
        ty = self.any_type()
        node = self.gen_infer(ty, self.r.randint(2, 3))
        v = self.ev.run(node, EVAL_BUDGET)
        return Directive(".eval", node, self.check_print(v, ty, False))

    def gen_infer(self, ty, d):
        saved, self.rec = self.rec, None
        try:
            return self.gen(ty, d, infer=True)
        finally:
            self.rec = saved

    def dir_nf(self):
        ty = self.any_type(fun=False)
        if has_fun(ty):
            return None
        if self.chance(0.6):
            cands = [f for f in self.fns if f.params and not f.tparams and f.res == ty]
            if cands:
                f = self.r.choice(cands)
                node = App(Var(f.name), [self.gen_arg(p, f.counters.get(i), 2) for i, p in enumerate(f.params)])
            else:
                node = self.gen_infer(ty, 2)
        else:
            node = self.gen_infer(ty, self.r.randint(2, 3))
        v = self.ev.run(node, NF_BUDGET)
        return Directive(".nf", node, self.check_print(v, ty, True))

    # ---- a whole program
    def program(self):
        self.gen_decls()
        self.gen_types()
        for d in self.order:
            if self.chance(0.6):
                self.def_generic(d)
        k = 0
        for t in self.types:
            if self.decls[t.name].recursive() and self.chance(0.85):
                self.def_builder(k, t)
                k += 1
            elif self.chance(0.3):
                self.def_builder(k, t)
                k += 1
            if self.decls[t.name].kind == "list" and self.chance(0.4):
                self.def_acc_builder(t)
        if self.chance(0.4):
            self.def_value(0)
        for i in range(self.r.randint(2, 4)):
            self.def_clauses(i)
        for i in range(self.r.randint(1, 2)):
            self.def_case(i)
        if self.chance(0.6):
            self.def_elim(0)
        evals = [self.gen_directive() for _ in range(self.r.randint(4, 7))]
        return Program(self.pid, self.entries, evals)


def has_number(p):
    if isinstance(p, PLit):
        return p.ty in (NAT, I64)
    return isinstance(p, PCon) and any(has_number(a) for a in p.args)


def pat_vars_list(pats):
    out = []
    for p in pats:
        pat_vars(p, out)
    return out


def wild_spots(p, ty, decls, path=(), depth=0):
    """(path, type, depth) of each wildcard in p."""
    if is_wild(p):
        yield path, ty, depth
    elif isinstance(p, PCon):
        for k, (a, t) in enumerate(zip(p.args, p.con.field_types(ty.args))):
            yield from wild_spots(a, t, decls, path + (k,), depth + 1)


def con_spots(p, path=()):
    """Paths of the constructor and literal patterns in p."""
    if isinstance(p, (PCon, PLit)):
        yield path
    if isinstance(p, PCon):
        for k, a in enumerate(p.args):
            yield from con_spots(a, path + (k,))


def replace_at(p, path, q):
    if not path:
        return q
    args = list(p.args)
    args[path[0]] = replace_at(args[path[0]], path[1:], q)
    return PCon(p.con, args)


# ---------------------------------------------------------------- entry points
def deep(thunk):
    """thunk() in a thread with a large stack: the model recurses as deep as
    the programs (a builder 2,000 deep, consumers of what it built)."""
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 << 20)
    out = []

    def run():
        try:
            out.append((True, thunk()))
        except BaseException as ex:
            out.append((False, ex))
    t = threading.Thread(target=run)
    t.start()
    t.join()
    ok, value = out[0]
    if not ok:
        raise value
    return value


def generate_one(seed, pid):
    for attempt in range(100):
        g = ProgramGen(Rng(f"{seed}/{pid}/{attempt}"), pid)
        try:
            return g.program()
        except Reject:
            continue
    raise RuntimeError(f"program {pid}: no program after 100 attempts")


def generate(count, seed):
    def run():
        # (the collector's passes over the model's closures cost more than
        # the cycles they free: one collection per program instead)
        enabled = gc.isenabled()
        gc.disable()
        try:
            out = []
            for pid in range(count):
                out.append(generate_one(seed, pid))
                gc.collect()
            return out
        finally:
            if enabled:
                gc.enable()
    return deep(run)


def batch_text(programs):
    return "\n".join(p.text() for p in programs)

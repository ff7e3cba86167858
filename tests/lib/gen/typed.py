"""The typed family: random well-typed programs with the output `thorin run`
must print (typed_program.py makes the programs; this file the terms).

A program is a few top-level definitions whose names end in a suffix unique to
the program (`_p17`), followed by `.eval` lines. The generator first picks a
type, then a term of that type (one generator function per type: `gen_i64`,
`gen_nat`, `gen_bool`, `gen_f64`, `gen_fun`, `gen_pair`, `gen_array`,
`gen_idx`, `gen_church`), so programs are well-typed by construction. The
terms are evaluated by the model (model.py, conservative semantics) to the
value each `.eval` prints — a third computation next to thorin's interpreter
and its JIT.

Choices that keep a program's meaning independent of details the spec leaves
open:
- Terms are generated in one of two modes. In *check* mode the expected type
  is known (an argument, a definition body, a typed `let`, the right operand
  of an operator); in *infer* mode it is not (the left operand of an operator,
  both sides of a comparison, `.eval`, the array of `get`, arguments that
  determine an implicit type argument). Bare `I64` literals, negative literals
  (`0 - 7`), `if`, unannotated lambdas, pairs and array literals appear only
  in check mode; in infer mode an `I64` constant is `(0 - 7 : I64)` or
  `natToI64 7`, and a pair is annotated or bound by a typed `let`.
- `I64` division and remainder only by divisors that cannot be 0 or -1 (a
  literal, or `e % 7 + 8`); `Nat` ones by a literal or `e % 7 + 1`;
  `idx`, `natToI64` and `i64ToNat` only on arguments in range by construction
  (`e % n`, `e % 1000000007`, `e % 1000 + 1000`).
- Recursive calls decrease a counter that call sites bound (a small literal or
  `e % (b + 1)`).
- `F64` values are dyadic rationals of small magnitude; a printed `F64` must
  be k/256 with |x| < 10000 (so `2.5` and `3.0` read the same under every
  "shortest round-trip" printer), otherwise the `.eval` is regenerated.
- Printed values avoid what the spec does not pin down: no `Idx`, no nested
  pair in the second component (`(1, (2, 3))` vs `(1, 2, 3)`), no strings.
- The model is strict (arguments, both sides of `&&`/`||`, unused `let`s),
  except for `if`; any run-time error, unsafe `F64` or exhausted budget
  makes the generator throw the program part away and retry, so a lazier
  thorin cannot fail where the model succeeded.
"""
import math

from core_model import I64_MAX

from .model import ArrV, Reject
from .model import show_value as show_any
from .terms import Ann, App, ArrayLit, BinOp, IdxLit, If, Lam, Let, Lit, Proj, Tuple, TyArg, Var
from .ty import (BOOL, F64, I64, NAT, Arr, Base, Church, Fun, Idx, Pair, fun_type, match, subst,
                 tvars_of, uncurry)


def printable(t):
    """Types whose values print the same under every reading of the spec."""
    if isinstance(t, Base):
        return True
    if isinstance(t, Pair):
        return printable(t.fst) and printable(t.snd) and not isinstance(t.snd, Pair)
    if isinstance(t, Arr):
        return printable(t.elem)
    return False


def f64_printable(x):
    return (math.isfinite(x) and abs(x) < 10000 and (x * 256).is_integer()
            and not (x == 0 and math.copysign(1, x) < 0))


def check_printable(v):
    if isinstance(v, float) and not f64_printable(v):
        raise Reject(f"F64 {v!r} may print differently")
    if isinstance(v, (tuple, ArrV)):
        for x in v:
            check_printable(x)


def show_value(v):
    """What `.eval` prints for v; Reject if an F64 in it may print differently."""
    check_printable(v)
    return show_any(v)


class TermGen:
    """Terms of given types in the scope of one program's globals."""

    def __init__(self, rng, sfx):
        self.r, self.sfx = rng, sfx                 # sfx: the program's names end in it
        self.globals = []                           # library.Global: names to call
        self.scope = []                             # [(name, type)] of local variables
        self.fresh = 0
        self.church = {}                            # kind -> Church type (list: its name)
        self.use_f64 = rng.chance(0.15)

    def chance(self, p):
        return self.r.chance(p)

    def pick(self, weighted):
        return self.r.pick(weighted)

    def new_var(self):
        self.fresh += 1
        return f"v{self.fresh}"

    def with_vars(self, bindings, thunk):
        saved = self.scope
        self.scope = self.scope + bindings
        try:
            return thunk()
        finally:
            self.scope = saved

    # ---- types
    def base_type(self):
        opts = [(4, I64), (2, NAT), (2, BOOL)] + ([(1, F64)] if self.use_f64 else [])
        return self.pick(opts)

    def rand_type(self, depth=1):
        opts = [(8, "base")]
        if depth > 0:
            opts += [(2, "fun"), (1.5, "pair"), (1.5, "arr")]
            if self.church:
                opts.append((1.5, "church"))
        k = self.pick(opts)
        if k == "base":
            return self.base_type()
        if k == "fun":
            if self.chance(0.25):
                return fun_type([self.base_type(), self.base_type()], self.base_type())
            return Fun(self.base_type(), self.rand_type(depth - 1) if self.chance(0.3) else self.base_type())
        if k == "pair":
            return Pair(self.base_type(), self.rand_type(depth - 1))
        if k == "arr":
            return Arr(self.r.randint(1, 4), self.base_type() if self.chance(0.8) else Pair(I64, BOOL))
        kind = self.r.choice(sorted(self.church))
        if kind == "list":
            return Church("list", self.church["list"], self.r.choice([I64, I64, NAT, BOOL]))
        return self.church[kind]

    def printable_type(self):
        k = self.pick([(6, "base"), (1.5, "pair"), (1.5, "arr")])
        if k == "base":
            return self.base_type()
        if k == "pair":
            return Pair(self.base_type() if self.chance(0.8) else Arr(2, I64), self.base_type())
        return Arr(self.r.randint(0, 4), self.base_type() if self.chance(0.85) else Pair(NAT, BOOL))

    # ---- literals
    def i64_value(self):
        k = self.pick([(7, "small"), (2, "mid"), (1, "edge")])
        if k == "small":
            return self.r.randint(-5, 20)
        if k == "mid":
            return self.r.randint(-1000, 1000)
        return self.r.choice([I64_MAX, -I64_MAX, 1 << 62, -(1 << 62), 3037000500, 4294967296,
                              I64_MAX - 1, 9007199254740993])

    def nat_value(self):
        k = self.pick([(7, "small"), (2, "mid"), (1, "big")])
        if k == "small":
            return self.r.randint(0, 20)
        if k == "mid":
            return self.r.randint(0, 100000)
        return self.r.choice([1 << 64, (1 << 64) - 1, 1 << 63, 123456789012345678901234567890,
                              10 ** 40 + 7, 18446744073709551617])

    def f64_value(self):
        return self.r.randint(-40, 40) / self.r.choice([1, 2, 4, 8])

    def i64_const(self, v, infer):
        """An I64 constant; in infer mode `(v : I64)` or `natToI64 v` (v >= 0)."""
        if not infer:
            return Lit(I64, v)
        if self.chance(0.5):
            return Ann(Lit(I64, v), I64)
        return App(Var("natToI64"), [Lit(NAT, abs(v))])

    # ---- the entry point: a term of type ty
    def gen(self, ty, d, infer=False):
        if d > 0 and self.chance(0.4):
            e = self.gen_generic(ty, d, infer)
            if e is not None:
                return e
        if isinstance(ty, Base):
            return {"I64": self.gen_i64, "Nat": self.gen_nat, "Bool": self.gen_bool,
                    "F64": self.gen_f64}[ty.name](d, infer)
        if isinstance(ty, Fun):
            return self.gen_fun(ty, d, infer)
        if isinstance(ty, Pair):
            return self.gen_pair(ty, d, infer)
        if isinstance(ty, Arr):
            return self.gen_array(ty, d, infer)
        if isinstance(ty, Idx):
            return self.gen_idx(ty, d, infer)
        if isinstance(ty, Church):
            return self.gen_church(ty, d, infer)
        raise TypeError(ty)

    # ---- forms that work at every type
    def gen_generic(self, ty, d, infer):
        forms = [(3, self.try_var), (5, self.try_call), (1, self.try_let), (0.7, self.try_proj),
                 (0.7, self.try_get)]
        if not infer:
            forms.append((1.5, self.try_if))
        while forms:
            f = self.pick(forms)
            e = f(ty, d, infer)
            if e is not None:
                return e
            forms = [x for x in forms if x[1] != f]
        return None

    def try_var(self, ty, d=0, infer=False):
        names = [n for n, t in self.scope if t == ty]
        names += [g.name for g in self.globals if not g.params and not g.tparams and g.res == ty]
        return Var(self.r.choice(names)) if names else None

    def callables(self, ty):
        """(weight, head, tparams, params, counters, k, substitution, result): heads
        whose application to k arguments has type ty."""
        out = []
        heads = [(g.weight, g.name, g.tparams, g.params, g.res, g.counters) for g in self.globals]
        for n, t in self.scope:
            if isinstance(t, Fun):
                ps, res = uncurry(t)
                heads.append((1.5, n, [], ps, res, {}))
        for w, name, tps, ps, res, counters in heads:
            for k in range(1, len(ps) + 1):
                sub = {}
                rest = fun_type(ps[k:], res)
                if match(rest, ty, sub):
                    out.append((w, name, tps, ps, counters, k, sub, rest))
        return out

    def try_call(self, ty, d, infer, only=None):
        cands = self.callables(ty)
        if only is not None:
            cands = [c for c in cands if c[1] == only and c[5] == len(c[3])]
        if not cands:
            return None
        _w, name, tps, ps, counters, k, sub, rest = self.pick([(c[0], c) for c in cands])
        for tv, kind in tps:                     # type parameters the result type leaves open
            if tv not in sub:
                sub[tv] = self.r.randint(1, 3) if kind == "Nat" else self.base_type()
        # Type parameters are given explicitly, or solved by unification: from
        # arguments generated in infer mode, or (check mode only) from the
        # expected type of the application.
        applied = set()
        for p in ps[:k]:
            tvars_of(p, applied)
        open_tvs = {tv for tv, _ in tps} - applied
        must = bool(open_tvs) and (infer or not open_tvs <= tvars_of(rest))
        explicit = bool(tps) and (must or self.chance(0.35))
        args = [TyArg(sub[tv]) for tv, _ in tps] if explicit else []
        for i, p in enumerate(ps[:k]):
            pt = subst(p, sub)
            if i in counters:
                args.append(self.gen_counter(pt, counters[i], d - 1))
            else:
                args.append(self.gen(pt, d - 1, infer=bool(tps) and not explicit and bool(tvars_of(p))))
        return App(Var(name), args)

    def try_let(self, ty, d, infer):
        x = self.new_var()
        aty = self.rand_type(1)
        typed = self.chance(0.7)
        value = self.gen(aty, d - 1, infer=not typed)
        body = self.with_vars([(x, aty)], lambda: self.gen(ty, d - 1, infer))
        return Let(x, aty if typed else None, value, body)

    def try_if(self, ty, d, infer):
        return If(ty, self.gen(BOOL, d - 1), self.gen(ty, d - 1), self.gen(ty, d - 1))

    def try_proj(self, ty, d, infer):
        other = self.base_type()
        if self.chance(0.5):
            return Proj(self.gen(Pair(ty, other), d - 1, infer=True), 1)
        return Proj(self.gen(Pair(other, ty), d - 1, infer=True), 2)

    def try_get(self, ty, d, infer):
        n = self.r.randint(1, 4)
        arr = self.gen(Arr(n, ty), d - 1, infer=True)
        return App(Var("get"), [arr, self.gen_idx(Idx(n), d - 1, False)])

    def gen_counter(self, ty, bound, d):
        """An argument that bounds a recursion: at most `bound`."""
        if d > 0 and self.chance(0.4):
            return BinOp("%", ty, self.gen(ty, d - 1, infer=True), Lit(ty, bound + 1))
        return Lit(ty, self.r.randint(0, bound))

    # ---- one generator per type
    def gen_i64(self, d, infer):
        if d <= 0 or self.chance(0.15):
            v = self.try_var(I64)
            if v is not None and self.chance(0.7):
                return v
            return self.i64_const(self.i64_value(), infer)
        k = self.pick([(6, "arith"), (2, "div"), (1.5, "nat"), (0.7 if self.use_f64 else 0, "f64")])
        if k == "arith":
            op = self.r.choice(["+", "-", "*"])
            return BinOp(op, I64, self.gen(I64, d - 1, infer=True), self.gen(I64, d - 1))
        if k == "div":
            return BinOp(self.r.choice(["/", "%"]), I64, self.gen(I64, d - 1, infer=True),
                         self.divisor(I64, d - 1))
        if k == "nat":
            m = self.r.choice([10, 1000, 1000000007])
            return App(Var("natToI64"), [BinOp("%", NAT, self.gen(NAT, d - 1, infer=True), Lit(NAT, m))])
        return App(Var("f64ToI64"), [self.gen(F64, d - 1)])

    def divisor(self, ty, d):
        """A divisor that is never 0 (and never -1 for I64)."""
        if d > 0 and self.chance(0.4):
            m = self.r.randint(2, 9)
            e = self.gen(ty, d - 1, infer=True)
            return BinOp("+", ty, BinOp("%", ty, e, Lit(ty, m)), Lit(ty, m + 1 if ty == I64 else 1))
        if ty == I64:
            return Lit(I64, self.r.choice([1, 2, 3, 5, 7, 10, 1000, -2, -3, -7]))
        return Lit(NAT, self.r.choice([1, 2, 3, 5, 7, 10, 1000]))

    def gen_nat(self, d, infer):
        if d <= 0 or self.chance(0.15):
            v = self.try_var(NAT)
            if v is not None and self.chance(0.7):
                return v
            return Lit(NAT, self.nat_value())
        k = self.pick([(6, "arith"), (2, "div"), (1.5, "i64")])
        if k == "arith":
            op = self.r.choice(["+", "-", "*"])
            return BinOp(op, NAT, self.gen(NAT, d - 1, infer=True), self.gen(NAT, d - 1))
        if k == "div":
            return BinOp(self.r.choice(["/", "%"]), NAT, self.gen(NAT, d - 1, infer=True),
                         self.divisor(NAT, d - 1))
        m = self.r.choice([10, 1000])
        e = self.gen(I64, d - 1, infer=True)
        return App(Var("i64ToNat"), [BinOp("+", I64, BinOp("%", I64, e, Lit(I64, m)), Lit(I64, m))])

    def gen_bool(self, d, infer):
        if d <= 0 or self.chance(0.1):
            v = self.try_var(BOOL)
            if v is not None and self.chance(0.6):
                return v
            return Lit(BOOL, self.chance(0.5))
        k = self.pick([(5, "cmp"), (2, "logic"), (1, "not")])
        if k == "cmp":
            t = self.pick([(4, I64), (2, NAT), (1, BOOL)] + ([(1, F64)] if self.use_f64 else []))
            op = self.r.choice(["==", "!="] if t == BOOL else ["==", "!=", "<", "<=", ">", ">="])
            return BinOp(op, t, self.gen(t, d - 1, infer=True), self.gen(t, d - 1))
        if k == "logic":
            return BinOp(self.r.choice(["&&", "||"]), BOOL, self.gen(BOOL, d - 1, infer=True),
                         self.gen(BOOL, d - 1))
        return App(Var("not"), [self.gen(BOOL, d - 1)])

    def gen_f64(self, d, infer):
        if d <= 0 or self.chance(0.15):
            v = self.try_var(F64)
            if v is not None and self.chance(0.6):
                return v
            return Lit(F64, self.f64_value())
        k = self.pick([(4, "addsub"), (2, "scale"), (1, "sqrt"), (1.5, "conv")])
        if k == "addsub":
            return BinOp(self.r.choice(["+", "-"]), F64, self.gen(F64, d - 1, infer=True),
                         self.gen(F64, d - 1))
        if k == "scale":                           # keeps magnitudes small and values dyadic
            op, c = self.r.choice([("*", 0.5), ("*", 2.0), ("*", 3.0), ("*", 0.25), ("/", 2.0), ("/", 4.0)])
            return BinOp(op, F64, self.gen(F64, d - 1, infer=True), Lit(F64, c))
        if k == "sqrt":
            e = self.gen(F64, d - 1, infer=True)
            return App(Var("sqrt"), [BinOp("*", F64, e, e)])
        if self.chance(0.5):
            return App(Var("i64ToF64"), [BinOp("%", I64, self.gen(I64, d - 1, infer=True), Lit(I64, 1000))])
        return App(Var("natToF64"), [BinOp("%", NAT, self.gen(NAT, d - 1, infer=True), Lit(NAT, 1000))])

    def gen_fun(self, ty, d, infer):
        if d <= 0 or self.chance(0.2):
            v = self.try_var(ty)
            if v is not None:
                return v
        params, res = uncurry(ty)
        if infer:                                  # an annotated lambda infers its type
            x = self.new_var()
            body = self.with_vars([(x, ty.arg)], lambda: self.gen(ty.res, d - 1, infer=True))
            return Lam([(x, ty.arg)], body)
        m = self.r.randint(1, len(params))
        xs = [(self.new_var(), p) for p in params[:m]]
        body = self.with_vars(xs, lambda: self.gen(fun_type(params[m:], res), d - 1))
        return Lam([(x, p if self.chance(0.15) else None) for x, p in xs], body)

    def gen_pair(self, ty, d, infer):
        if infer:                                  # a pair is not inferred: annotate it
            if self.chance(0.5):
                return Ann(self.gen_pair(ty, d, False), ty)
            x = self.new_var()
            return Let(x, ty, self.gen_pair(ty, d, False), Var(x))
        return Tuple(self.gen(ty.fst, d - 1), self.gen(ty.snd, d - 1))

    def gen_array(self, ty, d, infer):
        n, e = ty.n, ty.elem
        k = self.pick([(3 if n <= 4 and not infer else 0, "lit"), (3, "build")])
        if k == "lit":
            return ArrayLit(e, [self.gen(e, d - 1) for _ in range(n)])
        i = self.new_var()
        explicit = infer or self.chance(0.5)
        body = self.with_vars([(i, Idx(n))], lambda: self.gen(e, d - 1, infer=not explicit))
        args = ([TyArg(e)] if explicit else []) + [Lit(NAT, n), Lam([(i, None)], body)]
        return App(Var("build"), args)

    def gen_idx(self, ty, d, infer):
        if ty.n == 0:
            raise Reject("Idx 0 is empty")
        v = self.try_var(ty)
        if v is not None and self.chance(0.6):
            return v
        n = ty.n
        if d > 0 and self.chance(0.4):
            k = BinOp("%", NAT, self.gen(NAT, d - 1, infer=True), Lit(NAT, n))
        else:
            k = Lit(NAT, self.r.randint(0, n - 1))
        return IdxLit(n, k, explicit=infer or self.chance(0.3))

    def gen_church(self, ty, d, infer):
        if d > 0:
            e = self.try_call(ty, d, infer)
            if e is not None:
                return e
        s = self.sfx
        if ty.kind == "nat":
            return Var("czero" + s)
        if ty.kind == "bool":
            return Var(self.r.choice(["ctrue", "cfalse"]) + s)
        if infer or self.chance(0.3):
            return App(Var("cnil" + s), [TyArg(ty.elem)])
        return Var("cnil" + s)

"""Types of generated terms, their thorin text, and the matching the typed
family's calls need (instantiating implicit arguments)."""
from dataclasses import dataclass
from typing import Optional


class Ty:
    pass


@dataclass(frozen=True)
class Base(Ty):
    name: str                       # I64 Nat Bool F64, or U


@dataclass(frozen=True)
class Fun(Ty):
    arg: Ty
    res: Ty


@dataclass(frozen=True)
class Pair(Ty):
    fst: Ty
    snd: Ty


@dataclass(frozen=True)
class Arr(Ty):
    n: object                       # an int, or the name of a Nat type parameter
    elem: Ty


@dataclass(frozen=True)
class Idx(Ty):
    n: object


@dataclass(frozen=True)
class Church(Ty):
    kind: str                       # nat, bool, list
    name: str                       # the program's type definition, e.g. CN_p3
    elem: Optional[Ty] = None       # element type of a list


@dataclass(frozen=True)
class Named(Ty):
    name: str                       # a type the program defines by name (no structure known)


@dataclass(frozen=True)
class TVar(Ty):
    name: str


I64, NAT, BOOL, F64, U = Base("I64"), Base("Nat"), Base("Bool"), Base("F64"), Base("U")

T_ARROW, T_PROD, T_APP, T_ATOM = 0, 1, 2, 3


def show_nat(n, shadow):
    return n if isinstance(n, str) else (f"L_n{n}" if shadow else str(n))


def show_ty(t, shadow=False, lvl=T_ARROW):
    """The text of t; shadow: the core-only rendering (Nat literals are postulates)."""
    def par(s, level):
        return s if level >= lvl else f"({s})"
    if isinstance(t, (Base, TVar, Named)):
        return t.name
    if isinstance(t, Fun):
        res = show_ty(t.res, shadow, T_ARROW if isinstance(t.res, Fun) else T_APP)
        return par(f"{show_ty(t.arg, shadow, T_APP)} → {res}", T_ARROW)
    if isinstance(t, Pair):
        return par(f"{show_ty(t.fst, shadow, T_APP)} × {show_ty(t.snd, shadow, T_APP)}", T_PROD)
    if isinstance(t, Arr):
        return par(f"Array {show_nat(t.n, shadow)} {show_ty(t.elem, shadow, T_ATOM)}", T_APP)
    if isinstance(t, Idx):
        return par(f"Idx {show_nat(t.n, shadow)}", T_APP)
    if isinstance(t, Church):
        if t.elem is None:
            return t.name
        return par(f"{t.name} {show_ty(t.elem, shadow, T_ATOM)}", T_APP)
    raise TypeError(t)


def fun_type(params, res):
    for p in reversed(params):
        res = Fun(p, res)
    return res


def uncurry(t):
    params = []
    while isinstance(t, Fun):
        params.append(t.arg)
        t = t.res
    return params, t


def tvars_of(t, acc=None):
    acc = set() if acc is None else acc
    if isinstance(t, TVar):
        acc.add(t.name)
    elif isinstance(t, Fun):
        tvars_of(t.arg, acc)
        tvars_of(t.res, acc)
    elif isinstance(t, Pair):
        tvars_of(t.fst, acc)
        tvars_of(t.snd, acc)
    elif isinstance(t, (Arr, Idx)):
        if isinstance(t.n, str):
            acc.add(t.n)
        if isinstance(t, Arr):
            tvars_of(t.elem, acc)
    elif isinstance(t, Church) and t.elem is not None:
        tvars_of(t.elem, acc)
    return acc


def match(pat, t, sub):
    """Extends `sub` so that pat[sub] == t; False when impossible."""
    if isinstance(pat, TVar):
        if pat.name in sub:
            return sub[pat.name] == t
        sub[pat.name] = t
        return True
    if type(pat) is not type(t):
        return False
    if isinstance(pat, (Base, Named)):
        return pat == t
    if isinstance(pat, Fun):
        return match(pat.arg, t.arg, sub) and match(pat.res, t.res, sub)
    if isinstance(pat, Pair):
        return match(pat.fst, t.fst, sub) and match(pat.snd, t.snd, sub)
    if isinstance(pat, (Arr, Idx)):
        if isinstance(pat.n, str):
            if sub.setdefault(pat.n, t.n) != t.n:
                return False
        elif pat.n != t.n:
            return False
        return not isinstance(pat, Arr) or match(pat.elem, t.elem, sub)
    if isinstance(pat, Church):
        if pat.name != t.name:
            return False
        return pat.elem is None or match(pat.elem, t.elem, sub)
    return False


def subst(t, sub):
    if isinstance(t, TVar):
        return sub.get(t.name, t)
    if isinstance(t, Fun):
        return Fun(subst(t.arg, sub), subst(t.res, sub))
    if isinstance(t, Pair):
        return Pair(subst(t.fst, sub), subst(t.snd, sub))
    if isinstance(t, Arr):
        return Arr(sub.get(t.n, t.n) if isinstance(t.n, str) else t.n, subst(t.elem, sub))
    if isinstance(t, Idx):
        return Idx(sub.get(t.n, t.n) if isinstance(t.n, str) else t.n)
    if isinstance(t, Church) and t.elem is not None:
        return Church(t.kind, t.name, subst(t.elem, sub))
    return t

"""The typed family's shadow rendering: the same programs in the core
language alone. Builtin types, literals, operators and `if` become
postulates (`.ax L_add_I64 : I64 → I64 → I64`, `ite {A} c a b`), `(e : A)`
becomes `id {A} e`, `.eval` becomes `.check`, and a recursive definition is
preceded by a postulate of its own name. `thorin check` on that text
type-checks everything else (implicit arguments, Church encodings, Σ,
arrays, lets) with the real elaborator, independently of the builtins;
tests/scripts/test_gen_programs.py does that."""
import re

SHADOW_FIXED = """\
.ax I64 : U
.ax Nat : U
.ax F64 : U
.ax Bool : U
.ax true : Bool
.ax false : Bool
.ax not : Bool → Bool
.ax ite : {A : U} → Bool → A → A → A
.ax Array : Nat → U → U
.ax Idx : Nat → U
.ax build : {A : U} → (n : Nat) → (Idx n → A) → Array n A
.ax get : {A : U} → {n : Nat} → Array n A → Idx n → A
.ax set : {A : U} → {n : Nat} → Array n A → Idx n → A → Array n A
.ax length : {A : U} → {n : Nat} → Array n A → Nat
.ax idx : {n : Nat} → Nat → Idx n
.ax idxToNat : {n : Nat} → Idx n → Nat
.ax natToI64 : Nat → I64
.ax i64ToNat : I64 → Nat
.ax i64ToF64 : I64 → F64
.ax f64ToI64 : F64 → I64
.ax natToF64 : Nat → F64
.ax sqrt : F64 → F64
"""


def shadow_postulates(text):
    """The postulates a shadow text needs, for its L_ names."""
    out = []
    names = sorted(set(re.findall(r"\bL_[A-Za-z0-9_]+", text)))
    lits = {m for m in names if re.fullmatch(r"L_n\d+", m)}
    lits |= {f"L_n{m[6:]}" for m in names if m.startswith("L_alit")}
    for n in sorted(lits, key=lambda s: int(s[3:])):
        out.append(f".ax {n} : Nat")
    for n in names:
        if re.fullmatch(r"L_im?\d+", n):
            out.append(f".ax {n} : I64")
        elif n.startswith("L_f"):
            out.append(f".ax {n} : F64")
        elif n in ("L_and", "L_or"):
            out.append(f".ax {n} : Bool → Bool → Bool")
        elif n.startswith("L_alit"):
            k = int(n[6:])
            out.append(f".ax {n} : {{A : U}} → " + "A → " * k + f"Array L_n{k} A")
        elif n not in lits:
            op, ty = n[2:].rsplit("_", 1)
            res = "Bool" if op in ("eq", "ne", "lt", "le", "gt", "ge") else ty
            out.append(f".ax {n} : {ty} → {ty} → {res}")
    return "".join(x + "\n" for x in out)


def header(text):
    """What a shadow text needs before it: the fixed postulates and those of its L_ names."""
    return SHADOW_FIXED + shadow_postulates(text)

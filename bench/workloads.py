"""Elaboration workloads, written once in thorin syntax (the generator
translates them to Agda and Idris 2). They mirror smalltt's benchmark files:
stlc, stlcLessImpl, stlcSmall, conv_eval and the asymptotic tests.

Conventions that keep the translation simple: λ binders are plain names
(`λ a b. t`), binder groups are always followed by an arrow, implicit
binders without types are written `{a b} → …`, no Σ-types, no `{x}` arguments.
"""

# de Bruijn variables as terms: the same in stlc and stlcSmall.
DE_BRUIJN = r"""v0 : {G A} → Tm (snoc G A) A
  = var vz

v1 : {G A B} → Tm (snoc (snoc G A) B) A
  = var (vs vz)

v2 : {G A B C} → Tm (snoc (snoc (snoc G A) B) C) A
  = var (vs (vs vz))

v3 : {G A B C D} → Tm (snoc (snoc (snoc (snoc G A) B) C) D) A
  = var (vs (vs (vs vz)))
"""

# Contexts and variables: the same in stlc and stlcSmall.
CON_VAR = r"""
Con : U
  = (Con : U) → (nil : Con) → (snoc : Con → Ty → Con) → Con

nil : Con
  = λ Con nil snoc. nil

snoc : Con → Ty → Con
  = λ G A Con nil snoc. snoc (G Con nil snoc) A

Var : Con → Ty → U
  = λ G A.
      (Var : Con → Ty → U)
    → (vz  : (G : Con) → (A : Ty) → Var (snoc G A) A)
    → (vs  : (G : Con) → (B A : Ty) → Var G A → Var (snoc G B) A)
    → Var G A

vz : {G A} → Var (snoc G A) A
  = λ Var vz vs. vz _ _

vs : {G B A} → Var G A → Var (snoc G B) A
  = λ x Var vz vs. vs _ _ _ (x Var vz vs)
"""

STLC = r"""
Ty : U
  = (Ty : U) → (nat top bot : Ty) → (arr prod sum : Ty → Ty → Ty) → Ty

nat : Ty = λ _ nat _ _ _ _ _. nat
top : Ty = λ _ _ top _ _ _ _. top
bot : Ty = λ _ _ _ bot _ _ _. bot

arr : Ty → Ty → Ty
  = λ A B Ty nat top bot arr prod sum.
      arr (A Ty nat top bot arr prod sum) (B Ty nat top bot arr prod sum)

prod : Ty → Ty → Ty
  = λ A B Ty nat top bot arr prod sum.
      prod (A Ty nat top bot arr prod sum) (B Ty nat top bot arr prod sum)

sum : Ty → Ty → Ty
  = λ A B Ty nat top bot arr prod sum.
      sum (A Ty nat top bot arr prod sum) (B Ty nat top bot arr prod sum)

{CON_VAR}Tm : Con → Ty → U
  = λ G A.
      (Tm    : Con → Ty → U)
    → (var   : (G : Con) → (A : Ty) → Var G A → Tm G A)
    → (lam   : (G : Con) → (A B : Ty) → Tm (snoc G A) B → Tm G (arr A B))
    → (app   : (G : Con) → (A B : Ty) → Tm G (arr A B) → Tm G A → Tm G B)
    → (tt    : (G : Con) → Tm G top)
    → (pair  : (G : Con) → (A B : Ty) → Tm G A → Tm G B → Tm G (prod A B))
    → (fst   : (G : Con) → (A B : Ty) → Tm G (prod A B) → Tm G A)
    → (snd   : (G : Con) → (A B : Ty) → Tm G (prod A B) → Tm G B)
    → (left  : (G : Con) → (A B : Ty) → Tm G A → Tm G (sum A B))
    → (right : (G : Con) → (A B : Ty) → Tm G B → Tm G (sum A B))
    → (cse   : (G : Con) → (A B C : Ty) → Tm G (sum A B) → Tm G (arr A C) → Tm G (arr B C) → Tm G C)
    → (zero  : (G : Con) → Tm G nat)
    → (suc   : (G : Con) → Tm G nat → Tm G nat)
    → (rec   : (G : Con) → (A : Ty) → Tm G nat → Tm G (arr nat (arr A A)) → Tm G A → Tm G A)
    → Tm G A

var : {G A} → Var G A → Tm G A
  = λ x Tm var lam app tt pair fst snd left right cse zero suc rec.
      var _ _ x

lam : {G A B} → Tm (snoc G A) B → Tm G (arr A B)
  = λ t Tm var lam app tt pair fst snd left right cse zero suc rec.
      lam _ _ _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)

app : {G A B} → Tm G (arr A B) → Tm G A → Tm G B
  = λ t u Tm var lam app tt pair fst snd left right cse zero suc rec.
      app _ _ _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)
                (u Tm var lam app tt pair fst snd left right cse zero suc rec)

tt : {G} → Tm G top
  = λ Tm var lam app tt pair fst snd left right cse zero suc rec. tt _

pair : {G A B} → Tm G A → Tm G B → Tm G (prod A B)
  = λ t u Tm var lam app tt pair fst snd left right cse zero suc rec.
      pair _ _ _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)
                 (u Tm var lam app tt pair fst snd left right cse zero suc rec)

fst : {G A B} → Tm G (prod A B) → Tm G A
  = λ t Tm var lam app tt pair fst snd left right cse zero suc rec.
      fst _ _ _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)

snd : {G A B} → Tm G (prod A B) → Tm G B
  = λ t Tm var lam app tt pair fst snd left right cse zero suc rec.
      snd _ _ _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)

left : {G A B} → Tm G A → Tm G (sum A B)
  = λ t Tm var lam app tt pair fst snd left right cse zero suc rec.
      left _ _ _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)

right : {G A B} → Tm G B → Tm G (sum A B)
  = λ t Tm var lam app tt pair fst snd left right cse zero suc rec.
      right _ _ _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)

cse : {G A B C} → Tm G (sum A B) → Tm G (arr A C) → Tm G (arr B C) → Tm G C
  = λ t u v Tm var lam app tt pair fst snd left right cse zero suc rec.
      cse _ _ _ _
        (t Tm var lam app tt pair fst snd left right cse zero suc rec)
        (u Tm var lam app tt pair fst snd left right cse zero suc rec)
        (v Tm var lam app tt pair fst snd left right cse zero suc rec)

zero : {G} → Tm G nat
  = λ Tm var lam app tt pair fst snd left right cse zero suc rec. zero _

suc : {G} → Tm G nat → Tm G nat
  = λ t Tm var lam app tt pair fst snd left right cse zero suc rec.
      suc _ (t Tm var lam app tt pair fst snd left right cse zero suc rec)

rec : {G A} → Tm G nat → Tm G (arr nat (arr A A)) → Tm G A → Tm G A
  = λ t u v Tm var lam app tt pair fst snd left right cse zero suc rec.
      rec _ _
        (t Tm var lam app tt pair fst snd left right cse zero suc rec)
        (u Tm var lam app tt pair fst snd left right cse zero suc rec)
        (v Tm var lam app tt pair fst snd left right cse zero suc rec)

{DE_BRUIJN}
tbool : Ty
  = sum top top

ttrue : {G} → Tm G tbool
  = left tt

tfalse : {G} → Tm G tbool
  = right tt

ifthenelse : {G A} → Tm G (arr tbool (arr A (arr A A)))
  = lam (lam (lam (cse v2 (lam v2) (lam v1))))

times4 : {G A} → Tm G (arr (arr A A) (arr A A))
  = lam (lam (app v1 (app v1 (app v1 (app v1 v0)))))

add : {G} → Tm G (arr nat (arr nat nat))
  = lam (rec v0
          (lam (lam (lam (suc (app v1 v0)))))
          (lam v0))

mul : {G} → Tm G (arr nat (arr nat nat))
  = lam (rec v0
          (lam (lam (lam (app (app add (app v1 v0)) v0))))
          (lam zero))

fact : {G} → Tm G (arr nat nat)
  = lam (rec v0 (lam (lam (app (app mul (suc v1)) v0)))
                (suc zero))
""".replace("{CON_VAR}", CON_VAR.strip("\n") + "\n\n").replace("{DE_BRUIJN}", DE_BRUIJN)


def stlc_less_impl(src):
    """stlcLessImpl: the constructors pass their implicit arguments explicitly
    instead of leaving holes for unification (fewer metas to solve)."""
    import re
    out = []
    for block in src.strip().split("\n\n"):
        m = re.match(r"(\w+) : \{([\w ]+)\} → .*?\n  = λ ([^.]*)\.(.*)", block, re.S)
        if m and re.search(r"\b\w+ _( _)*", m.group(4)):
            head = block.split("\n  = ", 1)[0]
            imps = m.group(2).split()
            binders, body = m.group(3), m.group(4)
            def fill(mm):
                holes = mm.group(0).split()[1:]
                return mm.group(0).split()[0] + " " + " ".join(imps[:len(holes)])
            body = re.sub(r"\b\w+ _( _)*", fill, body, count=1)
            implicits = " ".join("{%s}" % i for i in imps)
            block = f"{head}\n  = λ {implicits} {binders}.{body}"
        out.append(block)
    return "\n\n".join(out) + "\n"


STLC_SMALL = r"""
Ty : U
  = (Ty : U) → (iota : Ty) → (arr : Ty → Ty → Ty) → Ty

iota : Ty = λ _ iota _. iota

arr : Ty → Ty → Ty
  = λ A B Ty iota arr. arr (A Ty iota arr) (B Ty iota arr)

{CON_VAR}Tm : Con → Ty → U
  = λ G A.
      (Tm  : Con → Ty → U)
    → (var : (G : Con) → (A : Ty) → Var G A → Tm G A)
    → (lam : (G : Con) → (A B : Ty) → Tm (snoc G A) B → Tm G (arr A B))
    → (app : (G : Con) → (A B : Ty) → Tm G (arr A B) → Tm G A → Tm G B)
    → Tm G A

var : {G A} → Var G A → Tm G A
  = λ x Tm var lam app. var _ _ x

lam : {G A B} → Tm (snoc G A) B → Tm G (arr A B)
  = λ t Tm var lam app. lam _ _ _ (t Tm var lam app)

app : {G A B} → Tm G (arr A B) → Tm G A → Tm G B
  = λ t u Tm var lam app. app _ _ _ (t Tm var lam app) (u Tm var lam app)

{DE_BRUIJN}
v4 : {G A B C D E} → Tm (snoc (snoc (snoc (snoc (snoc G A) B) C) D) E) A
  = var (vs (vs (vs (vs vz))))

test : {G A} → Tm G (arr (arr A A) (arr A A))
  = lam (lam (app v1 (app v1 (app v1 (app v1 (app v1 (app v1 v0)))))))
""".replace("{CON_VAR}", CON_VAR.strip("\n") + "\n\n").replace("{DE_BRUIJN}", DE_BRUIJN)

CHURCH = r"""
Nat : U
  = (N : U) → (N → N) → N → N

zero : Nat = λ N s z. z
suc : Nat → Nat = λ n N s z. s (n N s z)
add : Nat → Nat → Nat = λ a b N s z. a N s (b N s z)
mul : Nat → Nat → Nat = λ a b N s z. a N (b N s) z

n2 : Nat = suc (suc zero)
n3 : Nat = suc (suc (suc zero))
n5 : Nat = suc (suc (suc (suc (suc zero))))
n10 : Nat = mul n2 n5
n10b : Nat = mul n5 n2

Eq : (A : U) → A → A → U
  = λ A x y. (P : A → U) → P x → P y

refl : {A : U} → {x : A} → Eq A x x
  = λ P px. px
"""


TREES = r"""
Tree : U
  = (T : U) → T → (T → T → T) → T

leaf : Tree = λ T l n. l
node : Tree → Tree → Tree = λ t1 t2 T l n. n (t1 T l n) (t2 T l n)
fullTree : Nat → Tree = λ n. n Tree (λ t. node t t) leaf
fullTreeB : Nat → Tree = λ n T l nd. n T (λ t. nd t t) l

Bool : U = (B : U) → B → B → B
true : Bool = λ B t f. t
false : Bool = λ B t f. f
and : Bool → Bool → Bool = λ a b. a Bool b false
forceTree : Tree → Bool = λ t. t Bool true and

n15 : Nat = add n10 n5
n18 : Nat = add n15 n3
n19 : Nat = suc n18
n20 : Nat = suc n19
n21 : Nat = suc n20
n22 : Nat = suc n21
n23 : Nat = suc n22
"""

BIG_NATS = r"""
n1k : Nat = mul n10 (mul n10 n10)
n1kb : Nat = mul (mul n10b n10b) n10b
n1M : Nat = mul n1k n1k
n1Mb : Nat = mul n1kb n1kb
n5M : Nat = mul n1M n5
n5Mb : Nat = mul n5 n1Mb
n10M : Nat = mul n1M n10
n10Mb : Nat = mul n10b n1Mb
"""

ID_TEST = r"""
id : {A : U} → A → A = λ x. x
"""

PAIR_TEST = r"""
Pair : U → U → U = λ A B. (P : U) → (A → B → P) → P
dup : {A : U} → A → Pair A A = λ a P p. p a a
"""

VEC = r"""
Vec : U → Nat → U
  = λ A n. (V : Nat → U) → V zero → ({k : Nat} → A → V k → V (suc k)) → V n
vnil : {A : U} → Vec A zero = λ V n c. n
vcons : {A : U} → {n : Nat} → A → Vec A n → Vec A (suc n) = λ a as V n c. c a (as V n c)
"""

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


# ---------------------------------------------------------------------------
# stlcData (issue 29): the simply typed λ-calculus with data types instead of
# Church encodings — types, contexts, typed de Bruijn variables and typed
# terms as inductive families, a well-typed interpreter by pattern matching
# (`Val` and `Env` compute types by clauses, `eval : Tm G A → Env G → Val A`),
# and closed terms checked against their values with an identity type (so
# the checker runs the interpreter during conversion). Written once per
# system, not translated: the three texts define the same things in the same
# order. The Idris 2 text is for `--no-prelude` under `%unbound_implicits off`
# (gen.py adds the pragma): every implicit is bound, constructors are
# capitalised and pattern variables are not (on a left-hand side Idris 2
# binds any lower-case name as a pattern variable, even a constructor's),
# and no signature has a hole (`_`) or a λ.

STLC_DATA = r"""
data N : U where
  ze : N
  su : N → N

data One : U where
  unit : One

data Pair (A B : U) : U where
  pair : A → B → Pair A B

data Sum (A B : U) : U where
  inl : A → Sum A B
  inr : B → Sum A B

data Eq (A : U) (x : A) : A → U where
  refl : Eq A x x

proj1 : {A B : U} → Pair A B → A
proj1 (pair a _) = a

proj2 : {A B : U} → Pair A B → B
proj2 (pair _ b) = b

either : {A B C : U} → (A → C) → (B → C) → Sum A B → C
either f g (inl a) = f a
either f g (inr b) = g b

iterN : {A : U} → N → (N → A → A) → A → A
iterN ze s z = z
iterN (su n) s z = s n (iterN n s z)

data Ty : U where
  nat  : Ty
  top  : Ty
  bot  : Ty
  arr  : Ty → Ty → Ty
  prod : Ty → Ty → Ty
  sum  : Ty → Ty → Ty

data Con : U where
  nil  : Con
  snoc : Con → Ty → Con

data Var : Con → Ty → U where
  vz : {G : Con}{A : Ty} → Var (snoc G A) A
  vs : {G : Con}{A B : Ty} → Var G A → Var (snoc G B) A

data Tm : Con → Ty → U where
  var   : {G : Con}{A : Ty} → Var G A → Tm G A
  lam   : {G : Con}{A B : Ty} → Tm (snoc G A) B → Tm G (arr A B)
  app   : {G : Con}{A B : Ty} → Tm G (arr A B) → Tm G A → Tm G B
  tt    : {G : Con} → Tm G top
  tpair : {G : Con}{A B : Ty} → Tm G A → Tm G B → Tm G (prod A B)
  fst   : {G : Con}{A B : Ty} → Tm G (prod A B) → Tm G A
  snd   : {G : Con}{A B : Ty} → Tm G (prod A B) → Tm G B
  left  : {G : Con}{A B : Ty} → Tm G A → Tm G (sum A B)
  right : {G : Con}{A B : Ty} → Tm G B → Tm G (sum A B)
  cse   : {G : Con}{A B C : Ty} → Tm G (sum A B) → Tm G (arr A C) → Tm G (arr B C) → Tm G C
  zero  : {G : Con} → Tm G nat
  suc   : {G : Con} → Tm G nat → Tm G nat
  rec   : {G : Con}{A : Ty} → Tm G nat → Tm G (arr nat (arr A A)) → Tm G A → Tm G A

data Void : U where

Val : Ty → U
Val nat = N
Val top = One
Val bot = Void
Val (arr A B) = Val A → Val B
Val (prod A B) = Pair (Val A) (Val B)
Val (sum A B) = Sum (Val A) (Val B)

Env : Con → U
Env nil = One
Env (snoc G A) = Pair (Env G) (Val A)

lookup : {G : Con}{A : Ty} → Var G A → Env G → Val A
lookup vz (pair _ x) = x
lookup (vs v) (pair e _) = lookup v e

eval : {G : Con}{A : Ty} → Tm G A → Env G → Val A
eval (var x) e = lookup x e
eval (lam t) e = λ x. eval t (pair e x)
eval (app t u) e = eval t e (eval u e)
eval tt e = unit
eval (tpair t u) e = pair (eval t e) (eval u e)
eval (fst t) e = proj1 (eval t e)
eval (snd t) e = proj2 (eval t e)
eval (left t) e = inl (eval t e)
eval (right t) e = inr (eval t e)
eval (cse t u v) e = either (eval u e) (eval v e) (eval t e)
eval zero e = ze
eval (suc t) e = su (eval t e)
eval (rec t u v) e = iterN (eval t e) (eval u e) (eval v e)

run : {A : Ty} → Tm nil A → Val A
  = λ t. eval t unit

v0 : {G : Con}{A : Ty} → Tm (snoc G A) A
  = var vz

v1 : {G : Con}{A B : Ty} → Tm (snoc (snoc G A) B) A
  = var (vs vz)

v2 : {G : Con}{A B C : Ty} → Tm (snoc (snoc (snoc G A) B) C) A
  = var (vs (vs vz))

tbool : Ty = sum top top

ttrue : {G : Con} → Tm G tbool = left tt

tfalse : {G : Con} → Tm G tbool = right tt

ifthenelse : {G : Con}{A : Ty} → Tm G (arr tbool (arr A (arr A A)))
  = lam (lam (lam (cse v2 (lam v2) (lam v1))))

times4 : {G : Con}{A : Ty} → Tm G (arr (arr A A) (arr A A))
  = lam (lam (app v1 (app v1 (app v1 (app v1 v0)))))

add : {G : Con} → Tm G (arr nat (arr nat nat))
  = lam (rec v0 (lam (lam (lam (suc (app v1 v0))))) (lam v0))

mul : {G : Con} → Tm G (arr nat (arr nat nat))
  = lam (rec v0 (lam (lam (lam (app (app add (app v1 v0)) v0)))) (lam zero))

fact : {G : Con} → Tm G (arr nat nat)
  = lam (rec v0 (lam (lam (app (app mul (suc v1)) v0))) (suc zero))

t2 : {G : Con} → Tm G nat = suc (suc zero)

t3 : {G : Con} → Tm G nat = suc t2

n2 : N = su (su ze)
n3 : N = su n2
n4 : N = su n3
n6 : N = su (su n4)
n8 : N = su (su n6)
n12 : N = su (su (su (su n8)))
n24 : N = su (su (su (su (su (su (su (su (su (su (su (su n12)))))))))))

env : Env (snoc (snoc nil nat) (arr nat nat)) = pair (pair unit n3) (λ n. su n)

open1 : Tm (snoc (snoc nil nat) (arr nat nat)) nat
  = fst (snd (tpair tt (tpair (app v0 v1) tt)))

isTrue : Tm nil (arr tbool nat) = lam (cse v0 (lam t3) (lam t2))

plus2 : N → N = λ n. su (su n)

isTrueVal : Val (arr tbool nat) = λ b. either (λ _. n3) (λ _. n2) b

test1 : Eq N (run (app (app add t2) t3)) (su n4) = refl

test2 : Eq N (run (app (app mul t3) (suc t3))) n12 = refl

test3 : Eq N (run (app fact (suc t3))) n24 = refl

test4 : Eq N (run (app (app times4 (lam (suc (suc v0)))) zero)) n8 = refl

test5 : Eq N (run (app (app (app ifthenelse tfalse) t2) t3)) n3 = refl

test6 : Eq N (eval open1 env) n4 = refl

test7 : Eq (N → N) (run (app add t2)) plus2 = refl

test8 : Eq (Val (arr tbool nat)) (run isTrue) isTrueVal = refl
"""

STLC_DATA_AGDA = r"""
data N : Set where
  ze : N
  su : N → N

data One : Set where
  unit : One

data Pair (A B : Set) : Set where
  pair : A → B → Pair A B

data Sum (A B : Set) : Set where
  inl : A → Sum A B
  inr : B → Sum A B

data Eq (A : Set) (x : A) : A → Set where
  refl : Eq A x x

proj1 : {A B : Set} → Pair A B → A
proj1 (pair a _) = a

proj2 : {A B : Set} → Pair A B → B
proj2 (pair _ b) = b

either : {A B C : Set} → (A → C) → (B → C) → Sum A B → C
either f g (inl a) = f a
either f g (inr b) = g b

iterN : {A : Set} → N → (N → A → A) → A → A
iterN ze s z = z
iterN (su n) s z = s n (iterN n s z)

data Ty : Set where
  nat  : Ty
  top  : Ty
  bot  : Ty
  arr  : Ty → Ty → Ty
  prod : Ty → Ty → Ty
  sum  : Ty → Ty → Ty

data Con : Set where
  nil  : Con
  snoc : Con → Ty → Con

data Var : Con → Ty → Set where
  vz : {G : Con}{A : Ty} → Var (snoc G A) A
  vs : {G : Con}{A B : Ty} → Var G A → Var (snoc G B) A

data Tm : Con → Ty → Set where
  var   : {G : Con}{A : Ty} → Var G A → Tm G A
  lam   : {G : Con}{A B : Ty} → Tm (snoc G A) B → Tm G (arr A B)
  app   : {G : Con}{A B : Ty} → Tm G (arr A B) → Tm G A → Tm G B
  tt    : {G : Con} → Tm G top
  tpair : {G : Con}{A B : Ty} → Tm G A → Tm G B → Tm G (prod A B)
  fst   : {G : Con}{A B : Ty} → Tm G (prod A B) → Tm G A
  snd   : {G : Con}{A B : Ty} → Tm G (prod A B) → Tm G B
  left  : {G : Con}{A B : Ty} → Tm G A → Tm G (sum A B)
  right : {G : Con}{A B : Ty} → Tm G B → Tm G (sum A B)
  cse   : {G : Con}{A B C : Ty} → Tm G (sum A B) → Tm G (arr A C) → Tm G (arr B C) → Tm G C
  zero  : {G : Con} → Tm G nat
  suc   : {G : Con} → Tm G nat → Tm G nat
  rec   : {G : Con}{A : Ty} → Tm G nat → Tm G (arr nat (arr A A)) → Tm G A → Tm G A

data Void : Set where

Val : Ty → Set
Val nat = N
Val top = One
Val bot = Void
Val (arr A B) = Val A → Val B
Val (prod A B) = Pair (Val A) (Val B)
Val (sum A B) = Sum (Val A) (Val B)

Env : Con → Set
Env nil = One
Env (snoc G A) = Pair (Env G) (Val A)

lookup : {G : Con}{A : Ty} → Var G A → Env G → Val A
lookup vz (pair _ x) = x
lookup (vs v) (pair e _) = lookup v e

eval : {G : Con}{A : Ty} → Tm G A → Env G → Val A
eval (var x) e = lookup x e
eval (lam t) e = λ x → eval t (pair e x)
eval (app t u) e = eval t e (eval u e)
eval tt e = unit
eval (tpair t u) e = pair (eval t e) (eval u e)
eval (fst t) e = proj1 (eval t e)
eval (snd t) e = proj2 (eval t e)
eval (left t) e = inl (eval t e)
eval (right t) e = inr (eval t e)
eval (cse t u v) e = either (eval u e) (eval v e) (eval t e)
eval zero e = ze
eval (suc t) e = su (eval t e)
eval (rec t u v) e = iterN (eval t e) (eval u e) (eval v e)

run : {A : Ty} → Tm nil A → Val A
run t = eval t unit

v0 : {G : Con}{A : Ty} → Tm (snoc G A) A
v0 = var vz

v1 : {G : Con}{A B : Ty} → Tm (snoc (snoc G A) B) A
v1 = var (vs vz)

v2 : {G : Con}{A B C : Ty} → Tm (snoc (snoc (snoc G A) B) C) A
v2 = var (vs (vs vz))

tbool : Ty
tbool = sum top top

ttrue : {G : Con} → Tm G tbool
ttrue = left tt

tfalse : {G : Con} → Tm G tbool
tfalse = right tt

ifthenelse : {G : Con}{A : Ty} → Tm G (arr tbool (arr A (arr A A)))
ifthenelse = lam (lam (lam (cse v2 (lam v2) (lam v1))))

times4 : {G : Con}{A : Ty} → Tm G (arr (arr A A) (arr A A))
times4 = lam (lam (app v1 (app v1 (app v1 (app v1 v0)))))

add : {G : Con} → Tm G (arr nat (arr nat nat))
add = lam (rec v0 (lam (lam (lam (suc (app v1 v0))))) (lam v0))

mul : {G : Con} → Tm G (arr nat (arr nat nat))
mul = lam (rec v0 (lam (lam (lam (app (app add (app v1 v0)) v0)))) (lam zero))

fact : {G : Con} → Tm G (arr nat nat)
fact = lam (rec v0 (lam (lam (app (app mul (suc v1)) v0))) (suc zero))

t2 : {G : Con} → Tm G nat
t2 = suc (suc zero)

t3 : {G : Con} → Tm G nat
t3 = suc t2

n2 : N
n2 = su (su ze)

n3 : N
n3 = su n2

n4 : N
n4 = su n3

n6 : N
n6 = su (su n4)

n8 : N
n8 = su (su n6)

n12 : N
n12 = su (su (su (su n8)))

n24 : N
n24 = su (su (su (su (su (su (su (su (su (su (su (su n12)))))))))))

env : Env (snoc (snoc nil nat) (arr nat nat))
env = pair (pair unit n3) (λ n → su n)

open1 : Tm (snoc (snoc nil nat) (arr nat nat)) nat
open1 = fst (snd (tpair tt (tpair (app v0 v1) tt)))

isTrue : Tm nil (arr tbool nat)
isTrue = lam (cse v0 (lam t3) (lam t2))

plus2 : N → N
plus2 = λ n → su (su n)

isTrueVal : Val (arr tbool nat)
isTrueVal = λ b → either (λ _ → n3) (λ _ → n2) b

test1 : Eq N (run (app (app add t2) t3)) (su n4)
test1 = refl

test2 : Eq N (run (app (app mul t3) (suc t3))) n12
test2 = refl

test3 : Eq N (run (app fact (suc t3))) n24
test3 = refl

test4 : Eq N (run (app (app times4 (lam (suc (suc v0)))) zero)) n8
test4 = refl

test5 : Eq N (run (app (app (app ifthenelse tfalse) t2) t3)) n3
test5 = refl

test6 : Eq N (eval open1 env) n4
test6 = refl

test7 : Eq (N → N) (run (app add t2)) plus2
test7 = refl

test8 : Eq (Val (arr tbool nat)) (run isTrue) isTrueVal
test8 = refl
"""

STLC_DATA_IDRIS = r"""
data N : Type where
  Ze : N
  Su : N -> N

data One : Type where
  MkOne : One

data Both : Type -> Type -> Type where
  MkBoth : {a, b : Type} -> a -> b -> Both a b

data Or : Type -> Type -> Type where
  Inl : {a, b : Type} -> a -> Or a b
  Inr : {a, b : Type} -> b -> Or a b

data Id : (a : Type) -> a -> a -> Type where
  Refl : {a : Type} -> {x : a} -> Id a x x

proj1 : {a, b : Type} -> Both a b -> a
proj1 (MkBoth x _) = x

proj2 : {a, b : Type} -> Both a b -> b
proj2 (MkBoth _ y) = y

either : {a, b, c : Type} -> (a -> c) -> (b -> c) -> Or a b -> c
either f k (Inl x) = f x
either f k (Inr y) = k y

iterN : {a : Type} -> N -> (N -> a -> a) -> a -> a
iterN Ze s z = z
iterN (Su n) s z = s n (iterN n s z)

data Ty : Type where
  TNat  : Ty
  TTop  : Ty
  TBot  : Ty
  TArr  : Ty -> Ty -> Ty
  TProd : Ty -> Ty -> Ty
  TSum  : Ty -> Ty -> Ty

data Con : Type where
  CNil  : Con
  CSnoc : Con -> Ty -> Con

data Var : Con -> Ty -> Type where
  Vz : {g : Con} -> {a : Ty} -> Var (CSnoc g a) a
  Vs : {g : Con} -> {a, b : Ty} -> Var g a -> Var (CSnoc g b) a

data Tm : Con -> Ty -> Type where
  TVar   : {g : Con} -> {a : Ty} -> Var g a -> Tm g a
  TLam   : {g : Con} -> {a, b : Ty} -> Tm (CSnoc g a) b -> Tm g (TArr a b)
  TApp   : {g : Con} -> {a, b : Ty} -> Tm g (TArr a b) -> Tm g a -> Tm g b
  TT     : {g : Con} -> Tm g TTop
  TPair  : {g : Con} -> {a, b : Ty} -> Tm g a -> Tm g b -> Tm g (TProd a b)
  TFst   : {g : Con} -> {a, b : Ty} -> Tm g (TProd a b) -> Tm g a
  TSnd   : {g : Con} -> {a, b : Ty} -> Tm g (TProd a b) -> Tm g b
  TLeft  : {g : Con} -> {a, b : Ty} -> Tm g a -> Tm g (TSum a b)
  TRight : {g : Con} -> {a, b : Ty} -> Tm g b -> Tm g (TSum a b)
  TCase  : {g : Con} -> {a, b, c : Ty} -> Tm g (TSum a b) -> Tm g (TArr a c) -> Tm g (TArr b c) -> Tm g c
  TZero  : {g : Con} -> Tm g TNat
  TSuc   : {g : Con} -> Tm g TNat -> Tm g TNat
  TRec   : {g : Con} -> {a : Ty} -> Tm g TNat -> Tm g (TArr TNat (TArr a a)) -> Tm g a -> Tm g a

data Bottom : Type where

Val : Ty -> Type
Val TNat = N
Val TTop = One
Val TBot = Bottom
Val (TArr x y) = Val x -> Val y
Val (TProd x y) = Both (Val x) (Val y)
Val (TSum x y) = Or (Val x) (Val y)

Env : Con -> Type
Env CNil = One
Env (CSnoc d x) = Both (Env d) (Val x)

lookup : {g : Con} -> {a : Ty} -> Var g a -> Env g -> Val a
lookup Vz (MkBoth _ x) = x
lookup (Vs v) (MkBoth e _) = lookup v e

eval : {g : Con} -> {a : Ty} -> Tm g a -> Env g -> Val a
eval (TVar x) e = lookup x e
eval (TLam t) e = \x => eval t (MkBoth e x)
eval (TApp t u) e = eval t e (eval u e)
eval TT e = MkOne
eval (TPair t u) e = MkBoth (eval t e) (eval u e)
eval (TFst t) e = proj1 (eval t e)
eval (TSnd t) e = proj2 (eval t e)
eval (TLeft t) e = Inl (eval t e)
eval (TRight t) e = Inr (eval t e)
eval (TCase t u v) e = either (eval u e) (eval v e) (eval t e)
eval TZero e = Ze
eval (TSuc t) e = Su (eval t e)
eval (TRec t u v) e = iterN (eval t e) (eval u e) (eval v e)

run : {a : Ty} -> Tm CNil a -> Val a
run t = eval t MkOne

v0 : {g : Con} -> {a : Ty} -> Tm (CSnoc g a) a
v0 = TVar Vz

v1 : {g : Con} -> {a, b : Ty} -> Tm (CSnoc (CSnoc g a) b) a
v1 = TVar (Vs Vz)

v2 : {g : Con} -> {a, b, c : Ty} -> Tm (CSnoc (CSnoc (CSnoc g a) b) c) a
v2 = TVar (Vs (Vs Vz))

tbool : Ty
tbool = TSum TTop TTop

ttrue : {g : Con} -> Tm g tbool
ttrue = TLeft TT

tfalse : {g : Con} -> Tm g tbool
tfalse = TRight TT

ifthenelse : {g : Con} -> {a : Ty} -> Tm g (TArr tbool (TArr a (TArr a a)))
ifthenelse = TLam (TLam (TLam (TCase v2 (TLam v2) (TLam v1))))

times4 : {g : Con} -> {a : Ty} -> Tm g (TArr (TArr a a) (TArr a a))
times4 = TLam (TLam (TApp v1 (TApp v1 (TApp v1 (TApp v1 v0)))))

add : {g : Con} -> Tm g (TArr TNat (TArr TNat TNat))
add = TLam (TRec v0 (TLam (TLam (TLam (TSuc (TApp v1 v0))))) (TLam v0))

mul : {g : Con} -> Tm g (TArr TNat (TArr TNat TNat))
mul = TLam (TRec v0 (TLam (TLam (TLam (TApp (TApp add (TApp v1 v0)) v0)))) (TLam TZero))

fact : {g : Con} -> Tm g (TArr TNat TNat)
fact = TLam (TRec v0 (TLam (TLam (TApp (TApp mul (TSuc v1)) v0))) (TSuc TZero))

t2 : {g : Con} -> Tm g TNat
t2 = TSuc (TSuc TZero)

t3 : {g : Con} -> Tm g TNat
t3 = TSuc t2

n2 : N
n2 = Su (Su Ze)

n3 : N
n3 = Su n2

n4 : N
n4 = Su n3

n6 : N
n6 = Su (Su n4)

n8 : N
n8 = Su (Su n6)

n12 : N
n12 = Su (Su (Su (Su n8)))

n24 : N
n24 = Su (Su (Su (Su (Su (Su (Su (Su (Su (Su (Su (Su n12)))))))))))

env : Env (CSnoc (CSnoc CNil TNat) (TArr TNat TNat))
env = MkBoth (MkBoth MkOne n3) (\n => Su n)

open1 : Tm (CSnoc (CSnoc CNil TNat) (TArr TNat TNat)) TNat
open1 = TFst (TSnd (TPair TT (TPair (TApp v0 v1) TT)))

isTrue : Tm CNil (TArr tbool TNat)
isTrue = TLam (TCase v0 (TLam t3) (TLam t2))

plus2 : N -> N
plus2 = \n => Su (Su n)

isTrueVal : Val (TArr tbool TNat)
isTrueVal = \b => either (\_ => n3) (\_ => n2) b

test1 : Id N (run (TApp (TApp add t2) t3)) (Su n4)
test1 = Refl

test2 : Id N (run (TApp (TApp mul t3) (TSuc t3))) n12
test2 = Refl

test3 : Id N (run (TApp fact (TSuc t3))) n24
test3 = Refl

test4 : Id N (run (TApp (TApp times4 (TLam (TSuc (TSuc v0)))) TZero)) n8
test4 = Refl

test5 : Id N (run (TApp (TApp (TApp ifthenelse tfalse) t2) t3)) n3
test5 = Refl

test6 : Id N (eval open1 env) n4
test6 = Refl

test7 : Id (N -> N) (run (TApp add t2)) plus2
test7 = Refl

test8 : Id (Val (TArr tbool TNat)) (run isTrue) isTrueVal
test8 = Refl
"""

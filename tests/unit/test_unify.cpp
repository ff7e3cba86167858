#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace thorin;
using namespace thorin::test;

namespace {
// A fresh meta of type U in the empty context, as a value.
Val* meta(World& w, Tm** out = nullptr) {
  Val* ty = vUniverse();
  MetaId m = newMeta(w, quote(w, w.perm, 0, ty), 0, {}, MetaOrigin{});
  Tm* t = mkTm(w.perm, TTag::Meta);
  t->n = m;
  if (out) *out = t;
  return eval(w, nullptr, t);
}
} // namespace

TEST_CASE("unify: solves a meta and keeps top-level names (eta-short)") {
  Program p{std::string(kChurch)};
  REQUIRE(p.ok);
  World& w = p.w;
  w.beginEntry();
  Val* m = meta(w);
  Unifier u(w);
  Val* nat = w.topHead(p.top("Nat"));
  CHECK(u.unify(0, m, nat));
  CHECK(show(w, w.metas.back().solution) == "Nat");
}

TEST_CASE("unify: convertible by unfolding, not by names") {
  Program p(std::string(kChurch) + "two : Nat = suc (suc zero)\ntwo' : Nat = add (suc zero) (suc "
                                   "zero)\nthree : Nat = suc two\n");
  REQUIRE(p.ok);
  World& w = p.w;
  w.beginEntry();
  Unifier u(w);
  CHECK(u.unify(0, w.topHead(p.top("two")), w.topHead(p.top("two'"))));
  CHECK_FALSE(u.unify(0, w.topHead(p.top("two")), w.topHead(p.top("three"))));
}

TEST_CASE("unify: occurs check fails with a reason") {
  Program p("F : U → U = λ x. x → x\n");
  REQUIRE(p.ok);
  World& w = p.w;
  w.beginEntry();
  Val* m = meta(w);
  Val* rhs = vApp(w, w.topHead(p.top("F")), m, Icit::Expl);
  Unifier u(w);
  CHECK_FALSE(u.unify(0, m, forceAll(w, rhs)));
  CHECK(u.reason.find("occurs") != std::string::npos);
}

TEST_CASE("unify: pruning removes an out-of-scope argument instead of failing") {
  Program p{"A : U = U\n"};
  REQUIRE(p.ok);
  World& w = p.w;
  w.beginEntry();
  // ?m : (x : U) → U  and  ?k : (x y : U) → U ; solve ?m x =? ?k x y at level 2.
  auto piU = [&](int n) {
    Tm* t = mkTm(w.perm, TTag::U);
    for (int i = 0; i < n; ++i) {
      Tm* p2 = mkTm(w.perm, TTag::Pi);
      p2->name = intern(i == 0 ? "y" : "x");
      p2->a = mkTm(w.perm, TTag::U);
      p2->b = t;
      t = p2;
    }
    return t;
  };
  MetaId m = newMeta(w, piU(1), 1, {}, MetaOrigin{});
  MetaId k = newMeta(w, piU(2), 2, {}, MetaOrigin{});
  Val* x = w.var(0);
  Val* y = w.var(1);
  Val* lhs = vApp(w, w.metaHead(m), x, Icit::Expl);
  // rhs = ?k x y → U
  Val* rhs = mkVal(w, VTag::Pi);
  rhs->name = intern("_");
  rhs->a = vApp(w, vApp(w, w.metaHead(k), x, Icit::Expl), y, Icit::Expl);
  rhs->body = mkTm(w.perm, TTag::U);
  Unifier u(w);
  REQUIRE(u.unify(2, lhs, rhs));
  REQUIRE(w.metas.size() == 3); // the pruned copy of ?k
  CHECK(show(w, w.metas[k].solution) == "λ x y. ?2 x");
  CHECK(show(w, w.metas[m].solution) == "λ y. ?2 y → U");
  CHECK(show(w, w.metas[2].type) == "U → U");
}

TEST_CASE("unify: a variable that escapes its scope is an error") {
  Program p{"A : U = U\n"};
  REQUIRE(p.ok);
  World& w = p.w;
  w.beginEntry();
  Tm* ty = mkTm(w.perm, TTag::U);
  MetaId m = newMeta(w, ty, 0, {}, MetaOrigin{});
  Unifier u(w);
  CHECK_FALSE(u.unify(1, w.metaHead(m), w.var(0)));
  CHECK(u.reason.find("escape") != std::string::npos);
}

TEST_CASE("unify: eta for functions and pairs") {
  Program p(R"(
Eq : {A : U} → A → A → U = λ {A} x y. (P : A → U) → P x → P y
refl : {A : U}{x : A} → Eq x x = λ P px. px
etaF : (f : U → U) → Eq f (λ x. f x) = λ f. refl
etaP : (p : U × U) → Eq p (p.1, p.2) = λ p. refl
)");
  CHECK(p.ok);
  CHECK(p.err.str() == "");
}

TEST_CASE("unify: eta-contracting a solution body before its binders are built") {
  World w;
  auto app = [&](Tm* f, Tm* x) { return mkApp(w.perm, f, x, Icit::Expl); };
  Tm* f = mkTm(w.perm, TTag::Top);
  f->n = 0;
  Icit ee[] = {Icit::Expl, Icit::Expl};
  // λ x y. f x y  ⇒  f, no binders left
  size_t n = 2;
  CHECK(etaContractBody(w.perm, app(app(f, w.varTm(1)), w.varTm(0)), ee, n) == f);
  CHECK(n == 0);
  // λ x y. f y x: not an eta-redex
  n = 2;
  Tm* swapped = app(app(f, w.varTm(0)), w.varTm(1));
  CHECK(etaContractBody(w.perm, swapped, ee, n) == swapped);
  CHECK(n == 2);
  // λ x y. f z y, z bound outside (index 2 under x y): only y goes, and z
  // becomes index 1 (only that path is copied)
  n = 2;
  Tm* r = etaContractBody(w.perm, app(app(f, w.varTm(2)), w.varTm(0)), ee, n);
  CHECK(n == 1);
  REQUIRE(r->tag == TTag::App);
  CHECK(r->a == f);
  CHECK(r->b->tag == TTag::Var);
  CHECK(r->b->n == 1);
  // λ x y. f x x y: x also occurs in the head, so nothing is contracted
  n = 2;
  Tm* fxxy = app(app(app(f, w.varTm(1)), w.varTm(1)), w.varTm(0));
  CHECK(etaContractBody(w.perm, fxxy, ee, n) == fxxy);
  CHECK(n == 2);
  // λ x. λ z. f z  (the body's own λ): contracted to λ x. f
  n = 1;
  Tm* lam = mkTm(w.perm, TTag::Lam);
  lam->a = app(f, w.varTm(0));
  CHECK(etaContractBody(w.perm, lam, ee, n) == f);
  CHECK(n == 1);
  // a mismatched icit stops the contraction
  Icit ei[] = {Icit::Expl, Icit::Impl};
  n = 2;
  Tm* body = app(app(f, w.varTm(1)), w.varTm(0));
  CHECK(etaContractBody(w.perm, body, ei, n) == body);
}

TEST_CASE("unify: variable terms are shared and outlive a rollback of perm") {
  World w;
  auto mark = w.perm.mark();
  Tm* v3 = w.varTm(3);
  w.perm.reset(mark);
  (void)mkTm(w.perm, TTag::U); // reuses the released memory
  CHECK(w.varTm(3) == v3);
  CHECK(v3->tag == TTag::Var);
  CHECK(v3->n == 3);
  CHECK(w.varTm(5000)->n == 5000); // deep indices: fresh terms
}

// runtime/cse.hpp: which repeated primitive expressions are bound once.
#include <doctest/doctest.h>

#include <string>

#include "runtime/cse.hpp"

using namespace thorin;
using namespace thorin::rt;

namespace {

// Erased terms built by hand; primitives are told apart by their ids only.
struct Terms {
  Arena a;
  ETm* mk(ETag t, uint32_t n = 0) {
    ETm* e = a.make<ETm>();
    e->tag = t;
    e->n = n;
    return e;
  }
  ETm* var(uint32_t i) { return mk(ETag::Var, i); }
  ETm* lit(uint64_t v) {
    ETm* e = mk(ETag::Lit, 0);
    e->bits = v;
    return e;
  }
  ETm* prim(uint32_t id, std::initializer_list<ETm*> args) {
    ETm* e = mk(ETag::Prim, uint32_t(args.size()));
    e->prim = id;
    e->args = a.array<ETm*>(args.size());
    uint32_t i = 0;
    for (ETm* x : args)
      e->args[i++] = x;
    return e;
  }
  ETm* let(ETm* v, ETm* body) {
    ETm* e = mk(ETag::Let);
    e->a = v;
    e->b = body;
    return e;
  }
  ETm* lam(uint32_t n, ETm* body) {
    ETm* e = mk(ETag::Lam, n);
    e->a = body;
    return e;
  }
};

// A compact rendering: v0, 5, p3(…), let(…; …), λ2.(…).
std::string show(const ETm* t) {
  switch (t->tag) {
  case ETag::Var: return "v" + std::to_string(t->n);
  case ETag::Lit: return std::to_string(t->bits);
  case ETag::Let: return "let(" + show(t->a) + "; " + show(t->b) + ")";
  case ETag::Lam: return "λ" + std::to_string(t->n) + ".(" + show(t->a) + ")";
  case ETag::Prim: {
    std::string s = "p" + std::to_string(t->prim) + "(";
    for (uint32_t i = 0; i < t->n; ++i)
      s += (i ? ", " : "") + show(t->args[i]);
    return s + ")";
  }
  default: return "?";
  }
}

} // namespace

TEST_CASE("cse: an index computed twice is bound once, other variables move up") {
  Terms m;
  // set a (idx (k % 1000)) (get a (idx (k % 1000)) + 1), a = v0, k = v1
  auto index = [&] { return m.prim(2, {m.prim(1, {m.var(1), m.lit(1000)})}); };
  ETm* t = m.prim(4, {m.var(0), index(), m.prim(5, {m.prim(3, {m.var(0), index()}), m.lit(1)})});
  std::string before = show(t);
  ETm* r = shareCommonSubterms(m.a, t);
  CHECK(show(r) == "let(p2(p1(v1, 1000)); p4(v1, v0, p5(p3(v1, v0), 1)))");
  CHECK(show(t) == before); // (the input is not changed)
}

TEST_CASE("cse: inside a λ, at the innermost term that holds both") {
  Terms m;
  auto twice = [&] { return m.prim(2, {m.prim(1, {m.var(0), m.lit(3)})}); };
  ETm* body = m.prim(7, {twice(), twice()});
  ETm* r = shareCommonSubterms(m.a, m.lam(1, m.prim(8, {m.var(0), body})));
  CHECK(show(r) == "λ1.(p8(v0, let(p2(p1(v0, 3)); p7(v0, v0))))");
}

TEST_CASE("cse: one primitive on atoms is computed again (a let costs as much)") {
  Terms m;
  // run (fuel / 2) (run (fuel - fuel / 2) s)
  ETm* t =
      m.prim(9, {m.prim(6, {m.var(0), m.lit(2)}),
                 m.prim(9, {m.prim(5, {m.var(0), m.prim(6, {m.var(0), m.lit(2)})}), m.var(1)})});
  CHECK(shareCommonSubterms(m.a, t) == t);
}

TEST_CASE("cse: nothing moves before a computation that may fail first") {
  Terms m;
  // f (x / y) (idx (k % 7)) (idx (k % 7)): x / y is evaluated first
  auto index = [&] { return m.prim(2, {m.prim(1, {m.var(0), m.lit(7)})}); };
  ETm* t = m.prim(9, {m.prim(6, {m.var(2), m.var(3)}), index(), index()});
  CHECK(shareCommonSubterms(m.a, t) == t);
  // f y (idx (k % 7)) (idx (k % 7)): a variable first
  ETm* u = m.prim(9, {m.var(2), index(), index()});
  CHECK(show(shareCommonSubterms(m.a, u)) == "let(p2(p1(v0, 7)); p9(v3, v0, v0))");
}

TEST_CASE("cse: not under a binder, not different expressions") {
  Terms m;
  // idx (k % 7) + (let y = 1; idx (k % 7)): the second one under the let's binder
  auto index = [&](uint32_t k, uint64_t n) { return m.prim(2, {m.prim(1, {m.var(k), m.lit(n)})}); };
  ETm* t = m.prim(5, {index(0, 7), m.let(m.lit(1), index(1, 7))});
  CHECK(shareCommonSubterms(m.a, t) == t);
  // idx (k % 7) + idx (k % 8)
  ETm* u = m.prim(5, {index(0, 7), index(0, 8)});
  CHECK(shareCommonSubterms(m.a, u) == u);
}

TEST_CASE("cse: a deep expression is not searched without end") {
  Terms m;
  ETm* t = m.var(0);
  for (int i = 0; i < 3000; ++i)
    t = m.prim(uint32_t(1 + i % 2), {t, m.lit(uint64_t(i % 5))});
  CHECK(shareCommonSubterms(m.a, t) == t);
}

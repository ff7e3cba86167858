#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace thorin;
using namespace thorin::test;

TEST_CASE("eval: Church arithmetic normalizes") {
  Program p(std::string(kChurch) + R"(
two : Nat = suc (suc zero)
four : Nat = add two two
six : Nat = mul two (suc two)
)");
  REQUIRE(p.ok);
  CHECK(p.nf("four") == "λ N s z. s (s (s (s z)))");
  CHECK(p.nf("six") == "λ N s z. s (s (s (s (s (s z)))))");
}

TEST_CASE("eval: glued top-level values keep names when quoted without unfolding") {
  Program p(std::string(kChurch) + "two : Nat = suc (suc zero)\n");
  REQUIRE(p.ok);
  World& w = p.w;
  w.beginEntry();
  Val* v = eval(w, nullptr, w.tops[p.top("two")].def);
  CHECK(show(w, quote(w, w.scratch, 0, v)) == "suc (suc zero)");
  CHECK(show(w, quote(w, w.scratch, 0, v, QuoteOpts{true, true})) == "λ N s z. s (s z)");
}

TEST_CASE("eval: let, pairs and projections") {
  Program p(R"(
A : U = U
p : U × U = (U, U → U)
q = let x = p.2; x
r : (x : U) × U = (U, U)
s = r.x
)");
  REQUIRE(p.ok);
  CHECK(p.nf("q") == "U → U");
  CHECK(p.nf("s") == "U");
}

TEST_CASE("eval: normal forms under binders use levels correctly") {
  Program p("k : U → U → U = λ x y. x\nk2 : U → U → U = λ x. k x\n");
  REQUIRE(p.ok);
  CHECK(p.nf("k2") == "λ x y. x");
}

TEST_CASE("eval: name capture is avoided when printing") {
  Program p("f : U → U → U = λ x x. x\ng : U → U → U = λ x y. x\n");
  REQUIRE(p.ok);
  CHECK(p.nf("f") == "λ x x'. x'");
}

TEST_CASE("StableVector: elements keep their addresses; resize shrinks and grows") {
  StableVector<int, 2> v; // blocks of 4
  std::vector<int*> addr;
  for (int i = 0; i < 10; ++i) {
    v.push_back(i);
    addr.push_back(&v[size_t(i)]);
  }
  for (int i = 0; i < 10; ++i) {
    CHECK(&v[size_t(i)] == addr[size_t(i)]);
    CHECK(v[size_t(i)] == i);
  }
  CHECK(v.back() == 9);
  v.resize(3);
  CHECK(v.size() == 3);
  CHECK(v.back() == 2);
  v.resize(6, 7);
  CHECK(v.size() == 6);
  CHECK(v[3] == 7);
  CHECK(v[5] == 7);
  CHECK(&v[5] == addr[5]); // (blocks are kept for regrowth)
  v.push_back(11);
  CHECK(v[6] == 11);
}

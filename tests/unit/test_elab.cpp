#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace thorin;
using namespace thorin::test;

TEST_CASE("elab: implicit arguments are inserted") {
  Program p(R"(
id : {A : U} → A → A = λ x. x
idU = id U
five : {A : U} → A → A = id id id id id
)");
  REQUIRE(p.ok);
  CHECK(p.def("idU") == "id {?0} U");
  CHECK(p.type("idU") == "?0");
  CHECK(show(p.w, p.w.metas[0].solution) == "U");
}

TEST_CASE("elab: named implicit arguments and binders") {
  Program p(R"(
const : {A B : U} → A → B → A = λ {B = b} x y. x
c1 = const {B = U} U
)");
  REQUIRE(p.ok);
  CHECK(p.def("const") == "λ {A} {b} x y. x");
  CHECK(p.def("c1") == "const {?0} {U} U");
}

TEST_CASE("elab: Church numerals prove 2 + 2 = 4 by refl") {
  Program p(std::string(kChurch) + R"(
two : Nat = suc (suc zero)
four : Nat = suc (suc two)
p : Eq (add two two) four = refl
)");
  CHECK(p.ok);
  CHECK(p.err.str() == "");
}

TEST_CASE("elab: a wrong proof is a type mismatch with names kept") {
  Program p(std::string(kChurch) + R"(
two : Nat = suc (suc zero)
three : Nat = suc two
p : Eq two three = refl
)");
  CHECK_FALSE(p.ok);
  std::string e = p.err.str();
  CHECK(e.find("test.thorin:12:20: error: type mismatch") != std::string::npos);
  CHECK(e.find("expected type: Eq {Nat} two three") != std::string::npos);
}

TEST_CASE("elab: unsolved metas are reported with position and type") {
  Program p("f = λ x. x\n");
  CHECK_FALSE(p.ok);
  CHECK(p.err.str().find("test.thorin:1:7: error: unsolved metavariable ?0 (type of 'x')") == 0);
}

TEST_CASE("elab: a failed definition leaves the world unchanged") {
  Program p("A : U = U\n");
  REQUIRE(p.ok);
  size_t tops = p.w.tops.size(), metas = p.w.metas.size();
  CHECK_FALSE(p.tl.replInput("B : A = λ x. _"));
  CHECK(p.w.tops.size() == tops);
  CHECK(p.w.metas.size() == metas);
  CHECK(p.w.lookupTop(intern("B")) == -1);
  CHECK(p.tl.replInput("B : U = A"));
  CHECK(p.w.lookupTop(intern("B")) >= 0);
}

TEST_CASE("elab: top-level shadowing keeps old references intact") {
  Program p(R"(
A : U = U
f : A = U
A : U = U → U
g : A = λ x. x
)");
  REQUIRE(p.ok);
  CHECK(p.type("f") == "A@test.thorin:2:1"); // the shadowed A is told apart
  CHECK(p.type("g") == "A");
  CHECK(p.w.tops[p.top("f")].type->n != p.w.tops[p.top("g")].type->n);
}

TEST_CASE("elab: sigma types with dependent second components") {
  Program p(R"(
Sg : U = (A : U) × A
x : Sg = (U, U)
y : x.1 = x.2
)");
  CHECK(p.ok);
}

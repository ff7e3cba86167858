// Shared helpers for the unit tests: elaborate a program from a string and
// look at the result.
#pragma once
#include <sstream>
#include <string>

#include "core/elab.hpp"
#include "core/eval.hpp"
#include "core/lexer.hpp"
#include "core/parser.hpp"
#include "core/pretty.hpp"
#include "core/toplevel.hpp"

namespace thorin::test {

struct Program {
  World w;
  Options opts;
  std::ostringstream out, err;
  TopLevel tl{w, out, err, opts};
  bool ok;
  explicit Program(const std::string& text) {
    ok = tl.loadSource("test.thorin", text, "test.thorin");
  }
  TopId top(const char* name) {
    int32_t id = w.lookupTop(intern(name));
    REQUIRE(id >= 0);
    return TopId(id);
  }
  std::string type(const char* name) { return show(w, w.tops[top(name)].type); }
  std::string def(const char* name) { return show(w, w.tops[top(name)].def); }
  std::string nf(const char* name) {
    w.beginEntry();
    return show(w, normalize(w, w.scratch, 0, nullptr, w.tops[top(name)].def));
  }
};

inline const char* kChurch = R"(
Nat : U = (N : U) → (N → N) → N → N
zero : Nat = λ N s z. z
suc : Nat → Nat = λ n N s z. s (n N s z)
add : Nat → Nat → Nat = λ a b N s z. a N s (b N s z)
mul : Nat → Nat → Nat = λ a b N s z. a N (b N s) z
Eq : {A : U} → A → A → U = λ {A} x y. (P : A → U) → P x → P y
refl : {A : U}{x : A} → Eq x x = λ P px. px
)";

} // namespace thorin::test

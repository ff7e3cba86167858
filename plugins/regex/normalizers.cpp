// The regex plugin's elaboration side: a pattern given as a string literal
// is parsed while the program is checked, and a malformed one is an error
// located inside the literal (core/elab.cpp, checkLiteral).
#include "core/axiom.hpp"
#include "pattern.hpp"
#include "regex_axioms.hpp"

namespace thorin::plug::regex {
namespace {

std::optional<LiteralError> checkPattern(std::string_view pattern) {
  try {
    parse(pattern);
  } catch (SyntaxError& e) {
    return LiteralError{"invalid regular expression: " + e.message, e.offset, e.length};
  }
  return std::nullopt;
}

} // namespace

void normalizers() { AxiomTable::get()[id(ax::re)].checkLiteral = checkPattern; }

} // namespace thorin::plug::regex

#include "lower.hpp"

#include <string>
#include <unordered_map>

namespace thorin::rt {

static std::unordered_map<std::string, Lowering>& table() {
  static std::unordered_map<std::string, Lowering> t;
  return t;
}

void registerLowering(std::string_view axiom, Lowering l) { table()[std::string(axiom)] = l; }

Lowering findLowering(std::string_view axiom) {
  auto it = table().find(std::string(axiom));
  return it == table().end() ? nullptr : it->second;
}

static std::unordered_map<std::string, WordLowering>& wordTable() {
  static std::unordered_map<std::string, WordLowering> t;
  return t;
}

void registerWordLowering(std::string_view axiom, WordLowering l) {
  wordTable()[std::string(axiom)] = l;
}

WordLowering findWordLowering(std::string_view axiom) {
  auto it = wordTable().find(std::string(axiom));
  return it == wordTable().end() ? nullptr : it->second;
}

} // namespace thorin::rt

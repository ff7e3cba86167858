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

} // namespace thorin::rt

#include "inspect.hpp"

namespace thorin {

static std::vector<Inspector>& registry() {
  static std::vector<Inspector> all;
  return all;
}

void registerInspector(Inspector i) {
  for (auto& r : registry())
    if (r.command == i.command) return void(r = std::move(i));
  registry().push_back(std::move(i));
}

const std::vector<Inspector>& inspectors() { return registry(); }

const Inspector* findInspector(std::string_view command) {
  for (auto& r : registry())
    if (r.command == command) return &r;
  return nullptr;
}

} // namespace thorin

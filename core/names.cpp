#include "names.hpp"

#include <deque>
#include <string>
#include <unordered_map>

namespace thorin {
namespace {
struct Interner {
  std::deque<std::string> strings; // deque: stable addresses for the views
  std::unordered_map<std::string_view, uint32_t> ids;
  Interner() {
    strings.emplace_back();
    ids.emplace(strings.back(), 0);
  }
};
Interner& interner() {
  static Interner* in = new Interner(); // never destroyed: names outlive everything
  return *in;
}
} // namespace

Name intern(std::string_view s) {
  auto& in = interner();
  if (auto it = in.ids.find(s); it != in.ids.end()) return Name{it->second};
  in.strings.emplace_back(s);
  uint32_t id = uint32_t(in.strings.size() - 1);
  in.ids.emplace(in.strings.back(), id);
  return Name{id};
}

std::string_view str(Name n) { return interner().strings[n.id]; }
uint32_t nameCount() { return uint32_t(interner().strings.size()); }

namespace names {
const Name underscore = intern("_");
const Name U = intern("U");
const Name Type = intern("Type");
} // namespace names

} // namespace thorin

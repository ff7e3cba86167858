#include "primitive.hpp"

#include <deque>
#include <unordered_map>

namespace thorin::rt {

static std::deque<Prim>& table() {
  static std::deque<Prim> t;
  return t;
}
// By axiom name (views of the table's names, which a deque keeps in place).
static std::unordered_map<std::string_view, Prim*>& byName() {
  static std::unordered_map<std::string_view, Prim*> m;
  return m;
}

void registerPrim(Prim p) {
  if (auto it = byName().find(p.axiom); it != byName().end()) {
    Prim& q = *it->second;
    p.id = q.id;
    p.axiom.swap(q.axiom); // (the key views q's name: q keeps that string)
    q = std::move(p);
    return;
  }
  p.id = uint32_t(table().size());
  Prim& q = table().emplace_back(std::move(p));
  byName().emplace(q.axiom, &q);
}

const Prim* findPrim(std::string_view axiom) {
  auto it = byName().find(axiom);
  return it == byName().end() ? nullptr : it->second;
}

const Prim& primById(uint32_t id) { return table()[id]; }

} // namespace thorin::rt

#include "prims.hpp"

#include <deque>

namespace thorin::rt {

static std::deque<Prim>& table() {
  static std::deque<Prim> t;
  return t;
}

void registerPrim(Prim p) {
  for (auto& q : table())
    if (q.axiom == p.axiom) {
      p.id = q.id;
      q = std::move(p);
      return;
    }
  p.id = uint32_t(table().size());
  table().push_back(std::move(p));
}

const Prim* findPrim(std::string_view axiom) {
  for (auto& q : table())
    if (q.axiom == axiom) return &q;
  return nullptr;
}

const Prim& primById(uint32_t id) { return table()[id]; }

} // namespace thorin::rt

#include "term.hpp"

#include "guard.hpp"

namespace thorin {

bool freeIn(const Tm* t, Ix ix) {
  guard();
  switch (t->tag) {
  case TTag::Var: return t->n == ix;
  case TTag::InsertedMeta: return ix < t->m && t->mask[t->m - 1 - ix];
  case TTag::App:
  case TTag::Pair: return freeIn(t->a, ix) || freeIn(t->b, ix);
  case TTag::Pi:
  case TTag::Sigma: return freeIn(t->a, ix) || freeIn(t->b, ix + 1);
  case TTag::Lam: return freeIn(t->a, ix + 1);
  case TTag::Proj1:
  case TTag::Proj2:
  case TTag::Field: return freeIn(t->a, ix);
  case TTag::Let: return freeIn(t->a, ix) || freeIn(t->b, ix) || freeIn(t->c, ix + 1);
  case TTag::If: return freeIn(t->a, ix) || freeIn(t->b, ix) || freeIn(t->c, ix);
  case TTag::Arr:
    for (uint32_t i = 0; i < t->n; ++i)
      if (freeIn(t->elems[i], ix)) return true;
    return false;
  default: return false;
  }
}

bool mentionsTop(const Tm* t, TopId id) {
  guard();
  switch (t->tag) {
  case TTag::Top: return t->n == id;
  case TTag::Lam: return mentionsTop(t->a, id);
  case TTag::Proj1:
  case TTag::Proj2:
  case TTag::Field: return mentionsTop(t->a, id);
  case TTag::App:
  case TTag::Pair:
  case TTag::Pi:
  case TTag::Sigma: return mentionsTop(t->a, id) || mentionsTop(t->b, id);
  case TTag::Let:
  case TTag::If: return mentionsTop(t->a, id) || mentionsTop(t->b, id) || mentionsTop(t->c, id);
  case TTag::Arr:
    for (uint32_t i = 0; i < t->n; ++i)
      if (mentionsTop(t->elems[i], id)) return true;
    return false;
  default: return false;
  }
}

} // namespace thorin

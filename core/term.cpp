#include "term.hpp"

#include <algorithm>

#include "guard.hpp"

namespace thorin {

// 1 + a bound on the indices t mentions (see Tm::freeBound1), cached in every
// node it visits.
static uint32_t freeBound1(const Tm* t) {
  if (t->freeBound1) return t->freeBound1;
  guard();
  auto under = [](uint32_t b1) { return b1 >= 255 ? 255u : b1 > 1 ? b1 - 1 : 1u; };
  auto join = [](uint32_t x, uint32_t y) { return std::max(x, y); };
  uint32_t b1 = 1;
  switch (t->tag) {
  case TTag::Var:
  case TTag::Known: b1 = t->n + 2; break;
  case TTag::InsertedMeta:
    for (uint32_t i = 0; i < t->m; ++i) // (mask[m - 1 - ix]: index ix)
      if (t->mask[i]) {
        b1 = t->m - i + 1;
        break;
      }
    break;
  case TTag::App:
  case TTag::Pair: b1 = join(freeBound1(t->a), freeBound1(t->b)); break;
  case TTag::Pi:
  case TTag::Sigma: b1 = join(freeBound1(t->a), under(freeBound1(t->b))); break;
  case TTag::Lam: b1 = under(freeBound1(t->a)); break; // (as freeIn: not the filter)
  case TTag::Proj1:
  case TTag::Proj2:
  case TTag::Field: b1 = freeBound1(t->a); break;
  case TTag::Let:
    b1 = join(join(freeBound1(t->a), freeBound1(t->b)), under(freeBound1(t->c)));
    break;
  case TTag::If: b1 = join(join(freeBound1(t->a), freeBound1(t->b)), freeBound1(t->c)); break;
  case TTag::Case:
    b1 = freeBound1(t->a);
    for (uint32_t i = 0; i < t->n; ++i) {
      uint32_t k = freeBound1(t->alts[i].body);
      b1 = join(b1, k >= 255 ? 255u : k > t->alts[i].arity + 1 ? k - t->alts[i].arity : 1u);
    }
    break;
  case TTag::Arr:
    for (uint32_t i = 0; i < t->n; ++i)
      b1 = join(b1, freeBound1(t->elems[i]));
    break;
  case TTag::Embed: return 255; // (not cached: its term may come later)
  default: break;
  }
  t->freeBound1 = uint8_t(std::min<uint32_t>(b1, 255));
  return t->freeBound1;
}

bool freeIn(const Tm* t, Ix ix) {
  guard();
  if (uint32_t b1 = freeBound1(t); b1 < 255 && ix + 1 >= b1) return false;
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
  case TTag::Case:
    if (freeIn(t->a, ix)) return true;
    for (uint32_t i = 0; i < t->n; ++i)
      if (freeIn(t->alts[i].body, ix + t->alts[i].arity)) return true;
    return false;
  case TTag::Arr:
    for (uint32_t i = 0; i < t->n; ++i)
      if (freeIn(t->elems[i], ix)) return true;
    return false;
  case TTag::Embed: // (not quoted yet: maybe, unless it is known not to depend on its variable)
    return t->b ? freeIn(t->b, ix) : !(t->m && ix == 0);
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
  case TTag::Case:
    if (mentionsTop(t->a, id)) return true;
    for (uint32_t i = 0; i < t->n; ++i)
      if (mentionsTop(t->alts[i].body, id)) return true;
    return false;
  case TTag::Arr:
    for (uint32_t i = 0; i < t->n; ++i)
      if (mentionsTop(t->elems[i], id)) return true;
    return false;
  default: return false;
  }
}

} // namespace thorin

// Normalizers of the NAME plugin: what elaboration may compute of its axioms.
// A normalizer gets the arguments in weak head normal form and returns the
// simplified value, or nullptr to leave the application stuck.
#include "NAME_axioms.hpp"
#include "core/eval.hpp"
#include "core/literal.hpp"

namespace thorin::plug::NAME {
namespace {

bool isI64(const Val* v) { return v->tag == VTag::Lit && LitKind(v->n) == LitKind::I64; }

// diff a b: a - b on literals; diff x x = 0 for the same variable.
Val* diff(World& w, Val* const* a) {
  if (isI64(a[0]) && isI64(a[1]))
    return vLit(w, LitKind::I64, a[0]->bits - a[1]->bits); // (wraps, as I64 does)
  if (a[0]->tag == VTag::Rigid && a[1]->tag == VTag::Rigid && a[0]->n == a[1]->n && !a[0]->sp &&
      !a[1]->sp)
    return vLit(w, LitKind::I64, 0);
  return nullptr;
}

} // namespace

void normalizers() { AxiomTable::get()[id(ax::i64_diff)].norm = diff; }

} // namespace thorin::plug::NAME

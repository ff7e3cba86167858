// Run-time implementations of the NAME plugin's axioms: the interpreter
// calls them, and compiled code where a tier has no lowering of its own.
// Their machine signature lets the tiers keep operands unboxed.
#include "NAME_axioms.hpp"
#include "runtime/primitive.hpp"

namespace thorin::plug::NAME {
namespace {

rt::V diff(const rt::V* a, uint32_t) {
  return rt::ofI64(int64_t(uint64_t(rt::toI64(a[0])) - uint64_t(rt::toI64(a[1]))));
}

} // namespace

void prims() {
  using rt::MType;
  rt::registerPrim(id(ax::i64_diff), diff, {MType::I64, MType::I64}, MType::I64);
}

} // namespace thorin::plug::NAME

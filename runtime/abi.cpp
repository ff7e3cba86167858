#include "abi.hpp"

#include "core/guard.hpp"
#include "engine.hpp"
#include "primitive.hpp"

using namespace thorin;
using namespace thorin::rt;
using V = thorin_v;

extern "C" {
int64_t thorin_rt_toI64(V v) { return toI64(v); }
V thorin_rt_ofI64(int64_t x) { return ofI64(x); }
double thorin_rt_toF64(V v) { return toF64(v); }
V thorin_rt_ofF64(double d) { return ofF64(d); }
uint32_t thorin_rt_elems_shaped(V arr, uint32_t rep, uint32_t len) {
  return arrElemsShaped(arr, OTag(rep), len);
}
void thorin_rt_fail(const char* msg, uint32_t span) { fail(msg, span); }
[[noreturn]] void thorin_rt_deopt(uint32_t owner, uint32_t reason) {
  throwDeopt(owner, DeoptReason(reason));
}
void thorin_rt_poll() {
  gPollLimit = gStackLimit; // (tripped by Ctrl-C, or a real stack overflow)
  poll();
}
V thorin_rt_apply(V f, uint32_t n, const V* args) { return apply(f, n, args); }
V thorin_rt_call_global(uint32_t id, const V* args) {
  return Runtime::current()->callGlobal(id, args);
}
V thorin_rt_global(uint32_t id) { return Runtime::current()->globalValue(id); }
V thorin_rt_lit(const ETm* t) { return Runtime::current()->eval(const_cast<ETm*>(t), nullptr); }
V thorin_rt_closure(void* code, uint32_t arity, uint32_t nfree) {
  return mkClosure(reinterpret_cast<Code>(code), arity, nfree);
}
V thorin_rt_pair(V a, V b) { return mkPair(a, b); }
V thorin_rt_proj(V p, uint32_t which) { return proj(p, which); }
V thorin_rt_arr(uint32_t n) { return mkArr(n); }
V thorin_rt_con(uint32_t index, uint32_t n) { return mkCon(index, n); }
V thorin_rt_cell(uint32_t index, uint32_t n) { return mkCell(index, n); }
V thorin_rt_share(V v) { return share(v); }
// A primitive's run-time implementation with its arguments as scalars: the
// slow paths of compiled code call these (one call instruction, no argument
// array to build), which keeps functions with many checks small to compile.
V thorin_rt_prim1(uint32_t prim, uint32_t span, V a) {
  V args[1] = {a};
  return primById(prim).fn(args, span);
}
V thorin_rt_prim2(uint32_t prim, uint32_t span, V a, V b) {
  V args[2] = {a, b};
  return primById(prim).fn(args, span);
}
V thorin_rt_prim3(uint32_t prim, uint32_t span, V a, V b, V c) {
  V args[3] = {a, b, c};
  return primById(prim).fn(args, span);
}
V thorin_rt_prim4(uint32_t prim, uint32_t span, V a, V b, V c, V d) {
  V args[4] = {a, b, c, d};
  return primById(prim).fn(args, span);
}
V thorin_rt_prim_pap(uint32_t prim, uint32_t span, uint32_t n, const V* args) {
  return mkPrimPap(prim, span, n, args);
}
}

namespace thorin::rt {

const std::vector<AbiSymbol>& abiSymbols() {
#define THORIN_ABI(f)                                                                              \
  AbiSymbol { #f, reinterpret_cast < void*>(&f) }
  static const std::vector<AbiSymbol> symbols = {
      THORIN_ABI(thorin_rt_toI64),        THORIN_ABI(thorin_rt_ofI64),
      THORIN_ABI(thorin_rt_toF64),        THORIN_ABI(thorin_rt_ofF64),
      THORIN_ABI(thorin_rt_fail),         THORIN_ABI(thorin_rt_deopt),
      THORIN_ABI(thorin_rt_poll),         THORIN_ABI(thorin_rt_apply),
      THORIN_ABI(thorin_rt_call_global),  THORIN_ABI(thorin_rt_global),
      THORIN_ABI(thorin_rt_lit),          THORIN_ABI(thorin_rt_closure),
      THORIN_ABI(thorin_rt_pair),         THORIN_ABI(thorin_rt_proj),
      THORIN_ABI(thorin_rt_arr),          THORIN_ABI(thorin_rt_con),
      THORIN_ABI(thorin_rt_cell),         THORIN_ABI(thorin_rt_prim_pap),
      THORIN_ABI(thorin_rt_prim1),        THORIN_ABI(thorin_rt_prim2),
      THORIN_ABI(thorin_rt_prim3),        THORIN_ABI(thorin_rt_prim4),
      THORIN_ABI(thorin_rt_elems_shaped), THORIN_ABI(thorin_rt_share),
  };
#undef THORIN_ABI
  return symbols;
}

} // namespace thorin::rt

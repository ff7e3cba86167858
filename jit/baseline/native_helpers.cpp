// What baseline code calls (native_helpers.hpp).
#include "native_helpers.hpp"

#include "core/guard.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

int64_t blToI64(V v) { return toI64(v); }
V blOfI64(int64_t x) { return ofI64(x); }
V blOfF64(double d) { return ofF64(d); }
V blGlobal(Runtime* rt, uint32_t id) { return rt->globalValue(id); }
V blCallGlobal(Runtime* rt, uint32_t id, const V* args) { return rt->callGlobal(id, args); }
V blLit(Runtime* rt, ETm* t) { return rt->eval(t, nullptr); }
V blArr(uint32_t n) { return mkArr(n); }
bool blElemsShaped(V arr, uint32_t rep, uint32_t len) {
  return arrElemsShaped(arr, OTag(rep), len);
}
void blPoll() {
  gPollLimit = gStackLimit; // (tripped by Ctrl-C, or a real stack overflow)
  poll();
}

} // namespace thorin::rt::baseline_gen

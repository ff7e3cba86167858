// What baseline code calls: plain C++ functions (the SysV convention),
// whose addresses the generated code holds.
#pragma once
#include <cstdint>

#include "runtime/engine.hpp"

namespace thorin::rt::baseline_gen {

int64_t blToI64(V v);
V blOfI64(int64_t x);
V blOfF64(double d);
V blGlobal(Runtime* rt, uint32_t id);
V blCallGlobal(Runtime* rt, uint32_t id, const V* args);
V blLit(Runtime* rt, ETm* t);
V blArr(uint32_t n);
bool blElemsShaped(V arr, uint32_t rep, uint32_t len);
// A poll for Ctrl-C and stack overflow (`rsp` below the poll limit).
void blPoll();

} // namespace thorin::rt::baseline_gen

// The C ABI compiled code calls: one set of runtime entry points for both
// tiers (the baseline tier takes their addresses; the LLVM tier declares them
// in its modules and gives ORC their addresses, abiSymbols()). They work on
// the process's runtime (Runtime::current()). Defined in the executable.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "heap.hpp"

namespace thorin::rt {
struct ETm;
}

extern "C" {
using thorin_v = uint64_t;
int64_t thorin_rt_toI64(thorin_v v);
thorin_v thorin_rt_ofI64(int64_t x);
double thorin_rt_toF64(thorin_v v);
thorin_v thorin_rt_ofF64(double d);
/// Checks the elements of an array have one representation (a matrix's
/// rows: rt::arrElemsShaped); 1 if so.
uint32_t thorin_rt_elems_shaped(thorin_v arr, uint32_t rep, uint32_t len);
[[noreturn]] void thorin_rt_fail(const char* msg, uint32_t span);
[[noreturn]] void thorin_rt_deopt(uint32_t owner, uint32_t reason);
/// A safepoint: Ctrl-C, a stack overflow, a tier-up due.
void thorin_rt_poll();
thorin_v thorin_rt_apply(thorin_v f, uint32_t n, const thorin_v* args);
thorin_v thorin_rt_call_global(uint32_t id, const thorin_v* args);
thorin_v thorin_rt_global(uint32_t id);
/// A literal of the erased term `t` (arrays, big naturals, strings).
thorin_v thorin_rt_lit(const thorin::rt::ETm* t);
thorin_v thorin_rt_closure(void* code, uint32_t arity, uint32_t nfree);
thorin_v thorin_rt_pair(thorin_v a, thorin_v b);
thorin_v thorin_rt_proj(thorin_v p, uint32_t which);
thorin_v thorin_rt_arr(uint32_t n);
/// A data value of constructor `index` with n fields (to be stored).
thorin_v thorin_rt_con(uint32_t index, uint32_t n);
/// A compact cell of constructor `index` with n fields (runtime/heap.hpp).
thorin_v thorin_rt_cell(uint32_t index, uint32_t n);
/// Marks v shared if it is an array (a second reference to it may be used:
/// runtime/share.hpp); returns v.
thorin_v thorin_rt_share(thorin_v v);
/// A primitive's run-time implementation with its arguments as scalars (no
/// argument array to build: slow paths stay one call instruction).
thorin_v thorin_rt_prim1(uint32_t prim, uint32_t span, thorin_v a);
thorin_v thorin_rt_prim2(uint32_t prim, uint32_t span, thorin_v a, thorin_v b);
thorin_v thorin_rt_prim3(uint32_t prim, uint32_t span, thorin_v a, thorin_v b, thorin_v c);
thorin_v thorin_rt_prim4(uint32_t prim, uint32_t span, thorin_v a, thorin_v b, thorin_v c,
                         thorin_v d);
/// A primitive applied to fewer arguments than its arity: a closure.
thorin_v thorin_rt_prim_pap(uint32_t prim, uint32_t span, uint32_t n, const thorin_v* args);
}

namespace thorin::rt {

struct AbiSymbol {
  std::string_view name;
  void* address;
};
/// Every entry point above, by name (what the LLVM tier gives ORC).
const std::vector<AbiSymbol>& abiSymbols();

} // namespace thorin::rt

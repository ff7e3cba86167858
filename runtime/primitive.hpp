// Run-time implementations of axioms ("lowerings" in MimIR's terms), bound by
// axiom name by the plugin that owns them. The interpreter calls `fn`; the
// JIT either inlines an LLVM lowering (jit/lower.hpp) or calls `fn`.
#pragma once
#include <string>
#include <string_view>

#include "heap.hpp"

namespace thorin::rt {

/// The machine type of a value in an unboxed worker (None: boxed word).
enum class MType : uint8_t { None, I64, F64, Bool };

/// `args` has exactly `arity` words; `span` locates run-time errors.
using PrimFn = V (*)(const V* args, uint32_t span);

struct Prim {
  std::string axiom; // "%core.i64.add"
  uint32_t arity;
  PrimFn fn;
  MType args[4] = {}; // machine signature when all are not None (worker-eligible)
  MType result = MType::None;
  uint32_t id = 0;
  // Its value's machine type when `result` is not given (a conversion from Nat).
  MType value = MType::None;
};

void registerPrim(Prim p);
const Prim* findPrim(std::string_view axiom);
const Prim& primById(uint32_t id);

} // namespace thorin::rt

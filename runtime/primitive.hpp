// Run-time implementations of axioms ("lowerings" in MimIR's terms): the
// runtime's column of the axiom table (core/axiom.hpp), filled by the plugin
// that owns each axiom. The interpreter calls `fn`; the tiers either inline
// a lowering of their own or call `fn`.
#pragma once
#include <string>
#include <vector>

#include "core/axiom.hpp"
#include "heap.hpp"

namespace thorin::rt {

/// The machine type of a value in an unboxed worker (None: boxed word).
enum class MType : uint8_t { None, I64, F64, Bool };

/// The machine type values of the type axiom `type` have (I64, F64, Bool), or None.
MType machineType(AxiomId type);

/// `args` has exactly the axiom's arity of words; `span` locates run-time errors.
using PrimFn = V (*)(const V* args, uint32_t span);

struct Prim {
  AxiomId axiom = kNoAxiom; // (its row: name, arity, facts)
  uint32_t arity = 0;       // the axiom's declared arity
  PrimFn fn = nullptr;
  MType args[kMaxAxiomArity] = {}; // machine signature when all are not None (worker-eligible)
  MType result = MType::None;
  // Its value's machine type when `result` is not given (a conversion from Nat).
  MType value = MType::None;
  // Bit i: argument i may be kept, handed on or updated in place (an owned
  // read, runtime/share.hpp); else the primitive only looks at it.
  uint32_t keeps = ~0u;
};

/// Binds `axiom` to its run-time implementation. The machine signature
/// (`args`, `result`, `value`) says which machine types the tiers may keep
/// its operands and result in.
void registerPrim(AxiomId axiom, PrimFn fn, std::initializer_list<MType> args = {},
                  MType result = MType::None, MType value = MType::None);
/// Says which arguments of `axiom`'s primitive it may keep, hand on or
/// update in place (bit i: argument i); the others it only looks at.
void primKeeps(AxiomId axiom, uint32_t mask);
/// Plugins told which compiled code is dropped (a reload, a
/// deoptimization): the ids whose LLVM code went, the code compiled against
/// them included (the LLVM tier calls codeDropped), so that what a plugin
/// made for that code goes with it (the regex plugin's matchers).
void onCodeDropped(void (*fn)(const std::vector<uint32_t>& ids));
void codeDropped(const std::vector<uint32_t>& ids);
/// The primitive of `axiom`, or nullptr (no code: the axiom stays stuck).
/// Its arity is the axiom's declared one (known once its `.ax` is elaborated).
const Prim* findPrim(AxiomId axiom);
/// The primitive of an axiom that has one (erased terms name only those).
const Prim& primById(AxiomId axiom);
/// `prim` applied to its first n < arity arguments: a closure taking the
/// rest (the arguments are shared: it may be called again).
V mkPrimPap(uint32_t prim, uint32_t span, uint32_t n, const V* args);

/// The plugins whose code is registered, in order, for the tiers that bind
/// their own parts later (the LLVM tier, loaded on its first compilation):
/// `llvmLibrary` is the plugin's LLVM half, "" if it has none outside the
/// LLVM module.
struct PluginCode {
  std::string name;
  std::string llvmLibrary;
};
void notePluginCode(std::string name, std::string llvmLibrary);
const std::vector<PluginCode>& pluginCode();

} // namespace thorin::rt

// Code generation of the baseline tier (baseline_tier.hpp): x86-64 for hot
// first-order functions, with its own register allocation.
//
// The functions it takes are small expressions (arithmetic, comparisons,
// conditionals, lets, calls) whose calls of themselves in tail position are
// loops. Values have a class: I64 or Bool in general registers, F64 in xmm
// registers, or words (Nat and Idx immediates, pointers to arrays…), whose
// operations have a fast path inline and call the primitive for the rest.
// Variables — a loop's parameters and accumulator, lets — get homes:
// callee-saved registers while there are some (xmm8–xmm14 for F64), else
// stack slots; intermediate values live in caller-saved registers and are
// saved around calls. A self-call that is not a tail call is inlined, as a
// loop nested in the caller's, up to a depth that keeps the copies small:
// the recursion unrolled as gcc -O2 unrolls fib. A loop over words is
// emitted twice, the second time knowing what checks at its entry and back
// edges established (Nat counters are immediates, arrays have the length
// their type says).
//
// The pieces (jit/baseline): pure analyses of erased bodies — value classes
// (value_class), loop plans (loop_plan), entry facts (entry_facts) — the
// frame and register allocation (frame), the module's functions and their
// signatures (module_gen), and the emitter of one worker, FnGen
// (fn_gen.hpp), whose members the emit_*.cpp files define by concern.
#pragma once
#include <asmjit/x86.h>

#include <atomic>
#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/engine.hpp"

namespace thorin::rt {

/// One function of a module: where it is and how to unwind through it.
struct BaselineFn {
  asmjit::Label label;
  size_t start = 0, end = 0; // offsets in the module's code
  std::vector<uint8_t> cfa;  // DWARF call frame instructions of its prologue
};

/// What one compilation made: the workers of `root` and of the functions
/// it calls (each `int64_t f(int64_t…)`, called through a slot), and root's
/// boxed entry (`V f(Closure*, const V* args)`).
struct BaselineModuleCode {
  std::vector<std::pair<TopId, BaselineFn>> workers;
  BaselineFn entry;
  /// Slots of this module's workers (stored when the code is in place).
  std::unordered_map<TopId, std::unique_ptr<std::atomic<void*>>> slots;
  std::unordered_set<TopId> calls; // workers of other modules it calls
};

/// Appends v in DWARF's unsigned LEB128 (call frame instructions, FDEs).
void appendUleb(std::vector<uint8_t>& o, uint64_t v);

/// Where calls of `id`'s worker go if an earlier module has one, else null.
using ExistingSlot = std::function<std::atomic<void*>*(TopId id)>;

/// Emits root's module into `code`; false if a function it needs has no
/// baseline lowering (nothing usable was emitted).
bool generateBaseline(Runtime& rt, asmjit::CodeHolder& code, TopId root,
                      const ExistingSlot& existing, BaselineModuleCode& out);

} // namespace thorin::rt

// The baseline tier: a hot first-order function (on I64, F64, Nat, Idx,
// arrays) is compiled at once, in microseconds, to straightforward x86-64
// code (jit/baseline/ (codegen.cpp and the emit_*.cpp files): its own register allocation, asmjit as the
// assembler), while LLVM compiles the optimized code in the background — as
// V8's Sparkplug or HotSpot's C1 come before their optimizing compilers. LLVM's first compilation in a process takes ~15 ms
// (loading libLLVM, its first pass pipelines); a recursive function such as
// fib does most of a short run's work meanwhile.
//
// Calls of a baseline worker go through a slot; when LLVM's worker for the
// same function is ready, the compile thread stores it there, so even a run
// that never leaves the baseline code moves to the optimized code.
#pragma once
#include <atomic>
#include <memory>

#include "runtime/engine.hpp"

namespace thorin::rt {

class Baseline : public Tier {
public:
  Baseline();
  ~Baseline() override;
  /// Compiles `id` (and the functions it calls that have no baseline code
  /// yet) if its parameters and result are I64, F64 or words (not Bool) and
  /// its body is first-order: primitives, conditionals, lets, calls of
  /// top-level functions (those it cannot compile through the runtime),
  /// top-level values, array literals. Returns its entry, or nullptr
  /// (nothing compiled).
  Code compile(Runtime& rt, TopId id) override;
  /// Where calls of `id`'s worker go (nullptr if `id` has no baseline code).
  std::atomic<void*>* slot(TopId id) override;
  /// Removes the baseline code of `ids` and of every function whose code
  /// calls theirs; the globals running it become uncompiled. Every slot goes
  /// back to its baseline worker first: a slot may hold LLVM code that the
  /// caller is about to remove.
  void remove(Runtime& rt, const std::vector<TopId>& ids) override;
  /// Removes all baseline code.
  void clear(Runtime& rt) override;
  /// Is `c` the entry of baseline code?
  bool owns(Code c) const override;

  struct Impl; // (baseline_tier.cpp)

private:
  std::unique_ptr<Impl> impl_;
};

/// The baseline tier.
inline std::unique_ptr<Tier> makeBaselineTier() { return std::make_unique<Baseline>(); }

} // namespace thorin::rt

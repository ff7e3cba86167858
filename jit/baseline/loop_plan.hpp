// Loop plans of the baseline tier: what a function's calls of itself
// become — a tail call is a jump back to the top of its loop; `e ⊕ f(…)`
// under a monoid makes the loop accumulate; a call that is no tail call is
// a copy of the function, a loop nested in the caller's, a few levels deep
// (the recursion unrolled) — and the properties of terms that the loops'
// layout (inverted tests, small exits) and the order of arguments (what
// cannot fail goes first) depend on. Pure analyses of erased terms:
// nothing here emits code.
#pragma once
#include <cstddef>
#include <cstdint>

#include "baseline_lowering.hpp"
#include "runtime/engine.hpp"
#include "value_class.hpp"

namespace thorin::rt::baseline_gen {

// The loops of one function (`self`, its body with `arity` parameters).
class LoopPlan {
public:
  LoopPlan(TopId self, uint32_t arity, ETm* body, const FnSig& sig, uint32_t maxUnroll);
  // A call of the function itself.
  bool selfCall(ETm* t) const;
  // `e ⊕ self(…)` under the accumulator's monoid.
  bool accTail(ETm* t) const;
  uint32_t accPrim() const { return accPrim_; } // the accumulator's monoid (UINT32_MAX: none)
  BaselineOp accOp() const { return accOp_; }
  int64_t identity() const { return identity_; }
  uint32_t unroll() const { return unroll_; } // levels of copies (unrollDepth)
  uint32_t arity() const { return arity_; }

private:
  void accumulates(ETm* t);
  size_t callsOfSelf(ETm* t, bool tail);
  uint32_t unrollDepth(ETm* body);

  TopId self_;
  uint32_t arity_;
  FnSig sig_;
  uint32_t accPrim_ = UINT32_MAX;
  BaselineOp accOp_ = BaselineOp::Add;
  int64_t identity_ = 0;
  uint32_t unroll_ = 0;
};

// A test without calls, small enough to be made again at back edges
// (at most `budget` nodes).
bool simpleTest(ETm* t, size_t budget = 16);
// An arm that is a small exit: copied where a back edge picks it.
bool smallExit(ETm* t);
// Does t call anything (a function, not a primitive)?
bool callsAnything(ETm* t);
// Cannot fail or loop: no call, no division, no primitive that may call
// its run-time implementation.
bool total(ETm* t);

} // namespace thorin::rt::baseline_gen

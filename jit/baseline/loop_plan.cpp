// Loop plans (loop_plan.hpp).
#include "loop_plan.hpp"

#include <algorithm>

#include "operand.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

LoopPlan::LoopPlan(TopId self, uint32_t arity, ETm* body, const FnSig& sig, uint32_t maxUnroll)
    : self_(self), arity_(arity), sig_(sig) {
  accumulates(body);
  unroll_ = std::min(unrollDepth(body), maxUnroll);
}

bool LoopPlan::selfCall(ETm* t) const {
  return t->tag == ETag::App && t->a->tag == ETag::Global && t->a->n == self_ && arity_ == t->n;
}

bool LoopPlan::accTail(ETm* t) const {
  return t->tag == ETag::Prim && t->n == 2 && t->prim == accPrim_ && selfCall(t->args[1]);
}

// The accumulator's monoid: that of the first `e ⊕ self(…)` in tail
// position.
void LoopPlan::accumulates(ETm* t) {
  switch (t->tag) {
  case ETag::Let: accumulates(t->b); return;
  case ETag::If:
    accumulates(t->b);
    accumulates(t->c);
    return;
  case ETag::Case:
    for (uint32_t i = 0; i < t->n; ++i)
      accumulates(t->args[i]);
    return;
  case ETag::Prim: {
    if (accPrim_ != UINT32_MAX || t->n != 2 || !selfCall(t->args[1])) return;
    const Prim& p = primById(t->prim);
    const BaselineLowering* l = findBaselineLowering(p.axiom);
    if (p.result == MType::I64 && l && (l->op == BaselineOp::Add || l->op == BaselineOp::Mul) &&
        findBaselineMonoid(p.axiom, identity_)) {
      accPrim_ = t->prim;
      accOp_ = l->op;
    }
    return;
  }
  default: return;
  }
}

// Self-calls of t that are calls, not loops (not in tail position).
size_t LoopPlan::callsOfSelf(ETm* t, bool tail) {
  switch (t->tag) {
  case ETag::Let: return callsOfSelf(t->a, false) + callsOfSelf(t->b, tail);
  case ETag::If:
    return callsOfSelf(t->a, false) + callsOfSelf(t->b, tail) + callsOfSelf(t->c, tail);
  case ETag::Case: {
    size_t n = callsOfSelf(t->a, false);
    for (uint32_t i = 0; i < t->n; ++i)
      n += callsOfSelf(t->args[i], tail);
    return n;
  }
  default: break;
  }
  if (tail && accTail(t)) return callsOfSelf(t->args[0], false) + callsOfSelf(t->args[1], true);
  size_t n = selfCall(t) && !tail ? 1 : 0;
  forEachChild(t, 0, [&](ETm* c, uint32_t) {
    if (c) n += callsOfSelf(c, false);
  });
  return n;
}

// How deep the function is inlined into itself: with s self-calls that
// are not loops, d levels make s + s² + … + s^d copies; gcc's limits
// (depth 8, ~450 instructions of copies) are the model. Each copy's
// variables take homes; past the callee-saved registers they live in
// stack slots, so the depth also keeps them few, and a function whose
// first copy would not fit in the registers is not copied: n-queens 12
// (six variables) ran in 54 ms without a copy, 60 ms with one, while fib
// and ackermann (two) gain from copies whose variables are in slots.
constexpr uint32_t kMaxUnroll = 8;
constexpr size_t kUnrollBudget = 480; // nodes in all copies
constexpr size_t kMaxHomes = 18;      // variables of all loops
uint32_t LoopPlan::unrollDepth(ETm* body) {
  size_t s = callsOfSelf(body, true), n = countNodes(body);
  if (s == 0) return 0;
  // (Copies of functions on I64 only: the facts and in-place updates that
  // make them pay are about I64 variables.)
  for (MType m : sig_.params)
    if (m != MType::I64) return 0;
  if (sig_.result != MType::I64) return 0;
  size_t vars = arity_ + (accPrim_ != UINT32_MAX ? 1 : 0);
  if (2 * vars > kNumSaved) return 0;
  uint32_t d = 0;
  size_t total = 0, copies = 1, loops = 1;
  while (d < kMaxUnroll) {
    copies *= s;
    if (total + copies * n > kUnrollBudget || (loops + 1) * vars > kMaxHomes) break;
    total += copies * n;
    ++loops;
    ++d;
  }
  return d;
}

bool simpleTest(ETm* t, size_t budget) {
  auto ok = [&](auto& self, ETm* x) -> bool {
    if (!x || budget == 0) return false;
    --budget;
    switch (x->tag) {
    case ETag::Var:
    case ETag::Lit: return true;
    case ETag::Prim:
      for (uint32_t i = 0; i < x->n; ++i)
        if (!self(self, x->args[i])) return false;
      return true;
    case ETag::If: return self(self, x->a) && self(self, x->b) && self(self, x->c);
    default: return false;
    }
  };
  return ok(ok, t);
}

bool smallExit(ETm* t) { return t->tag != ETag::If && simpleTest(t, 6); }

bool callsAnything(ETm* t) {
  if (t->tag == ETag::App) return true;
  bool any = false;
  forEachChild(t, 0, [&](ETm* c, uint32_t) {
    if (c && !any) any = callsAnything(c);
  });
  return any;
}

bool total(ETm* t) {
  if (t->tag == ETag::App) return false;
  if (t->tag == ETag::Prim) {
    const BaselineLowering* l = findBaselineLowering(primById(t->prim).axiom);
    if (!l || l->op == BaselineOp::Div || l->op == BaselineOp::Mod ||
        (!intOp(l->op) && !floatOp(l->op)))
      return false;
  }
  bool ok = true;
  forEachChild(t, 0, [&](ETm* c, uint32_t) {
    if (c && ok) ok = total(c);
  });
  return ok;
}

} // namespace thorin::rt::baseline_gen

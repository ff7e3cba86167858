// Back edges (fn_gen.hpp): a tail call of the function is its new
// parameters, then a jump back to the top of its loop — after a poll
// (emit_poll.cpp), and in an inverted loop after its test made again on
// the new values.
#include "fn_gen.hpp"

#include "core/literal.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

namespace {

// An argument that calls something is computed last, when the others
// cannot fail: its value is taken from the result location. UINT32_MAX:
// none; UINT32_MAX - 1: several (none is last).
uint32_t calledLast(ETm* call) {
  uint32_t last = UINT32_MAX;
  for (uint32_t i = 0; i < call->n; ++i)
    if (call->args[i]->tag == ETag::App) last = last == UINT32_MAX ? i : UINT32_MAX - 1;
  if (last < call->n)
    for (uint32_t i = 0; i < call->n; ++i)
      if (i != last && !total(call->args[i])) last = UINT32_MAX;
  return last;
}

} // namespace

// A tail call of the function in loop l: the new parameters, then back
// to the top. All arguments are computed before a home changes; an
// argument `p ± k` of its own I64 parameter p is an update in place.
// `lastArm`: the loop's exit comes next.
void FnGen::backEdge(Loop& l, ETm* call, bool lastArm) {
  using Arg = BackArg;
  uint32_t last = calledLast(call);
  std::vector<Arg> args = backEdgeArgs(l, call, last);
  std::vector<bool> same(args.size());   // (parameters passed unchanged)
  std::vector<bool> immNew(args.size()); // (new values known to be immediates)
  for (size_t i = 0; i < args.size(); ++i) {
    same[i] = args[i].kind == Arg::Same;
    immNew[i] = args[i].v.immWord;
  }
  // The test on the new values before they go to the homes, when the arm
  // it may pick instead of this one is a small exit (ackermann's `n + 1`
  // after `ack (m - 1) (ack m (n - 1))`): that exit then reads them where
  // they are, and only a loop that goes on writes its homes.
  // (Not with an accumulator: fib's nest, its loops going on about as
  // often as they stop, ran slower — 25.8 → 30.1 ms for fib 36.)
  ETm* exitArm = l.inverted ? (l.arm == 1 ? body_->c : body_->b) : nullptr;
  bool early = exitArm && smallExit(exitArm) && !useFacts_ && plan_.accPrim() == UINT32_MAX;
  for (size_t i = 0; early && i < args.size(); ++i)
    if (l.params[i].cls != MType::I64 || args[i].kind == Arg::FInPlace) early = false;
  if (early) {
    testBeforeHomes(l, call, args, last, exitArm);
    return;
  }
  writeHomes(l, call, args, last);
  if (useFacts_ && l.depth == 0) // the new values must meet the facts, else the plain loop
    factChecks(l.params, plainGo_, true, &same, &immNew);
  if (!l.inverted) {
    pollCheck(l, true);
    belowKnown_.clear();
    return;
  }
  retest(l, lastArm);
}

// The new values of a back edge's parameters: each computed (into a
// register: a home may change), passed unchanged, or an update in place.
std::vector<FnGen::BackArg> FnGen::backEdgeArgs(Loop& l, ETm* call, uint32_t last) {
  using Arg = BackArg;
  std::vector<Arg> args;
  // `k + 1` on a Nat counter: computed after the others (it cannot fail),
  // once they have checked k (`idx k`), so that it needs no overflow check.
  auto counter = [&](uint32_t i) {
    ETm* x = call->args[i];
    if (l.params[i].cls != MType::None || x->tag != ETag::Prim || x->n != 2 ||
        x->args[0]->tag != ETag::Var || x->args[1]->tag != ETag::Lit)
      return false;
    const BaselineLowering* low = findBaselineLowering(primById(x->prim).axiom);
    return low && low->op == BaselineOp::NatAdd;
  };
  std::vector<uint32_t> later;
  for (uint32_t i = 0; i < call->n; ++i) {
    ETm* x = call->args[i];
    if (i == last || (counter(i) && last == UINT32_MAX)) {
      if (i != last) later.push_back(i);
      args.push_back({Arg::Value, {}, true});
      continue;
    }
    if (isVar(x, l.params[i])) {
      args.push_back({Arg::Same, {}, true});
      continue;
    }
    if (l.params[i].cls == MType::I64 && x->tag == ETag::Prim && x->n == 2 &&
        isVar(x->args[0], l.params[i]) && x->args[1]->tag == ETag::Lit &&
        LitKind(x->args[1]->n) == LitKind::I64 && fits32(int64_t(x->args[1]->bits))) {
      const BaselineLowering* low = findBaselineLowering(primById(x->prim).axiom);
      if (low && (low->op == BaselineOp::Add || low->op == BaselineOp::Sub)) {
        args.push_back(
            {Arg::InPlace, immOpnd(int64_t(x->args[1]->bits)), low->op == BaselineOp::Add});
        continue;
      }
    }
    if (l.params[i].isF() && l.params[i].kind == Opnd::Reg && x->tag == ETag::Prim && x->n == 2 &&
        isVar(x->args[0], l.params[i])) {
      // acc ⊕ e for an F64 accumulator in a register: e, then ⊕ in place.
      const BaselineLowering* low = findBaselineLowering(primById(x->prim).axiom);
      if (low && (low->op == BaselineOp::FAdd || low->op == BaselineOp::FSub ||
                  low->op == BaselineOp::FMul || low->op == BaselineOp::FDiv)) {
        Opnd e = as(eval(x->args[1]), MType::F64);
        if (e.kind == Opnd::Imm || (e.kind == Opnd::Reg && !e.temp)) e = copyToTemp(e);
        Arg a{Arg::FInPlace, e, true};
        a.fop = low->op == BaselineOp::FAdd   ? x86::Inst::kIdAddsd
                : low->op == BaselineOp::FSub ? x86::Inst::kIdSubsd
                : low->op == BaselineOp::FMul ? x86::Inst::kIdMulsd
                                              : x86::Inst::kIdDivsd;
        args.push_back(a);
        continue;
      }
    }
    Opnd v = as(eval(x), l.params[i].cls);
    if (v.kind == Opnd::Reg && !v.temp) v = copyToTemp(v); // (a home: it may change)
    if (v.kind == Opnd::Mem) v = copyToTemp(v);
    args.push_back({Arg::Value, v, true});
  }
  for (uint32_t i : later) {
    Opnd c = as(eval(call->args[i]->args[1]), MType::None);
    if (isVar(call->args[i]->args[0], l.params[i]) && c.kind == Opnd::Imm && (c.imm & 1) &&
        c.imm < (int64_t(1) << 30) && knownBelow(l.params[i], int64_t(1) << 30)) {
      args[i] = {Arg::InPlace, immOpnd(c.imm - 1), true}; // (k += c: no overflow)
      args[i].v.immWord = true;
      continue;
    }
    Opnd v = as(eval(call->args[i]), l.params[i].cls);
    if (v.kind == Opnd::Reg && !v.temp) v = copyToTemp(v);
    if (v.kind == Opnd::Mem) v = copyToTemp(v);
    args[i].v = v;
  }
  return args;
}

// The test on the new values before they go to the homes (see backEdge):
// the exit arm reads them where they are; the loop that goes on writes
// its homes, polls and jumps to its arm.
void FnGen::testBeforeHomes(Loop& l, ETm* call, std::vector<BackArg>& args, uint32_t last,
                            ETm* exitArm) {
  using Arg = BackArg;
  if (last < call->n) {
    MType m = callInto(call->args[last]);
    Opnd v = as(resultLocation(m), MType::I64);
    args[last] = {Arg::Value, copyToTemp(v), true};
    release(v);
  }
  std::vector<Opnd> vars(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == Arg::Same) {
      vars[i] = l.params[i];
      continue;
    }
    if (args[i].kind == Arg::InPlace) {
      Opnd t = copyToTemp(l.params[i]);
      a_.emit(args[i].add ? x86::Inst::kIdAdd : x86::Inst::kIdSub, t.op(), args[i].v.op());
      args[i] = {Arg::Value, t, true};
    }
    vars[i] = asVariable(args[i].v);
  }
  belowKnown_.clear();
  Label on = a_.newLabel();
  std::vector<Opnd> inner = std::exchange(env_, vars);
  int arm = l.arm;
  branch(body_->a, arm == 1, on);
  tailBranch(body_->a, arm != 1, exitArm); // (the loop's exit: not what follows)
  env_ = std::move(inner);
  mergeAt(on);
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == Arg::Value) {
      move(l.params[i], args[i].v);
      release(args[i].v);
    }
  pollCheck(l, false);
  a_.jmp(l.armOf[arm]);
  belowKnown_.clear();
}

// The new values into the homes (an argument that calls something first,
// before anything uses rax, xmm0).
void FnGen::writeHomes(Loop& l, ETm* call, std::vector<BackArg>& args, uint32_t last) {
  using Arg = BackArg;
  if (last < call->n) {
    MType m = callInto(call->args[last]);
    Opnd v = as(resultLocation(m), l.params[last].cls);
    move(l.params[last], v); // (before anything uses rax, xmm0)
    release(v);
    args[last].kind = Arg::Same;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == Arg::InPlace)
      a_.emit(args[i].add ? x86::Inst::kIdAdd : x86::Inst::kIdSub, l.params[i].op(),
              args[i].v.op());
    else if (args[i].kind == Arg::FInPlace) {
      a_.emit(args[i].fop, l.params[i].xmm, args[i].v.op());
      release(args[i].v);
    } else if (args[i].kind == Arg::Value) {
      move(l.params[i], args[i].v);
      release(args[i].v);
    }
  }
}

// The loop's test on the new values, as at its head (whose variables
// are the parameters): to the arm it picks, this one if it is picked.
void FnGen::retest(Loop& l, bool lastArm) {
  pollCheck(l, false);
  belowKnown_.clear();
  std::vector<Opnd> inner = std::exchange(env_, l.params);
  int arm = l.arm;
  branch(body_->a, arm == 1, l.armOf[arm]);
  // The other arm here when it is a small exit (ackermann's `n + 1`).
  ETm* other = arm == 1 ? body_->c : body_->b;
  if (smallExit(other))
    tailBranch(body_->a, arm != 1, other, lastArm);
  else
    a_.jmp(l.armOf[1 - arm]);
  env_ = std::move(inner);
  belowKnown_.clear();
}

} // namespace thorin::rt::baseline_gen

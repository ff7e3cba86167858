// Ctrl-C polls in loops of known length. A compiled loop (a self tail call)
// polls every 1024 iterations (see loopPoll in jit/llvm/llvm_tier.cpp); the call in
// the poll keeps LLVM from vectorizing or unrolling it. When scalar evolution
// can bound the loop's trip count by a value computed before the loop, the
// poll is needed only when that bound (times the loop's size) is large: the
// loop is versioned on it (by unswitching), and the short version has no
// poll. A loop of a billion iterations still polls; one over an array does
// not.
#include "bounded_loops.hpp"

#include <algorithm>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopRotation.h>
#include <llvm/Transforms/Scalar/SimpleLoopUnswitch.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Vectorize/LoopVectorize.h>

namespace thorin::rt {
using namespace llvm;

namespace {

// The work (iterations × instructions of the loop) a loop that calls nothing
// may do without polling Ctrl-C: a few ms at most. A bound on iterations
// alone would let a loop with a body of thousands of instructions run for
// seconds.
constexpr uint64_t kMaxUnpolledWork = uint64_t(1) << 24;

uint64_t instructionsIn(Loop* loop) {
  uint64_t n = 0;
  for (BasicBlock* bb : loop->blocks())
    n += bb->size();
  return n;
}

// Does the loop call nothing but its poll (and intrinsics)? A call can take
// any time (a run-time primitive on a big Nat, an allocation), so a loop with
// one keeps polling whatever its length.
bool callsOnlyThePoll(Loop* loop) {
  for (BasicBlock* bb : loop->blocks())
    for (Instruction& i : *bb)
      if (auto* call = dyn_cast<CallBase>(&i)) {
        if (isa<IntrinsicInst>(call)) continue;
        Function* callee = call->getCalledFunction();
        if (callee && callee->getName() == "thorin_rt_poll") continue;
        return false;
      }
  return true;
}

bool unpollFunction(Function& f, FunctionAnalysisManager& fam) {
  if (f.isDeclaration()) return false;
  unsigned kind = f.getContext().getMDKindID(kTickMetadata);
  std::vector<BranchInst*> ticks;
  for (BasicBlock& bb : f)
    if (auto* br = dyn_cast<BranchInst>(bb.getTerminator()))
      if (br->isConditional() && br->getMetadata(kind)) ticks.push_back(br);
  if (ticks.empty()) return false;
  auto& li = fam.getResult<LoopAnalysis>(f);
  auto& se = fam.getResult<ScalarEvolutionAnalysis>(f);
  bool changed = false;
  for (BranchInst* br : ticks) {
    Loop* loop = li.getLoopFor(br->getParent());
    BasicBlock* pre = loop ? loop->getLoopPreheader() : nullptr;
    if (!pre || !callsOnlyThePoll(loop)) continue;
    const SCEV* max = se.getSymbolicMaxBackedgeTakenCount(loop);
    if (isa<SCEVCouldNotCompute>(max) || !max->getType()->isIntegerTy()) continue;
    SCEVExpander expander(se, f.getDataLayout(), "trips");
    if (!expander.isSafeToExpand(max)) continue;
    Value* trips = expander.expandCodeFor(max, nullptr, pre->getTerminator());
    IRBuilder<> b(pre->getTerminator());
    Value* mayRunLong = b.CreateICmpUGT(
        trips,
        ConstantInt::get(trips->getType(),
                         kMaxUnpolledWork / std::max<uint64_t>(1, instructionsIn(loop))),
        "long");
    // The poll runs when its own condition holds and the loop may run long.
    IRBuilder<> at(br);
    Value* c = br->getCondition();
    // (The tick is the successor that holds the poll's volatile load.)
    auto holdsPoll = [](BasicBlock* bb) {
      for (Instruction& i : *bb)
        if (auto* ld = dyn_cast<LoadInst>(&i); ld && ld->isVolatile()) return true;
      return false;
    };
    bool tickOnTrue = holdsPoll(br->getSuccessor(0));
    if (!tickOnTrue && !holdsPoll(br->getSuccessor(1))) continue;
    br->setCondition(tickOnTrue ? at.CreateAnd(c, mayRunLong)
                                : at.CreateOr(c, at.CreateNot(mayRunLong)));
    br->setMetadata(kind, nullptr);
    changed = true;
  }
  return changed;
}

} // namespace

bool unpollBoundedLoops(Module& m, FunctionAnalysisManager& fam, ModuleAnalysisManager& mam) {
  bool changed = false;
  for (Function& f : m)
    if (unpollFunction(f, fam)) {
      changed = true;
      fam.invalidate(f, PreservedAnalyses::none());
    }
  if (!changed) return false;
  FunctionPassManager fpm;
  fpm.addPass(createFunctionToLoopPassAdaptor(SimpleLoopUnswitchPass(/*NonTrivial=*/true),
                                              /*UseMemorySSA=*/true));
  fpm.addPass(SimplifyCFGPass());
  fpm.addPass(createFunctionToLoopPassAdaptor(LoopRotatePass()));
  fpm.addPass(LoopVectorizePass());
  fpm.addPass(InstCombinePass());
  fpm.addPass(SimplifyCFGPass());
  ModulePassManager mpm;
  mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(m, mam);
  return true;
}

} // namespace thorin::rt

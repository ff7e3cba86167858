#include "recursive_inline.hpp"

#include <vector>

#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace thorin::rt {

using namespace llvm;

namespace {
// A body of at most this many instructions (after O2) is small enough that
// the call — frame, stack check, spills — is a large part of what one
// invocation costs. Copies are inlined level by level, up to kMaxDepth
// levels and kMaxTotal instructions of copies, as gcc -O2 unrolls fib
// (depth 8, ~450 instructions); the baseline tier does the same
// (jit/baseline/codegen.cpp). Measured (`--jit=eager --no-baseline`, compile
// included): ackermann(3, 11) 170–190 ms at depth 1, 125 ms at depth 4 and
// at 8, which compiles 3–4 ms longer; fib 36 runs as fast at every depth.
// n-queens' body (45) ran no faster unrolled and took longer to compile.
constexpr size_t kMaxBody = 40;
constexpr size_t kMaxDepth = 4;
constexpr size_t kMaxTotal = 400;
} // namespace

bool inlineSelfCalls(Module& m) {
  std::vector<Function*> fns;
  for (Function& f : m)
    if (!f.isDeclaration()) fns.push_back(&f);
  bool changed = false;
  for (Function* f : fns) {
    std::vector<CallBase*> frontier;
    size_t size = 0;
    for (BasicBlock& bb : *f)
      for (Instruction& i : bb) {
        ++size;
        if (auto* cb = dyn_cast<CallBase>(&i); cb && cb->getCalledFunction() == f)
          frontier.push_back(cb);
      }
    if (frontier.empty() || size > kMaxBody) continue;
    // The copy calls f itself (the clone maps f's arguments and blocks, not
    // f), so inlining it at f's own calls unrolls the recursion one level;
    // the calls of f it brings are the next level's.
    ValueToValueMapTy vmap;
    Function* copy = CloneFunction(f, vmap);
    copy->setLinkage(GlobalValue::InternalLinkage);
    size_t total = 0;
    for (size_t depth = 0; depth < kMaxDepth && !frontier.empty(); ++depth) {
      if (total + frontier.size() * size > kMaxTotal) break;
      total += frontier.size() * size;
      std::vector<CallBase*> next;
      for (CallBase* cb : frontier) {
        cb->setCalledFunction(copy);
        InlineFunctionInfo ifi;
        if (!InlineFunction(*cb, ifi).isSuccess()) {
          cb->setCalledFunction(f);
          continue;
        }
        for (CallBase* c : ifi.InlinedCallSites)
          if (c->getCalledFunction() == f) next.push_back(c);
      }
      frontier = std::move(next);
    }
    copy->eraseFromParent();
    changed = true;
  }
  return changed;
}

} // namespace thorin::rt

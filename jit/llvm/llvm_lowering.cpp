#include "llvm_lowering.hpp"

#include <llvm/IR/MDBuilder.h>

#include "runtime/by_axiom.hpp"

namespace thorin::rt {

static ByAxiom<Lowering>& table() {
  static ByAxiom<Lowering> t;
  return t;
}

void registerLowering(std::string_view axiom, Lowering l) { table().add(axiom, l); }

Lowering findLowering(std::string_view axiom) {
  const Lowering* l = table().find(axiom);
  return l ? *l : nullptr;
}

static ByAxiom<WordLowering>& wordTable() {
  static ByAxiom<WordLowering> t;
  return t;
}

void registerWordLowering(std::string_view axiom, WordLowering l) { wordTable().add(axiom, l); }

WordLowering findWordLowering(std::string_view axiom) {
  const WordLowering* l = wordTable().find(axiom);
  return l ? *l : nullptr;
}

} // namespace thorin::rt

namespace thorin::rt {

llvm::Value* likelyOr(llvm::IRBuilder<>& b, llvm::Value* cond,
                      const std::function<llvm::Value*()>& fast,
                      const std::function<llvm::Value*()>& slow) {
  using namespace llvm;
  Function* f = b.GetInsertBlock()->getParent();
  BasicBlock* fb = BasicBlock::Create(b.getContext(), "fast", f);
  BasicBlock* sb = BasicBlock::Create(b.getContext(), "slow", f);
  BasicBlock* jb = BasicBlock::Create(b.getContext(), "joined", f);
  b.CreateCondBr(cond, fb, sb, MDBuilder(b.getContext()).createBranchWeights(1 << 20, 1));
  b.SetInsertPoint(fb);
  Value* x = fast();
  fb = b.GetInsertBlock();
  b.CreateBr(jb);
  b.SetInsertPoint(sb);
  Value* y = slow();
  sb = b.GetInsertBlock();
  b.CreateBr(jb);
  b.SetInsertPoint(jb);
  PHINode* phi = b.CreatePHI(x->getType(), 2);
  phi->addIncoming(x, fb);
  phi->addIncoming(y, sb);
  return phi;
}

} // namespace thorin::rt

namespace thorin::rt {

void expectOr(llvm::IRBuilder<>& b, llvm::Value* cond, const std::function<void()>& exit) {
  using namespace llvm;
  Function* f = b.GetInsertBlock()->getParent();
  BasicBlock* ok = BasicBlock::Create(b.getContext(), "expected", f);
  BasicBlock* out = BasicBlock::Create(b.getContext(), "unexpected", f);
  b.CreateCondBr(cond, ok, out, MDBuilder(b.getContext()).createBranchWeights(1 << 20, 1));
  b.SetInsertPoint(out);
  exit();
  b.CreateUnreachable();
  b.SetInsertPoint(ok);
}

} // namespace thorin::rt

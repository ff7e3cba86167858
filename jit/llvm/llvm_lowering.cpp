#include "llvm_lowering.hpp"

#include <dlfcn.h>

#include <fmt/format.h>
#include <llvm/IR/MDBuilder.h>
#include <ostream>

namespace thorin::rt {

// The LLVM tier's columns of the axiom table (core/axiom.hpp).
static AxiomColumn<LoweringFn>& table() {
  static AxiomColumn<LoweringFn> c;
  return c;
}

void registerLowering(AxiomId axiom, Lowering l) { table().set(axiom, LoweringFn{l, nullptr}); }

LoweringFn findLowering(AxiomId axiom) { return table()[axiom]; }

llvm::Value* LoweringFn::operator()(LowerCx& cx, const std::vector<llvm::Value*>& args) const {
  if (cpp) return cpp(cx, args);
  std::vector<LLVMValueRef> cargs;
  for (llvm::Value* v : args)
    cargs.push_back(llvm::wrap(v));
  return llvm::unwrap(c(llvm::wrap(&cx.b), cargs.data(), unsigned(cargs.size())));
}

namespace {
struct InModule {
  std::string plugin;
  void (*reg)();
};
std::vector<InModule>& inModule() {
  static std::vector<InModule> v;
  return v;
}
size_t gSynced = 0; // plugins of pluginCode() whose halves are registered
} // namespace

InModuleLowerings::InModuleLowerings(const char* plugin, void (*reg)()) {
  inModule().push_back({plugin, reg});
}

// A plugin's LLVM half in a library of its own.
static void loadHalf(const PluginCode& p, std::ostream& err) {
  void* h = dlopen(p.llvmLibrary.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::string entry = "thorin_plugin_" + p.name + "_llvm";
  using Entry = void (*)(const ThorinLlvmRegistrar*);
  auto reg = h ? reinterpret_cast<Entry>(dlsym(h, entry.c_str())) : nullptr;
  if (!reg) {
    err << fmt::format("warning: the LLVM half of the plugin '{}' is not used: {}\n", p.name,
                       h ? "its library has no " + entry + "()" : std::string(dlerror()));
    return;
  }
  ThorinLlvmRegistrar r{THORIN_LLVM_ABI, nullptr, [](void*, uint32_t axiom, ThorinLowering fn) {
                          table().set(axiom, LoweringFn{nullptr, fn});
                        }};
  reg(&r);
}

void syncPluginLowerings(std::ostream& err) {
  const std::vector<PluginCode>& loaded = pluginCode();
  for (; gSynced < loaded.size(); ++gSynced) {
    const PluginCode& p = loaded[gSynced];
    for (const InModule& m : inModule())
      if (m.plugin == p.name) m.reg();
    if (!p.llvmLibrary.empty()) loadHalf(p, err);
  }
}

static AxiomColumn<WordLowering>& wordTable() {
  static AxiomColumn<WordLowering> c;
  return c;
}

static AxiomColumn<uint8_t>& typedTable() { // (not vector<bool>: its [] is no reference)
  static AxiomColumn<uint8_t> c;
  return c;
}

void registerWordLowering(AxiomId axiom, WordLowering l, bool typedArgs) {
  wordTable().set(axiom, l);
  typedTable().set(axiom, typedArgs ? 1 : 0);
}

bool wordLoweringTypedArgs(AxiomId axiom) { return typedTable()[axiom] != 0; }

WordLowering findWordLowering(AxiomId axiom) { return wordTable()[axiom]; }

} // namespace thorin::rt

namespace thorin::rt {

llvm::Value* ifElse(llvm::IRBuilder<>& b, llvm::Value* cond,
                    const std::function<llvm::Value*()>& yes,
                    const std::function<llvm::Value*()>& no, bool yesLikely) {
  using namespace llvm;
  Function* f = b.GetInsertBlock()->getParent();
  BasicBlock* yb = BasicBlock::Create(b.getContext(), yesLikely ? "fast" : "then", f);
  BasicBlock* nb = BasicBlock::Create(b.getContext(), yesLikely ? "slow" : "else", f);
  BasicBlock* jb = BasicBlock::Create(b.getContext(), "joined", f);
  if (yesLikely)
    b.CreateCondBr(cond, yb, nb, MDBuilder(b.getContext()).createBranchWeights(1 << 20, 1));
  else
    b.CreateCondBr(cond, yb, nb);
  b.SetInsertPoint(yb);
  Value* x = yes();
  yb = b.GetInsertBlock();
  b.CreateBr(jb);
  b.SetInsertPoint(nb);
  Value* y = no();
  nb = b.GetInsertBlock();
  b.CreateBr(jb);
  b.SetInsertPoint(jb);
  PHINode* phi = b.CreatePHI(x->getType(), 2);
  phi->addIncoming(x, yb);
  phi->addIncoming(y, nb);
  return phi;
}

llvm::Value* likelyOr(llvm::IRBuilder<>& b, llvm::Value* cond,
                      const std::function<llvm::Value*()>& fast,
                      const std::function<llvm::Value*()>& slow) {
  return ifElse(b, cond, fast, slow, true);
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

// Tier 1: erased terms → LLVM IR → O2 → ORC LLJIT.
//
// Every compiled top-level function gets an entry with the uniform
// convention `V f(Closure* self, const V* args)` (so interpreter and compiled
// code call each other freely). A first-order function over machine types
// (I64, F64, Bool) also gets an unboxed *worker*, `i64 f.w(i64, …)`, which
// the entry wraps; calls between workers are direct, so `fib` compiles to
// what a C compiler produces. Everything else is compiled on words: closures
// are flat (exactly the free variables), primitives are called through their
// run-time implementations, and unknown calls go through rt::apply.
// One ResourceTracker per compiled definition: redefinition removes its code.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>

#include <llvm/ExecutionEngine/JITLink/EHFrameSupport.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/GVN.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Vectorize/SLPVectorizer.h>

#include "bounded_loops.hpp"
#include "code_cache.hpp"
#include "core/axiom.hpp"
#include "core/eval.hpp"
#include "core/guard.hpp"
#include "core/literal.hpp"
#include "idle_memory.hpp"
#include "llvm_lowering.hpp"
#include "recursive_inline.hpp"
#include "runtime/abi.hpp"
#include "runtime/engine.hpp"
#include "runtime/share.hpp"
#include "runtime/unwind.hpp"

namespace thorin::rt {

namespace {

using namespace llvm;

struct Helpers {
  FunctionCallee toI64, ofI64, toF64, ofF64, fail, deopt, poll, apply, callGlobal, global, lit,
      closure, pair, proj, arr, primPap, con, cell;
  FunctionCallee primN[4]; // thorin_rt_prim1…4
};

/// Does a term only use machine-typed operations? Computes its machine type.
/// A worker: the function with machine-typed parameters and result unboxed
/// (the others stay words). `pure`: all of them are machine-typed.
/// `products`: some parameters or the result are Σ-types passed as their
/// flattened components (`shapes`, `resultShape`: runtime/erase.hpp) — the
/// worker speculates that their values are pairs (not neutral).
struct WorkerInfo {
  bool ok = false;
  bool pure = false;
  bool products = false;
  std::vector<MType> params;
  MType result = MType::None;
  std::vector<Shape> shapes;
  Shape resultShape;
  const ETm* body = nullptr; // the erased body it was computed for
};

// Uses of variable `depth` in `t` other than as a projection's operand.
static uint32_t bareUses(ETm* t, uint32_t depth) {
  if (t->tag == ETag::Var) return t->n == depth ? 1 : 0;
  if ((t->tag == ETag::Proj1 || t->tag == ETag::Proj2) && t->a->tag == ETag::Var) return 0;
  uint32_t n = 0;
  forEachChild(t, depth, [&](ETm* c, uint32_t d) { n += bareUses(c, d); });
  return n;
}

// A worker whose parameters or result are products is copied into its
// callers' modules (to be inlined there) up to this size in erased nodes.
constexpr size_t kProductCopyNodes = 400;

struct ThorinUnwindRegistrar : jitlink::EHFrameRegistrar {
  llvm::Error registerEHFrames(orc::ExecutorAddrRange r) override {
    registerUnwindInfo(r.Start.toPtr<void*>());
    return llvm::Error::success();
  }
  llvm::Error deregisterEHFrames(orc::ExecutorAddrRange r) override {
    deregisterUnwindInfo(r.Start.toPtr<void*>());
    return llvm::Error::success();
  }
};

class LlvmTier : public Tier {
public:
  explicit LlvmTier(const JitOptions& o) : opts_(o) {}

  // LLVM starts on the first compilation: runs that compile nothing (and
  // `thorin check`) do not pay for it.
  void start() {
    started_ = true;
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    auto jtmb = orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) {
      initError_ = toString(jtmb.takeError());
      return;
    }
    // The optimizer gets the target's cost model (vector width, costs of
    // instructions), as clang's does; without it LLVM assumes no vector unit.
    if (auto tm = jtmb->createTargetMachine())
      tm_ = std::move(*tm);
    else
      consumeError(tm.takeError());
    cache_ =
        CodeCache::open(opts_.codeCache, jtmb->getCPU() + " " + jtmb->getFeatures().getString());
    // JITLink, as LLJIT's default, but the .eh_frame goes to the executable's
    // unwinder (runtime/unwind.hpp), not to this module's copy of libgcc's.
    orc::LLJITBuilder builder;
    // With a code cache, the compiler hands each object to it as well.
    if (cache_)
      builder.setCompileFunctionCreator(
          [this](orc::JITTargetMachineBuilder b)
              -> Expected<std::unique_ptr<orc::IRCompileLayer::IRCompiler>> {
            auto tm = b.createTargetMachine();
            if (!tm) return tm.takeError();
            return std::make_unique<orc::TMOwningSimpleCompiler>(std::move(*tm), cache_.get());
          });
    auto j = builder.setJITTargetMachineBuilder(std::move(*jtmb))
                 .setObjectLinkingLayerCreator([](orc::ExecutionSession& es, const Triple&) {
                   auto layer = std::make_unique<orc::ObjectLinkingLayer>(es);
                   layer->addPlugin(std::make_unique<orc::EHFrameRegistrationPlugin>(
                       es, std::make_unique<ThorinUnwindRegistrar>()));
                   return Expected<std::unique_ptr<orc::ObjectLayer>>(std::move(layer));
                 })
                 .create();
    if (!j) {
      initError_ = toString(j.takeError());
      return;
    }
    jit_ = std::move(*j);
    auto& es = jit_->getExecutionSession();
    orc::SymbolMap syms;
    // The runtime's C ABI (runtime/abi.hpp), in the executable.
    for (const AbiSymbol& a : abiSymbols())
      syms[es.intern(a.name)] = {orc::ExecutorAddr::fromPtr(a.address), JITSymbolFlags::Exported};
    syms[es.intern("thorin_poll_limit")] = {
        orc::ExecutorAddr::fromPtr(reinterpret_cast<void*>(const_cast<char**>(&gPollLimit))),
        JITSymbolFlags::Exported};
    if (auto err = jit_->getMainJITDylib().define(orc::absoluteSymbols(std::move(syms))))
      initError_ = toString(std::move(err));
  }

  ~LlvmTier() override;
  Code compile(Runtime& rt, TopId id) override;
  bool startCompile(Runtime& rt, TopId id, bool& failed, std::atomic<void*>* slot) override;
  bool anyFinished() const override { return finished_.load(std::memory_order_acquire); }
  void settle(Runtime& rt, bool wait, const std::function<void(TopId, Code)>& installed) override;
  void remove(Runtime& rt, const std::vector<TopId>& ids) override;
  void prepare(const std::atomic<bool>* wanted) override {
    if (!started_) start();
    if (!wanted || !*wanted) warmUp(wanted);
  }
  std::string ir(TopId id) override {
    auto it = compiled_.find(id);
    return it == compiled_.end() ? "" : it->second.ir;
  }
  const ETm* lambdaOf(Code c) override {
    auto it = lambdas_.find(reinterpret_cast<void*>(c));
    return it == lambdas_.end() ? nullptr : it->second;
  }

private:
  struct Compiled {
    orc::ResourceTrackerSP tracker;
    std::string ir;
    std::string workerName;     // "" if no worker
    std::set<TopId> uses;       // compiled definitions this code calls directly
    std::vector<void*> lambdas; // code of its inner λs (keys of lambdas_)
  };

  /// One compilation, from IR to installed code.
  struct Job {
    TopId id = 0;
    std::string name, base, workerName;
    std::chrono::steady_clock::time_point t0;
    std::atomic<void*>* slot = nullptr; // baseline code calls the worker through it
    bool products = false;              // (then not: its signature differs from baseline's)
    bool fromCache = false;             // linked from the code cache
    std::unique_ptr<LLVMContext> ctx;
    std::unique_ptr<Module> mod;
    std::set<TopId> uses;
    std::vector<std::pair<std::string, const ETm*>> lambdas;
    double frontMs = 0, backMs = 0;
    // Results of back():
    std::string error, ir;
    Code entry = nullptr;
    orc::ResourceTrackerSP tracker;
    std::vector<std::pair<void*, const ETm*>> lambdaCode;
  };
  std::unique_ptr<Job> front(Runtime& rt, TopId id); // nullptr: a warning was printed
  void back(Job& job);
  Code install(Runtime& rt, Job& job);
  void serve();
  // The background compilation thread and its queues (guarded by mutex_).
  std::thread worker_;
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<std::unique_ptr<Job>> queue_;
  std::vector<std::unique_ptr<Job>> done_;
  size_t pending_ = 0; // started and not yet settled
  bool stop_ = false;
  std::atomic<bool> finished_{false};

  WorkerInfo workerInfo(Runtime& rt, TopId id);
  void optimize(Module& m);
  std::unique_ptr<TargetMachine> tm_; // for the optimizer's cost model
  std::unique_ptr<CodeCache> cache_;  // null: none (only `thorin run` has one)
  bool linkCached(Job& job, const std::string& key);
  void warmUp(const std::atomic<bool>* wanted);

  const JitOptions& opts_;
  std::unique_ptr<orc::LLJIT> jit_;
  bool started_ = false;
  std::string initError_;
  std::unordered_map<TopId, Compiled> compiled_;
  std::unordered_map<TopId, WorkerInfo> workerCache_;
  std::unordered_map<void*, const ETm*> lambdas_; // inner λs' code → the erased λ
  uint64_t counter_ = 0;
  friend class FnCompiler;
  friend class ModuleCompiler;
};

// O2 with the new pass manager.
void LlvmTier::optimize(Module& m) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cam;
  ModuleAnalysisManager mam;
  PassBuilder pb(tm_.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  pb.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(m, mam);
  // One level of small recursive functions inlined into themselves (then
  // the inlined copies simplified against their context), and one more
  // round of straight-line vectorization: the reads of an unrolled
  // specialized loop (`dot` of a known size) become consecutive only after
  // the loop passes that run after O2's own SLP vectorizer.
  FunctionPassManager late;
  if (inlineSelfCalls(m)) {
    // (Changed outside a pass manager: nothing cached about them still holds.)
    mam.invalidate(m, PreservedAnalyses::none());
    late.addPass(InstCombinePass());
    late.addPass(SimplifyCFGPass());
    late.addPass(GVNPass());
  }
  late.addPass(SLPVectorizerPass());
  late.addPass(InstCombinePass());
  ModulePassManager mpm;
  mpm.addPass(createModuleToFunctionPassAdaptor(std::move(late)));
  mpm.run(m, mam);
  unpollBoundedLoops(m, fam, mam);
}

// Optimizes and compiles a small function once and throws it away: LLVM's
// first compilation initializes a lot (pass registries, the code generator),
// and prepare() does it in the background instead of at the first hot call.
void LlvmTier::warmUp(const std::atomic<bool>* wanted) {
  if (!jit_) return;
  auto ctx = std::make_unique<LLVMContext>();
  auto mod = std::make_unique<Module>("thorin.warmup", *ctx);
  mod->setDataLayout(jit_->getDataLayout());
  Type* i64 = Type::getInt64Ty(*ctx);
  Function* f = Function::Create(FunctionType::get(i64, {i64}, false), Function::ExternalLinkage,
                                 "thorin_warmup", *mod);
  IRBuilder<> b(BasicBlock::Create(*ctx, "entry", f));
  Value* x = f->getArg(0);
  BasicBlock* t = BasicBlock::Create(*ctx, "t", f);
  BasicBlock* e = BasicBlock::Create(*ctx, "e", f);
  b.CreateCondBr(b.CreateICmpSLT(x, b.getInt64(2)), t, e);
  b.SetInsertPoint(t);
  b.CreateRet(x);
  b.SetInsertPoint(e);
  Value* r = b.CreateCall(f, {b.CreateSub(x, b.getInt64(1))});
  b.CreateRet(b.CreateAdd(r, b.CreateCall(f, {b.CreateSub(x, b.getInt64(2))})));
  optimize(*mod);
  if (wanted && *wanted) return; // (code generation would delay it)
  auto tracker = jit_->getMainJITDylib().createResourceTracker();
  if (auto err =
          jit_->addIRModule(tracker, orc::ThreadSafeModule(std::move(mod), std::move(ctx)))) {
    consumeError(std::move(err));
    return;
  }
  if (auto sym = jit_->lookup("thorin_warmup"))
    (void)sym;
  else
    consumeError(sym.takeError());
  if (auto err = tracker->remove()) consumeError(std::move(err));
}

// A worker is possible when the type is a telescope of machine types ending
// in one, with exactly as many λs in the erased body.
// Products only while `id` speculates (they deoptimize on a value that is
// not a pair: a neutral one, while normalizing).
WorkerInfo LlvmTier::workerInfo(Runtime& rt, TopId id) {
  WorkerInfo info;
  Global& g = rt.erased(id);
  // (Cached for this erased body: a definition redefined in place, whose
  // code was never compiled on its own, is erased anew.)
  if (auto it = workerCache_.find(id); it != workerCache_.end() && it->second.body == g.body) {
    info = it->second;
  } else {
    info.body = g.body;
    MachineSig sig = rt.machineSig(id);
    bool anyMachine = sig.result != MType::None || sig.resultShape.isPair();
    for (size_t i = 0; i < sig.params.size(); ++i)
      anyMachine |= sig.params[i] != MType::None || sig.shapes[i].isPair();
    if (sig.known && anyMachine && !sig.params.empty() && g.body && g.arity == sig.params.size()) {
      info.ok = true;
      info.params = sig.params;
      info.result = sig.result;
      info.shapes = sig.shapes;
      info.resultShape = sig.resultShape;
      info.pure = sig.result != MType::None;
      for (MType m : sig.params)
        info.pure &= m != MType::None;
    }
    workerCache_[id] = info;
  }
  if (!info.ok) return info;
  info.products = info.resultShape.isPair();
  for (const Shape& s : info.shapes)
    info.products |= s.isPair();
  if (info.products && (rt.global(id).noSpeculate || !rt.speculation())) { // back to words
    info.products = false;
    for (size_t i = 0; i < info.shapes.size(); ++i)
      info.shapes[i] = Shape{info.params[i], {}};
    info.resultShape = Shape{info.result, {}};
    bool anyMachine = info.result != MType::None;
    for (MType m : info.params)
      anyMachine |= m != MType::None;
    info.ok = anyMachine;
  }
  return info;
}

// The symbol of a compiled definition: `t12_fib`, `t1073741824_pow__3_`.
static std::string symbolBase(Runtime& rt, TopId id) {
  std::string s = fmt::format("t{}_{}", id, rt.nameOf(id));
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && !(c & 0x80)) c = '_';
  return s;
}

// ---------------------------------------------------------------------------
// One module per compiled definition (plus its worker-eligible callees that
// are not compiled yet).

class ModuleCompiler {
public:
  ModuleCompiler(LlvmTier& be, Runtime& rt, LLVMContext& ctx, Module& m)
      : be_(be), rt_(rt), ctx_(ctx), m_(m), i64_(Type::getInt64Ty(ctx)),
        ptr_(PointerType::getUnqual(ctx)), f64_(Type::getDoubleTy(ctx)), i1_(Type::getInt1Ty(ctx)) {
    auto fn = [&](const char* name, Type* ret, std::vector<Type*> args) {
      return m_.getOrInsertFunction(name, FunctionType::get(ret, args, false));
    };
    Type* v = Type::getVoidTy(ctx);
    Type* i32 = Type::getInt32Ty(ctx);
    h_.toI64 = fn("thorin_rt_toI64", i64_, {i64_});
    h_.ofI64 = fn("thorin_rt_ofI64", i64_, {i64_});
    h_.toF64 = fn("thorin_rt_toF64", f64_, {i64_});
    h_.ofF64 = fn("thorin_rt_ofF64", i64_, {f64_});
    h_.fail = fn("thorin_rt_fail", v, {ptr_, i32});
    h_.deopt = fn("thorin_rt_deopt", v, {i32, i32});
    h_.poll = fn("thorin_rt_poll", v, {});
    h_.apply = fn("thorin_rt_apply", i64_, {i64_, i32, ptr_});
    h_.callGlobal = fn("thorin_rt_call_global", i64_, {i32, ptr_});
    h_.global = fn("thorin_rt_global", i64_, {i32});
    h_.lit = fn("thorin_rt_lit", i64_, {ptr_});
    h_.closure = fn("thorin_rt_closure", i64_, {ptr_, i32, i32});
    h_.pair = fn("thorin_rt_pair", i64_, {i64_, i64_});
    h_.proj = fn("thorin_rt_proj", i64_, {i64_, Type::getInt32Ty(ctx_)});
    h_.arr = fn("thorin_rt_arr", i64_, {i32});
    h_.con = fn("thorin_rt_con", i64_, {i32, i32});
    h_.cell = fn("thorin_rt_cell", i64_, {i32, i32});
    h_.primPap = fn("thorin_rt_prim_pap", i64_, {i32, i32, i32, ptr_});
    for (uint32_t n = 1; n <= 4; ++n) {
      std::vector<Type*> ps = {i32, i32};
      ps.resize(2 + n, i64_);
      h_.primN[n - 1] = fn(fmt::format("thorin_rt_prim{}", n).c_str(), i64_, ps);
    }
    for (FunctionCallee c : {h_.fail, h_.deopt})
      if (auto* f = dyn_cast<Function>(c.getCallee())) {
        f->setDoesNotReturn();
        f->addFnAttr(Attribute::Cold);
      }
  }

  /// The uniform entry of `id` (defined here for the root, declared if
  /// compiled before, nullptr otherwise).
  Function* entry(TopId id);
  /// The worker of `id`, compiling it into this module if needed.
  Function* worker(TopId id);
  std::set<TopId> uses; // compiled definitions this module calls directly
  std::vector<std::pair<std::string, const ETm*>> lambdas; // inner λs: symbol, erased λ
  TopId root = 0;                                          // the definition being compiled
  bool noWorkers = false;

private:
  friend class FnCompiler;
  std::string base(TopId id) { return symbolBase(rt_, id); }
  Type* llType(MType m) { return m == MType::F64 ? f64_ : m == MType::Bool ? i1_ : i64_; }
  /// A leaf's type; a product's: the struct of its leaves'.
  Type* llType(const Shape& s) {
    if (!s.isPair()) return llType(s.leaf);
    std::vector<MType> ms;
    shapeLeaves(s, ms);
    std::vector<Type*> ts;
    for (MType m : ms)
      ts.push_back(llType(m));
    return StructType::get(ctx_, ts);
  }
  Function* newFn(const std::string& name, Type* ret, std::vector<Type*> args) {
    Function* f =
        Function::Create(FunctionType::get(ret, args, false), Function::ExternalLinkage, name, m_);
    f->setUWTableKind(UWTableKind::Async); // run-time errors unwind through compiled frames
    return f;
  }
  Function* uniform(const std::string& name) { return newFn(name, i64_, {ptr_, ptr_}); }
  void emitPoll(IRBuilder<>& b);

  LlvmTier& be_;
  Runtime& rt_;
  LLVMContext& ctx_;
  Module& m_;
  Type *i64_, *ptr_, *f64_, *i1_;
  Helpers h_;
  std::unordered_map<TopId, Function*> entries_, workers_;
  std::vector<std::pair<TopId, Function*>> pendingEntries_, pendingWorkers_;

public:
  void finish();
};

// Interrupt and stack-depth check at function entry: one load and a compare
// (Ctrl-C raises the limit to the top of memory, see guard.hpp).
void ModuleCompiler::emitPoll(IRBuilder<>& b) {
  Function* f = b.GetInsertBlock()->getParent();
  auto* lim = m_.getOrInsertGlobal("thorin_poll_limit", ptr_);
  Value* limit = b.CreateLoad(ptr_, lim, "limit");
  cast<LoadInst>(limit)->setVolatile(true);
  Value* sp = b.CreateIntrinsic(Intrinsic::frameaddress, {ptr_}, {b.getInt32(0)});
  BasicBlock* slow = BasicBlock::Create(ctx_, "poll", f);
  BasicBlock* cont = BasicBlock::Create(ctx_, "body", f);
  b.CreateCondBr(b.CreateICmpULT(sp, limit), slow, cont,
                 MDBuilder(ctx_).createBranchWeights(1, 1 << 20));
  b.SetInsertPoint(slow);
  b.CreateCall(h_.poll);
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
}

// Compiles one function body. Values are typed: a machine type (I64 as i64,
// F64 as double, Bool as i1) where the type is known to be one — worker
// parameters, literals, results of machine primitives and of other workers —
// and a word otherwise. Conversions (box/unbox) happen only where a typed
// value meets an untyped use.
class FnCompiler {
public:
  /// `owner`: the definition this code belongs to (it speculates unless a
  /// deoptimization of it happened).
  FnCompiler(ModuleCompiler& mc, Function* f, TopId owner)
      : mc_(mc), f_(f), b_(mc.ctx_), owner_(owner),
        speculate_(mc.rt_.speculation() && !mc.rt_.global(owner).noSpeculate) {
    b_.SetInsertPoint(BasicBlock::Create(mc.ctx_, "entry", f));
  }
  IRBuilder<>& builder() { return b_; }
  struct Unsupported {};

  struct TV {
    Value* v;
    MType t; // None: a word
    // A pair not allocated (a product: see WorkerInfo): its components; `v`
    // is null, or the pair once allocated.
    std::shared_ptr<const std::array<TV, 2>> parts = nullptr;
  };
  static TV pairOf(TV a, TV b) {
    return {nullptr, MType::None,
            std::make_shared<const std::array<TV, 2>>(std::array<TV, 2>{a, b})};
  }
  // A pair's components as words or machine numbers: at most
  // kShapeLeaves (as a worker passes) — `let a1 = (a0, a0); let a2 = (a1,
  // a1); …` would double them at each step, and every use with them.
  static size_t leavesOf(const TV& x) {
    return x.parts ? leavesOf((*x.parts)[0]) + leavesOf((*x.parts)[1]) : 1;
  }
  static constexpr size_t kMaxVirtualLeaves = 8;

  /// A worker: parameters and result as `wi` says. A call of itself in tail
  /// position is a jump back to the top (a loop, not a call).
  void worker(TopId self, ETm* lam, const WorkerInfo& wi) {
    // entry (checks of the arguments, see deoptAtEntry) → pre → loop.
    checksEnd_ = b_.GetInsertBlock();
    BasicBlock* pre = BasicBlock::Create(mc_.ctx_, "pre", f_);
    loop_ = BasicBlock::Create(mc_.ctx_, "loop", f_);
    b_.CreateBr(pre);
    b_.SetInsertPoint(pre);
    mc_.emitPoll(b_); // (the stack and Ctrl-C at entry, the loop's own poll below)
    pre = b_.GetInsertBlock();
    b_.CreateBr(loop_);
    b_.SetInsertPoint(loop_);
    for (const Shape& s : wi.shapes) { // (a product: one φ per component)
      std::vector<Value*> leaves;
      for (size_t k = 0, n = leafCount(s); k < n; ++k) {
        Argument* arg = f_->getArg(unsigned(params_.size()));
        PHINode* p = b_.CreatePHI(arg->getType(), 2);
        p->addIncoming(arg, pre);
        params_.push_back(p);
        leaves.push_back(p);
      }
      size_t at = 0;
      env_.push_back(unflatten(leaves, at, s));
    }
    loopPoll();
    self_ = self;
    selfInfo_ = wi;
    tail_ = true;
    b_.CreateRet(returned(gen(lam->a), wi.resultShape));
  }

  static size_t leafCount(const Shape& s) {
    std::vector<MType> ls;
    shapeLeaves(s, ls);
    return ls.size();
  }

  /// `x` as `s` says, appended to `out`: its leaves, left to right. A word
  /// where `s` has a pair is taken apart (unpack: not a pair deoptimizes
  /// `blame`, whose signature speculated).
  void flatten(TV x, const Shape& s, TopId blame, std::vector<Value*>& out) {
    if (!s.isPair()) {
      out.push_back(as(x, s.leaf));
      return;
    }
    if (!x.parts) x = unpack(word(x), blame);
    flatten((*x.parts)[0], s.parts[0], blame, out);
    flatten((*x.parts)[1], s.parts[1], blame, out);
  }
  /// The value of shape `s` whose leaves are `leaves[at…]`.
  TV unflatten(const std::vector<Value*>& leaves, size_t& at, const Shape& s) {
    if (!s.isPair()) return {leaves[at++], s.leaf};
    TV a = unflatten(leaves, at, s.parts[0]);
    return pairOf(a, unflatten(leaves, at, s.parts[1]));
  }
  /// A worker's result of shape `s` from its return value (a struct for a pair).
  TV result(Value* r, const Shape& s) {
    if (!s.isPair()) return {r, s.leaf};
    std::vector<Value*> leaves;
    for (unsigned i = 0, n = unsigned(leafCount(s)); i < n; ++i)
      leaves.push_back(b_.CreateExtractValue(r, {i}));
    size_t at = 0;
    return unflatten(leaves, at, s);
  }
  /// What a worker with result shape `s` returns for `x`.
  Value* returned(TV x, const Shape& s) {
    std::vector<Value*> leaves;
    flatten(x, s, self_, leaves);
    if (!s.isPair()) return leaves[0];
    Value* r = UndefValue::get(mc_.llType(s));
    for (unsigned i = 0; i < leaves.size(); ++i)
      r = b_.CreateInsertValue(r, leaves[i], {i});
    return r;
  }
  /// A word that must hold a pair: its components (shared when the pair is,
  /// as a projection does).
  TV unpack(Value* w, TopId blame) {
    BasicBlock* ok = BasicBlock::Create(mc_.ctx_, "unpack", f_);
    BasicBlock* out = BasicBlock::Create(mc_.ctx_, "unpack.deopt", f_);
    ifPair(w, ok, out);
    b_.SetInsertPoint(out);
    b_.CreateCall(mc_.h_.deopt, {b_.getInt32(blame), b_.getInt32(uint32_t(DeoptReason::NotAPair))});
    b_.CreateUnreachable();
    b_.SetInsertPoint(ok);
    Value* p = b_.CreateIntToPtr(w, mc_.ptr_);
    Value* a = b_.CreateLoad(mc_.i64_, b_.CreateConstGEP1_64(mc_.i64_, p, 1));
    Value* c = b_.CreateLoad(mc_.i64_, b_.CreateConstGEP1_64(mc_.i64_, p, 2));
    shareIfShared(p, {a, c});
    TV r = pairOf({a, MType::None}, {c, MType::None});
    r.v = w;
    return r;
  }
  // To `yes` when the word w is a pair, else (unlikely) to `no`.
  void ifPair(Value* w, BasicBlock* yes, BasicBlock* no) {
    BasicBlock* check = BasicBlock::Create(mc_.ctx_, "pair.check", f_);
    auto likely = MDBuilder(mc_.ctx_).createBranchWeights(1 << 20, 1);
    b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateAnd(w, 1), wordConst(0)), check, no, likely);
    b_.SetInsertPoint(check);
    Value* tag = b_.CreateLoad(b_.getInt32Ty(), b_.CreateIntToPtr(w, mc_.ptr_));
    b_.CreateCondBr(b_.CreateICmpEQ(tag, b_.getInt32(uint32_t(OTag::Pair))), yes, no, likely);
  }
  // Components read from the pair at p are shared when the pair is
  // (runtime/share.hpp).
  void shareIfShared(Value* p, std::initializer_list<Value*> components,
                     uint32_t sharedBit = kPairShared) {
    Value* n = b_.CreateLoad(b_.getInt32Ty(), b_.CreateConstGEP1_64(b_.getInt32Ty(), p, 1));
    BasicBlock* mark = BasicBlock::Create(mc_.ctx_, "pair.shared", f_);
    BasicBlock* moved = BasicBlock::Create(mc_.ctx_, "pair.moved", f_);
    b_.CreateCondBr(b_.CreateICmpNE(b_.CreateAnd(n, sharedBit), b_.getInt32(0)), mark, moved);
    b_.SetInsertPoint(mark);
    for (Value* c : components)
      share(c);
    b_.CreateBr(moved);
    b_.SetInsertPoint(moved);
  }
  /// Marks what `x` holds shared (a product: each component).
  void shareTV(const TV& x) {
    if (x.parts) {
      if (x.v) share(x.v);
      shareTV((*x.parts)[0]);
      shareTV((*x.parts)[1]);
    } else if (x.t == MType::None) {
      share(x.v);
    }
  }

  /// A uniform function: `args` are the λ's parameters, `self->free` its captures.
  void uniform(ETm* body, uint32_t arity, const std::vector<uint32_t>& captures) {
    mc_.emitPoll(b_);
    Value* self = f_->getArg(0);
    Value* args = f_->getArg(1);
    // Environment, oldest first: captured variables, then parameters.
    for (uint32_t j = 0; j < captures.size(); ++j) {
      Value* p = b_.CreateConstGEP1_64(mc_.i64_, self, 3 + j); // Closure::free[j]
      env_.push_back({b_.CreateLoad(mc_.i64_, p), MType::None});
    }
    for (uint32_t i = 0; i < arity; ++i)
      env_.push_back(
          {b_.CreateLoad(mc_.i64_, b_.CreateConstGEP1_64(mc_.i64_, args, i)), MType::None});
    b_.CreateRet(word(gen(body)));
  }

  /// A top-level function on words (no worker): as uniform() without
  /// captures, and a call of itself in tail position is a jump back to the
  /// top, as in a worker (through the argument array it would be a real call
  /// and use the stack: a counting loop over Nats ran out of it).
  void uniformLoop(TopId self, ETm* body, uint32_t arity) {
    Value* args = f_->getArg(1);
    std::vector<Value*> init;
    for (uint32_t i = 0; i < arity; ++i)
      init.push_back(b_.CreateLoad(mc_.i64_, b_.CreateConstGEP1_64(mc_.i64_, args, i)));
    mc_.emitPoll(b_); // (the stack and Ctrl-C at entry, the loop's own poll below)
    BasicBlock* pre = b_.GetInsertBlock();
    loop_ = BasicBlock::Create(mc_.ctx_, "loop", f_);
    b_.CreateBr(loop_);
    b_.SetInsertPoint(loop_);
    for (uint32_t i = 0; i < arity; ++i) {
      PHINode* p = b_.CreatePHI(mc_.i64_, 2);
      p->addIncoming(init[i], pre);
      params_.push_back(p);
      env_.push_back({p, MType::None});
    }
    loopPoll();
    self_ = self;
    selfInfo_.params.assign(arity, MType::None);
    selfInfo_.result = MType::None;
    selfInfo_.shapes.assign(arity, Shape{});
    selfInfo_.resultShape = Shape{};
    tail_ = true;
    b_.CreateRet(word(gen(body)));
  }

  Value* wordConst(uint64_t w) { return b_.getInt64(w); }
  Value* word(TV x) {
    if (x.parts && !x.v) {
      Value* a = word((*x.parts)[0]);
      return allocPair(a, word((*x.parts)[1]));
    }
    return box(x.v, x.t);
  }
  Value* as(TV x, MType m) {
    if (x.parts) {
      if (m != MType::None) throw Unsupported{}; // (ill-typed after erasure)
      return word(x);
    }
    if (x.t == m) return x.v;
    if (m == MType::None) return box(x.v, x.t);
    if (x.t == MType::None) return unbox(x.v, m);
    throw Unsupported{}; // two different machine types: ill-typed after erasure
  }

  Value* argArray(const std::vector<Value*>& vs) {
    // Allocas in the entry block, so that loops do not grow the stack.
    IRBuilder<> eb(&f_->getEntryBlock(), f_->getEntryBlock().begin());
    Value* arr = eb.CreateAlloca(mc_.i64_, b_.getInt32(uint32_t(std::max<size_t>(1, vs.size()))));
    for (size_t i = 0; i < vs.size(); ++i)
      b_.CreateStore(vs[i], b_.CreateConstGEP1_64(mc_.i64_, arr, i));
    return arr;
  }

  std::vector<Value*> words(ETm* t) {
    std::vector<Value*> args;
    for (uint32_t i = 0; i < t->n; ++i)
      args.push_back(word(gen(t->args[i])));
    return args;
  }
  // x as a word that an object keeps (an array's element, a partial
  // application's argument, a closure's capture), which marks it shared. A
  // pair not allocated has its components marked too: they stay in
  // registers, where a projection with no pair to look at could hand one
  // on as unshared (and `set` update it in place) while the object holds it.
  Value* storedWord(TV x) {
    if (x.parts) shareTV(x);
    return share(word(x));
  }
  std::vector<Value*> storedWords(ETm* t) {
    std::vector<Value*> args;
    for (uint32_t i = 0; i < t->n; ++i)
      args.push_back(storedWord(gen(t->args[i])));
    return args;
  }

  TV gen(ETm* t) {
    bool tail = tail_; // (only the branches of an `if` and a let's body inherit it)
    tail_ = false;
    if (tail && t->tag == ETag::App && t->a->tag == ETag::Global && t->a->n == self_ &&
        t->n == selfInfo_.shapes.size())
      return jumpToTop(t);
    switch (t->tag) {
    case ETag::Var: {
      TV v = env_[env_.size() - 1 - t->n];
      if (!(t->flags & kNoShare)) shareTV(v);
      return v;
    }
    case ETag::Global: return {globalValue(t->n), MType::None};
    case ETag::Erased: return {wordConst(erasedType(t->n)), MType::None};
    case ETag::Known: return {wordConst(erased()), MType::None}; // (filters are never run)
    case ETag::Lit: return literal(t);
    case ETag::Lam: return {lambda(t), MType::None};
    case ETag::App: return app(t);
    case ETag::Prim: return prim(t);
    case ETag::PrimPap: {
      Value* arr = argArray(storedWords(t));
      return {b_.CreateCall(mc_.h_.primPap,
                            {b_.getInt32(t->prim), b_.getInt32(t->span), b_.getInt32(t->n), arr}),
              MType::None};
    }
    case ETag::Let: {
      TV x = gen(t->a);
      if (x.parts && !x.v && bareUses(t->b, 0) > 1) x.v = word(x); // (allocated once)
      env_.push_back(x);
      tail_ = tail;
      TV r = gen(t->b);
      env_.pop_back();
      return r;
    }
    case ETag::If: return cond(t, tail);
    case ETag::Pair: { // (allocated where a word is needed: word())
      TV a = gen(t->a);
      TV b = gen(t->b);
      if (leavesOf(a) + leavesOf(b) > kMaxVirtualLeaves) {
        Value* w = word(a);
        return {allocPair(w, word(b)), MType::None};
      }
      return pairOf(a, b);
    }
    case ETag::Proj1:
    case ETag::Proj2: { // a pair; a neutral value (while normalizing) through the runtime
      TV pr = gen(t->a);
      uint32_t which = t->tag == ETag::Proj1 ? 1 : 2;
      if (pr.parts) {
        TV c = (*pr.parts)[which - 1];
        if (!(t->flags & kNoShare)) shareTV(c);
        return c;
      }
      Value* w = word(pr);
      BasicBlock* fast = BasicBlock::Create(mc_.ctx_, "proj.pair", f_);
      BasicBlock* slow = BasicBlock::Create(mc_.ctx_, "proj.slow", f_);
      BasicBlock* join = BasicBlock::Create(mc_.ctx_, "proj", f_);
      ifPair(w, fast, slow);
      b_.SetInsertPoint(fast);
      Value* p = b_.CreateIntToPtr(w, mc_.ptr_);
      Value* x = b_.CreateLoad(mc_.i64_, b_.CreateConstGEP1_64(mc_.i64_, p, which));
      shareIfShared(p, {x});
      fast = b_.GetInsertBlock();
      b_.CreateBr(join);
      b_.SetInsertPoint(slow);
      Value* y = b_.CreateCall(mc_.h_.proj, {w, b_.getInt32(which)});
      b_.CreateBr(join);
      b_.SetInsertPoint(join);
      PHINode* phi = b_.CreatePHI(mc_.i64_, 2);
      phi->addIncoming(x, fast);
      phi->addIncoming(y, slow);
      if (!(t->flags & kNoShare)) share(phi); // (a read that does not move it out)
      return {phi, MType::None};
    }
    case ETag::Con: { // (fields moved in, as a pair's components)
      if (t->n == 0) return {wordConst(imm(t->prim)), MType::None};
      std::vector<Value*> fs;
      for (uint32_t i = 0; i < t->n; ++i)
        fs.push_back(word(gen(t->args[i])));
      if (t->flags & kConCell) return {cell(t->prim, fs), MType::None};
      uint64_t header = uint64_t(OTag::Con) | uint64_t(t->prim | t->n << kConFieldsShift) << 32;
      return {allocObj(
                  header, fs,
                  [&] {
                    Value* c = b_.CreateCall(mc_.h_.con, {b_.getInt32(t->prim), b_.getInt32(t->n)});
                    Value* p = b_.CreateIntToPtr(c, mc_.ptr_);
                    for (uint32_t i = 0; i < t->n; ++i)
                      b_.CreateStore(fs[i], b_.CreateConstGEP1_64(mc_.i64_, p, 1 + i));
                    return c;
                  }),
              MType::None};
    }
    case ETag::Field: return field(t);
    case ETag::Case: return caseOf(t, tail);
    case ETag::Arr: {
      std::vector<Value*> es = storedWords(t);
      Value* a = b_.CreateCall(mc_.h_.arr, {b_.getInt32(t->n)});
      Value* p = b_.CreateIntToPtr(a, mc_.ptr_);
      for (uint32_t i = 0; i < t->n; ++i)
        b_.CreateStore(es[i], b_.CreateConstGEP1_64(mc_.i64_, p, 1 + i));
      return {a, MType::None};
    }
    }
    throw Unsupported{};
  }

  // A compact cell of constructor `index` holding `fs` (runtime/heap.hpp):
  // from the collector's free list inline, as allocObj, without a header.
  Value* cell(uint32_t index, const std::vector<Value*>& fs) {
    Value* tag = b_.getInt64(cellTag(index));
    auto slow = [&] {
      Value* c = b_.CreateCall(mc_.h_.cell, {b_.getInt32(index), b_.getInt32(uint32_t(fs.size()))});
      Value* p = b_.CreateIntToPtr(b_.CreateAnd(c, b_.getInt64(~uint64_t(15))), mc_.ptr_);
      for (size_t i = 0; i < fs.size(); ++i)
        b_.CreateStore(fs[i], b_.CreateConstGEP1_64(mc_.i64_, p, i));
      return c;
    };
    return b_.CreateOr(allocWords(fs, slow), tag);
  }
  // A data value w taken apart by its layout: `ofCell` given the tag bits of
  // a compact cell's word, `ofObject` for an object with a header; their
  // values joined.
  Value* byLayout(Value* w, const std::function<Value*(Value*)>& ofCell,
                  const std::function<Value*()>& ofObject) {
    Value* tagBits = b_.CreateAnd(w, b_.getInt64(kCellTagBits));
    return ifElse(
        b_, b_.CreateICmpNE(tagBits, b_.getInt64(0)), [&] { return ofCell(tagBits); }, ofObject);
  }
  // Field t->n of a data value: from a compact cell, a load; from an object,
  // shared if the object is, and past its header.
  TV field(ETm* t) {
    Value* w = word(gen(t->a));
    Value* x = byLayout(
        w,
        [&](Value* tagBits) {
          Value* p = b_.CreateIntToPtr(b_.CreateSub(w, tagBits), mc_.ptr_);
          return b_.CreateLoad(mc_.i64_, b_.CreateConstGEP1_64(mc_.i64_, p, t->n));
        },
        [&]() -> Value* {
          Value* p = b_.CreateIntToPtr(w, mc_.ptr_);
          Value* f = b_.CreateLoad(mc_.i64_, b_.CreateConstGEP1_64(mc_.i64_, p, 1 + t->n));
          shareIfShared(p, {f}, kConShared);
          if (!(t->flags & kNoShare)) share(f); // (a read that does not move it out)
          return f;
        });
    return {x, MType::None};
  }

  // Marks an array or a pair in word w shared (a second reference to it may
  // be used: runtime/share.hpp); returns w.
  Value* share(Value* w) {
    if (isa<Constant>(w)) return w;
    BasicBlock* check = BasicBlock::Create(mc_.ctx_, "share.check", f_);
    BasicBlock* mark = BasicBlock::Create(mc_.ctx_, "share.mark", f_);
    BasicBlock* done = BasicBlock::Create(mc_.ctx_, "share.done", f_);
    // (Nothing to mark in an immediate or a compact cell.)
    b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateAnd(w, 15), wordConst(0)), check, done);
    b_.SetInsertPoint(check);
    Value* p = b_.CreateIntToPtr(w, mc_.ptr_);
    Value* tag = b_.CreateLoad(b_.getInt32Ty(), p);
    // (Tags below 32: bit `tag` of the mask says "an array".)
    uint32_t arrays = 1u << uint32_t(OTag::Arr) | 1u << uint32_t(OTag::ArrI64) |
                      1u << uint32_t(OTag::ArrF64) | 1u << uint32_t(OTag::Str); // (flags at -16)
    Value* isArr = b_.CreateAnd(b_.CreateLShr(b_.getInt32(arrays), b_.CreateAnd(tag, 31)), 1);
    BasicBlock* notArr = BasicBlock::Create(mc_.ctx_, "share.pair", f_);
    BasicBlock* markPair = BasicBlock::Create(mc_.ctx_, "share.markpair", f_);
    b_.CreateCondBr(b_.CreateICmpNE(isArr, b_.getInt32(0)), mark, notArr);
    b_.SetInsertPoint(mark);
    Value* fp = b_.CreateConstGEP1_64(mc_.i64_, p, -2);
    b_.CreateStore(b_.CreateOr(b_.CreateLoad(mc_.i64_, fp), b_.getInt64(kArrShared)), fp);
    b_.CreateBr(done);
    b_.SetInsertPoint(notArr);
    // (A pair's or a data value's shared bit is in its header's n.)
    Value* bit = b_.CreateSelect(
        b_.CreateICmpEQ(tag, b_.getInt32(uint32_t(OTag::Pair))), b_.getInt32(kPairShared),
        b_.CreateSelect(b_.CreateICmpEQ(tag, b_.getInt32(uint32_t(OTag::Con))),
                        b_.getInt32(kConShared), b_.getInt32(0)));
    b_.CreateCondBr(b_.CreateICmpNE(bit, b_.getInt32(0)), markPair, done);
    b_.SetInsertPoint(markPair);
    Value* np = b_.CreateConstGEP1_64(b_.getInt32Ty(), p, 1);
    b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt32Ty(), np), bit), np);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    return w;
  }

  TV literal(ETm* t) {
    switch (LitKind(t->n)) {
    case LitKind::I64: return {b_.getInt64(t->bits), MType::I64};
    case LitKind::Bool: return {b_.getInt1(t->bits != 0), MType::Bool};
    case LitKind::F64: {
      double d;
      std::memcpy(&d, &t->bits, sizeof d);
      return {ConstantFP::get(mc_.f64_, d), MType::F64};
    }
    case LitKind::Idx: return {wordConst(imm(int64_t(t->bits))), MType::None};
    case LitKind::Unit: return {wordConst(imm(0)), MType::None};
    case LitKind::Nat:
      if (t->bits < (uint64_t(1) << 62)) return {wordConst(imm(int64_t(t->bits))), MType::None};
      break;
    default: break;
    }
    return {b_.CreateCall(mc_.h_.lit, {ptrConst(t)}), MType::None};
  }

  TV app(ETm* t) {
    if (t->a->tag == ETag::Global) {
      TopId g = t->a->n;
      Global& gl = mc_.rt_.erased(g);
      if (gl.arity == t->n && gl.arity > 0) {
        if (Function* wf = mc_.worker(g)) { // direct call of a worker
          WorkerInfo wi = mc_.be_.workerInfo(mc_.rt_, g);
          std::vector<Value*> args;
          for (uint32_t i = 0; i < t->n; ++i)
            flatten(gen(t->args[i]), wi.shapes[i], g, args);
          return result(b_.CreateCall(wf, args), wi.resultShape);
        }
        Value* arr = argArray(words(t));
        if (Function* e = mc_.entry(g))
          return {b_.CreateCall(e, {ConstantPointerNull::get(cast<PointerType>(mc_.ptr_)), arr}),
                  MType::None};
        return {callThroughCell(g, arr), MType::None};
      }
    }
    Value* f = word(gen(t->a));
    Value* arr = argArray(words(t));
    return {callValue(f, t->n, arr), MType::None};
  }

  // Calls a function value: a closure of exactly this arity is called
  // directly; anything else (partial applications, over-application) goes
  // through the runtime's apply.
  Value* callValue(Value* f, uint32_t n, Value* arr) {
    Value* p = b_.CreateIntToPtr(f, mc_.ptr_);
    Value* isPtr = b_.CreateICmpEQ(b_.CreateAnd(f, 1), wordConst(0));
    BasicBlock* check = BasicBlock::Create(mc_.ctx_, "call.check", f_);
    BasicBlock* direct = BasicBlock::Create(mc_.ctx_, "call.direct", f_);
    BasicBlock* slow = BasicBlock::Create(mc_.ctx_, "call.apply", f_);
    BasicBlock* join = BasicBlock::Create(mc_.ctx_, "call", f_);
    b_.CreateCondBr(isPtr, check, slow);
    b_.SetInsertPoint(check);
    Value* tag = b_.CreateLoad(b_.getInt32Ty(), p);
    Value* arity = b_.CreateLoad(b_.getInt32Ty(), b_.CreateConstGEP1_64(b_.getInt32Ty(), p, 4));
    Value* exact = b_.CreateAnd(b_.CreateICmpEQ(tag, b_.getInt32(uint32_t(OTag::Closure))),
                                b_.CreateICmpEQ(arity, b_.getInt32(n)));
    b_.CreateCondBr(exact, direct, slow, MDBuilder(mc_.ctx_).createBranchWeights(1 << 10, 1));
    b_.SetInsertPoint(direct);
    Value* code = b_.CreateLoad(mc_.ptr_, b_.CreateConstGEP1_64(mc_.i64_, p, 1));
    FunctionType* ft = FunctionType::get(mc_.i64_, {mc_.ptr_, mc_.ptr_}, false);
    Value* r1 = b_.CreateCall(ft, code, {p, arr});
    b_.CreateBr(join);
    b_.SetInsertPoint(slow);
    Value* r2 = b_.CreateCall(mc_.h_.apply, {f, b_.getInt32(n), arr});
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    PHINode* phi = b_.CreatePHI(mc_.i64_, 2);
    phi->addIncoming(r1, direct);
    phi->addIncoming(r2, slow);
    return phi;
  }

  TV prim(ETm* t) {
    const Prim& p = primById(t->prim);
    if (p.result != MType::None)
      if (LoweringFn low = findLowering(p.axiom)) { // machine-typed: inline
        std::vector<Value*> ms;
        for (uint32_t i = 0; i < t->n; ++i)
          ms.push_back(as(gen(t->args[i]), p.args[i]));
        LowerCx cx{b_, mc_.h_.fail, t->span};
        return {low(cx, ms), p.result};
      }
    if (WordLowering wl = findWordLowering(p.axiom)) { // a fast path on words
      std::vector<Value*> args;
      std::vector<MType> types;
      bool typed = wordLoweringTypedArgs(p.axiom);
      for (uint32_t i = 0; i < t->n; ++i) {
        TV x = gen(t->args[i]);
        if (x.parts) x = {word(x), MType::None};
        args.push_back(typed ? x.v : word(x));
        if (typed) types.push_back(x.t);
      }
      PrimFn fnp = p.fn;
      uint32_t span = t->span;
      uint32_t id = t->prim;
      WordCx cx{b_, mc_.h_.fail, span, [this, fnp, id, span](const std::vector<Value*>& as) {
                  return callPrim(fnp, id, span, as);
                }};
      if (t->n > 0 && t->args[0]->tag == ETag::Erased) {
        cx.hint = MType(t->args[0]->n);
        cx.concreteType = true;
      }
      cx.unbox = [this](Value* w, MType m) { return unbox(w, m); };
      cx.argTypes = std::move(types);
      cx.box = [this](Value* v, MType m) { return box(v, m); };
      cx.share = [this](Value* w) { return share(w); };
      cx.terms.assign(t->args, t->args + t->n);
      cx.owner = owner_;
      cx.known = [this](const ETm* e) -> const ETm* {
        for (int hops = 0; e && e->tag == ETag::Global && hops < 16; ++hops) {
          const Global& g = mc_.rt_.erased(e->n);
          e = g.arity == 0 ? g.body : nullptr;
        }
        return e;
      };
      if (speculate_)
        cx.deopt = [this](DeoptReason r) {
          b_.CreateCall(mc_.h_.deopt, {b_.getInt32(owner_), b_.getInt32(uint32_t(r))});
        };
      if (speculate_ && checksEnd_)
        cx.deoptAtEntry = [this](Value* v, uint64_t key, const WordCx::EntryCheck& cond,
                                 DeoptReason r, const WordCx::EntryFacts& facts) {
          return deoptAtEntry(v, key, cond, r, facts);
        };
      Value* r = wl(cx, args);
      return {r, cx.result};
    }
    return {callPrim(p.fn, t->prim, t->span, words(t)), MType::None};
  }

  // A primitive's run-time implementation on words.
  Value* callPrim(PrimFn fnp, uint32_t id, uint32_t span, const std::vector<Value*>& as) {
    if (!as.empty() && as.size() <= 4) {
      std::vector<Value*> call = {b_.getInt32(id), b_.getInt32(span)};
      call.insert(call.end(), as.begin(), as.end());
      return b_.CreateCall(mc_.h_.primN[as.size() - 1], call);
    }
    FunctionType* ft = FunctionType::get(mc_.i64_, {mc_.ptr_, b_.getInt32Ty()}, false);
    Value* fn = b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uint64_t>(fnp)), mc_.ptr_);
    return b_.CreateCall(ft, fn, {argArray(as), b_.getInt32(span)});
  }

  // A parameter that gets another parameter's value from the iteration
  // before (`f (n - 2) n` for `f n a`), through a copy LLVM cannot see
  // into. LLVM 19.1's IndVarSimplify miscomputed such a value at the exit
  // of a loop inlined into another loop (tests/run/rotated_loop.thorin:
  // a division it took to be by zero); the copy costs no instruction.
  Value* hideRotation(Value* v, uint32_t i) {
    auto* p = dyn_cast<PHINode>(v);
    if (!p || p == params_[i] || std::find(params_.begin(), params_.end(), p) == params_.end())
      return v;
    Type* ty = v->getType();
    const char* reg = ty->isDoubleTy() ? "=x,0" : "=r,0";
    if (!ty->isDoubleTy() && !ty->isIntegerTy(64) && !ty->isPointerTy()) return v;
    InlineAsm* copy = InlineAsm::get(FunctionType::get(ty, {ty}, false), "", reg, false);
    return b_.CreateCall(copy, {v});
  }

  // The worker's own call in tail position: new parameters, back to the top.
  TV jumpToTop(ETm* t) {
    std::vector<Value*> args;
    for (uint32_t i = 0; i < t->n; ++i)
      flatten(gen(t->args[i]), selfInfo_.shapes[i], self_, args);
    for (uint32_t i = 0; i < args.size(); ++i)
      params_[i]->addIncoming(hideRotation(args[i], i), b_.GetInsertBlock());
    budget_->addIncoming(b_.CreateSub(budgetNow_, b_.getInt32(1)), b_.GetInsertBlock());
    b_.CreateBr(loop_);
    // What follows is unreachable; its value feeds the enclosing join.
    b_.SetInsertPoint(BasicBlock::Create(mc_.ctx_, "after.loop", f_));
    std::vector<MType> ms;
    shapeLeaves(selfInfo_.resultShape, ms);
    std::vector<Value*> leaves;
    for (MType m : ms)
      leaves.push_back(UndefValue::get(mc_.llType(m)));
    size_t at = 0;
    return unflatten(leaves, at, selfInfo_.resultShape);
  }

  TV cond(ETm* t, bool tail) {
    Value* c = as(gen(t->a), MType::Bool);
    BasicBlock* tb = BasicBlock::Create(mc_.ctx_, "then", f_);
    BasicBlock* eb = BasicBlock::Create(mc_.ctx_, "else", f_);
    b_.CreateCondBr(c, tb, eb);
    return branches({{tb, t->b}, {eb, t->c}}, tail);
  }
  // The index of the constructor of data value w (kCaseImmediates: all are
  // immediates; kCaseObjects: all objects).
  Value* conIndexOf(Value* w, uint32_t kinds) {
    auto ofImm = [&] { return b_.CreateTrunc(b_.CreateLShr(w, 1), b_.getInt32Ty()); };
    auto ofObj = [&] { // (a compact cell's word says it; an object's header does)
      return byLayout(
          w,
          [&](Value* tagBits) {
            return b_.CreateSub(b_.CreateTrunc(b_.CreateLShr(tagBits, 1), b_.getInt32Ty()),
                                b_.getInt32(1));
          },
          [&] {
            Value* p = b_.CreateIntToPtr(w, mc_.ptr_);
            Value* n = b_.CreateLoad(b_.getInt32Ty(), b_.CreateConstGEP1_64(b_.getInt32Ty(), p, 1));
            return b_.CreateAnd(n, kConIndex);
          });
    };
    if (kinds == kCaseImmediates) return ofImm();
    if (kinds == kCaseObjects) return ofObj();
    return ifElse(b_, b_.CreateICmpNE(b_.CreateAnd(w, 1), wordConst(0)), ofImm, ofObj);
  }
  // A switch on the constructor of a data value; an impossible alternative
  // (erased) fails.
  TV caseOf(ETm* t, bool tail) {
    Value* index = conIndexOf(word(gen(t->a)), t->span);
    BasicBlock* impossible = BasicBlock::Create(mc_.ctx_, "case.impossible", f_);
    SwitchInst* sw = b_.CreateSwitch(index, impossible, t->n);
    std::vector<std::pair<BasicBlock*, ETm*>> alts;
    for (uint32_t i = 0; i < t->n; ++i) {
      if (t->args[i]->tag == ETag::Erased) continue;
      BasicBlock* bb = BasicBlock::Create(mc_.ctx_, "case.alt", f_);
      sw->addCase(b_.getInt32(i), bb);
      alts.push_back({bb, t->args[i]});
    }
    b_.SetInsertPoint(impossible);
    b_.CreateCall(mc_.h_.fail, {ptrConst(kImpossibleCase), b_.getInt32(0)});
    b_.CreateUnreachable();
    if (alts.empty()) {
      b_.SetInsertPoint(BasicBlock::Create(mc_.ctx_, "case.none", f_));
      b_.CreateUnreachable();
      b_.SetInsertPoint(BasicBlock::Create(mc_.ctx_, "case.dead", f_));
      return {wordConst(erased()), MType::None};
    }
    return branches(alts, tail);
  }
  static constexpr const char* kImpossibleCase = "internal error: an impossible case";
  // Each term generated in its block (entered already), then joined in one
  // representation: their machine type or products where all have them (a
  // worker's result: its shape), else words.
  TV branches(const std::vector<std::pair<BasicBlock*, ETm*>>& alts, bool tail) {
    std::vector<TV> vs;
    std::vector<BasicBlock*> ends;
    for (auto& [bb, term] : alts) {
      b_.SetInsertPoint(bb);
      tail_ = tail;
      vs.push_back(gen(term));
      ends.push_back(b_.GetInsertBlock());
    }
    Shape plan = tail && selfInfo_.resultShape.isPair() ? selfInfo_.resultShape : joinShape(vs);
    BasicBlock* jb = BasicBlock::Create(mc_.ctx_, "join", f_);
    std::vector<std::vector<Value*>> flat(vs.size());
    for (size_t k = 0; k < vs.size(); ++k) {
      b_.SetInsertPoint(ends[k]);
      flatten(vs[k], plan, self_, flat[k]);
      ends[k] = b_.GetInsertBlock();
      b_.CreateBr(jb);
    }
    b_.SetInsertPoint(jb);
    std::vector<Value*> phis;
    for (size_t i = 0; i < flat[0].size(); ++i) {
      PHINode* phi = b_.CreatePHI(flat[0][i]->getType(), unsigned(vs.size()));
      for (size_t k = 0; k < vs.size(); ++k)
        phi->addIncoming(flat[k][i], ends[k]);
      phis.push_back(phi);
    }
    size_t at = 0;
    return unflatten(phis, at, plan);
  }
  static Shape joinShape(const std::vector<TV>& xs) {
    bool pairs = true, same = true;
    for (const TV& x : xs) {
      pairs = pairs && x.parts;
      same = same && !x.parts && x.t == xs[0].t;
    }
    if (!pairs) return Shape{same ? xs[0].t : MType::None, {}};
    Shape s{MType::None, {}};
    for (int c = 0; c < 2; ++c) {
      std::vector<TV> cs;
      for (const TV& x : xs)
        cs.push_back((*x.parts)[c]);
      s.parts.push_back(joinShape(cs));
    }
    return s;
  }

  // A field of `id`'s cell (GlobalCell) and whether its epoch is the
  // runtime's: `valid ? fast(field) : slow()`.
  Value* fromCell(TopId id, bool entry, const std::function<Value*(Value*)>& fast,
                  const std::function<Value*()>& slow) {
    GlobalCell& c = mc_.rt_.cell(id);
    Value* ep = b_.CreateLoad(mc_.i64_, ptrConst(entry ? &c.entryEpoch : &c.valueEpoch));
    Value* now = b_.CreateLoad(mc_.i64_, ptrConst(&mc_.rt_.epoch));
    return likelyOr(
        b_, b_.CreateICmpEQ(ep, now),
        [&] {
          Type* ty = entry ? mc_.ptr_ : mc_.i64_;
          return fast(b_.CreateLoad(ty, ptrConst(entry ? static_cast<void*>(&c.entry) : &c.value)));
        },
        slow);
  }
  // A pair, taken from the collector's free list inline (runtime/gc.hpp);
  // the runtime refills an empty list.
  Value* allocPair(Value* a, Value* b) {
    return allocObj(uint64_t(OTag::Pair), {a, b}, // (tag, n = 0: unshared)
                    [&] {
                      return b_.CreateCall(mc_.h_.pair, {a, b});
                    });
  }
  // An object of words: its header and its words, taken from the
  // collector's free list inline (runtime/gc.hpp); `slow` when the list is
  // empty (the runtime refills it) or every allocation must call the runtime.
  Value* allocObj(uint64_t header, const std::vector<Value*>& words,
                  const std::function<Value*()>& slow) {
    std::vector<Value*> all{b_.getInt64(header)};
    all.insert(all.end(), words.begin(), words.end());
    return allocWords(all, slow);
  }
  // An object of `words` from the collector's free list of its size when it
  // has one (inline), else `slow`.
  Value* allocWords(const std::vector<Value*>& words, const std::function<Value*()>& slow) {
    size_t bytes = sizeof(V) * words.size();
    void** list = gc::wordsFreeList(bytes);
    if (!list) return slow();
    Value* headp = ptrConst(list);
    Value* head = b_.CreateLoad(mc_.ptr_, headp);
    return likelyOr(
        b_, b_.CreateICmpNE(head, ConstantPointerNull::get(cast<PointerType>(mc_.ptr_))),
        [&] {
          b_.CreateStore(b_.CreateLoad(mc_.ptr_, head), headp);
          for (size_t i = 0; i < words.size(); ++i)
            b_.CreateStore(words[i], b_.CreateConstGEP1_64(mc_.i64_, head, i));
          Value* count = ptrConst(gc::allocatedBytes());
          b_.CreateStore(b_.CreateAdd(b_.CreateLoad(mc_.i64_, count), b_.getInt64(bytes)), count);
          return b_.CreatePtrToInt(head, mc_.i64_);
        },
        slow);
  }

  // A top-level value: this run's, once the runtime has computed it.
  Value* globalValue(TopId id) {
    return fromCell(
        id, false, [](Value* v) { return v; },
        [&] { return b_.CreateCall(mc_.h_.global, {b_.getInt32(id)}); });
  }
  // A call of a definition compiled elsewhere: straight to its optimized
  // entry, once the runtime has called it in this epoch; else through it
  // (which counts the call: baseline code may tier up, or the interpreter).
  Value* callThroughCell(TopId id, Value* arr) {
    FunctionType* ft = FunctionType::get(mc_.i64_, {mc_.ptr_, mc_.ptr_}, false);
    return fromCell(
        id, true,
        [&](Value* code) {
          return b_.CreateCall(ft, code,
                               {ConstantPointerNull::get(cast<PointerType>(mc_.ptr_)), arr});
        },
        [&] {
          return b_.CreateCall(mc_.h_.callGlobal, {b_.getInt32(id), arr});
        });
  }

  Value* ptrConst(const void* p) {
    return b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uint64_t>(p)), mc_.ptr_);
  }

  Value* unbox(Value* w, MType m) {
    switch (m) {
    case MType::Bool: return b_.CreateICmpNE(w, wordConst(imm(0)));
    case MType::F64: { // always boxed: load the bits
      Value* p = b_.CreateIntToPtr(w, mc_.ptr_);
      return b_.CreateLoad(mc_.f64_, b_.CreateConstGEP1_64(mc_.i64_, p, 1));
    }
    case MType::I64: // immediates inline; boxed (beyond 63 bits) through the runtime
      return likelyOr(
          b_, b_.CreateICmpNE(b_.CreateAnd(w, 1), wordConst(0)),
          [&] { return b_.CreateAShr(w, 1); }, [&] { return b_.CreateCall(mc_.h_.toI64, {w}); });
    default: return w;
    }
  }

  Value* box(Value* v, MType m) {
    switch (m) {
    case MType::Bool: return b_.CreateOr(b_.CreateShl(b_.CreateZExt(v, mc_.i64_), 1), wordConst(1));
    case MType::F64: return b_.CreateCall(mc_.h_.ofF64, {v});
    case MType::I64: { // inline when it fits in 63 bits (the common case)
      Value* sh = b_.CreateShl(v, 1);
      return likelyOr(
          b_, b_.CreateICmpEQ(b_.CreateAShr(sh, 1), v),
          [&] { return b_.CreateOr(sh, wordConst(1)); },
          [&] { return b_.CreateCall(mc_.h_.ofI64, {v}); });
    }
    default: return v;
    }
  }

  // Flat closure conversion: the λ's code captures exactly its free variables.
  Value* lambda(ETm* t) {
    std::vector<bool> fv(env_.size(), false);
    freeVars(t->a, t->n, fv);
    // Captured oldest-first (largest index first): the λ's own environment
    // is [caps…, params…].
    std::vector<uint32_t> caps;
    for (uint32_t i = uint32_t(fv.size()); i-- > 0;)
      if (fv[i]) caps.push_back(i);
    ETm* body = renumber(t->a, t->n, caps);
    Function* code = mc_.uniform(fmt::format("{}.lam{}", f_->getName().str(), mc_.be_.counter_++));
    mc_.lambdas.push_back({code->getName().str(), t});
    {
      FnCompiler inner(mc_, code, owner_);
      inner.uniform(body, t->n, caps);
    }
    std::vector<Value*> captured;
    for (uint32_t cap : caps) // (kept by the closure: shared)
      captured.push_back(storedWord(env_[env_.size() - 1 - cap]));
    Value* c = b_.CreateCall(mc_.h_.closure,
                             {code, b_.getInt32(t->n), b_.getInt32(uint32_t(caps.size()))});
    Value* p = b_.CreateIntToPtr(c, mc_.ptr_);
    for (size_t j = 0; j < caps.size(); ++j)
      b_.CreateStore(captured[j], b_.CreateConstGEP1_64(mc_.i64_, p, 3 + j));
    return c;
  }

  // The λ body with its free variables pointing into its own environment
  // [caps (oldest first)…, params…]: capture j (of k) is outer index caps[j].
  ETm* renumber(ETm* t, uint32_t depth, const std::vector<uint32_t>& caps) {
    return mapVars(mc_.rt_.arena(), t, depth, [&](uint32_t outer) {
      size_t j = size_t(std::find(caps.begin(), caps.end(), outer) - caps.begin());
      return uint32_t(caps.size() - 1 - j);
    });
  }

private:
  ModuleCompiler& mc_;
  Function* f_;
  IRBuilder<> b_;
  std::vector<TV> env_;
  // A worker's loop: its own tail calls jump to `loop_` with new `params_`.
  BasicBlock* loop_ = nullptr;
  std::vector<PHINode*> params_;
  PHINode* budget_ = nullptr; // iterations left before the loop polls again
  Value* budgetNow_ = nullptr;

  // The poll of a loop (after the function's own at entry): Ctrl-C every
  // kPollEvery iterations, through a counter in a register instead of a load
  // of the poll limit per iteration. (A loop does not grow the stack; each of
  // its calls polls at the callee's entry.) The branch is marked, so that a
  // loop LLVM can bound loses the poll (llvm_bounded_loops.cpp).
  void loopPoll() {
    constexpr uint32_t kPollEvery = 1024;
    BasicBlock* head = b_.GetInsertBlock();
    budget_ = b_.CreatePHI(b_.getInt32Ty(), 2, "budget");
    for (BasicBlock* pred : predecessors(head))
      budget_->addIncoming(b_.getInt32(kPollEvery), pred);
    BasicBlock* tick = BasicBlock::Create(mc_.ctx_, "tick", f_);
    BasicBlock* body = BasicBlock::Create(mc_.ctx_, "iter", f_);
    BranchInst* br = b_.CreateCondBr(b_.CreateICmpEQ(budget_, b_.getInt32(0)), tick, body,
                                     MDBuilder(mc_.ctx_).createBranchWeights(1, kPollEvery));
    br->setMetadata(kTickMetadata, MDNode::get(mc_.ctx_, {}));
    b_.SetInsertPoint(tick);
    mc_.emitPoll(b_);
    BasicBlock* ticked = b_.GetInsertBlock();
    b_.CreateBr(body);
    b_.SetInsertPoint(body);
    PHINode* now = b_.CreatePHI(b_.getInt32Ty(), 2, "budget.now");
    now->addIncoming(budget_, head);
    now->addIncoming(b_.getInt32(kPollEvery), ticked);
    budgetNow_ = now;
  }
  TopId self_ = ~TopId(0);
  TopId owner_;
  bool speculate_;
  BasicBlock* checksEnd_ = nullptr; // a worker: where checks at its entry go (see worker)
  std::set<std::pair<unsigned, uint64_t>> entryChecks_; // (parameter, key) emitted there

  // `cond` on the entry value of parameter `v` (a loop φ), before the loop:
  // false deoptimizes.
  bool deoptAtEntry(Value* v, uint64_t key, const WordCx::EntryCheck& cond, DeoptReason r,
                    const WordCx::EntryFacts& facts) {
    auto it = std::find(params_.begin(), params_.end(), v);
    if (it == params_.end()) return false;
    if (!entryChecks_.insert({unsigned(it - params_.begin()), key}).second) return true;
    IRBuilder<> b(checksEnd_->getTerminator());
    Value* ok = cond(b, f_->getArg(unsigned(it - params_.begin())));
    BasicBlock* next = checksEnd_->splitBasicBlock(checksEnd_->getTerminator(), "checked");
    checksEnd_->getTerminator()->eraseFromParent();
    BasicBlock* out = BasicBlock::Create(mc_.ctx_, "deopt", f_);
    b.SetInsertPoint(checksEnd_);
    b.CreateCondBr(ok, next, out, MDBuilder(mc_.ctx_).createBranchWeights(1 << 20, 1));
    b.SetInsertPoint(out);
    b.CreateCall(mc_.h_.deopt, {b.getInt32(owner_), b.getInt32(uint32_t(r))});
    b.CreateUnreachable();
    checksEnd_ = next;
    if (facts) {
      IRBuilder<> fb(next->getTerminator());
      facts(fb, f_->getArg(unsigned(it - params_.begin())));
    }
    return true;
  }
  WorkerInfo selfInfo_;
  bool tail_ = false;
};

Function* ModuleCompiler::worker(TopId id) {
  if (noWorkers) return nullptr;
  if (auto it = workers_.find(id); it != workers_.end()) return it->second;
  WorkerInfo wi = be_.workerInfo(rt_, id);
  if (!wi.ok) return nullptr;
  std::vector<Type*> ps;
  for (const Shape& s : wi.shapes) {
    std::vector<MType> ms;
    shapeLeaves(s, ms);
    for (MType m : ms)
      ps.push_back(llType(m));
  }
  auto it = be_.compiled_.find(id);
  (void)0;
  if (it != be_.compiled_.end() && it->second.workerName.empty())
    return nullptr; // compiled before, without a worker
  bool external = it != be_.compiled_.end();
  // Callees that are not compiled yet get a private copy of their worker only
  // when it is purely machine-typed (small, first-order: fib's callees) or
  // small and on products (a `step : State → State` inlined into its loop).
  bool copy = wi.pure ? !rt_.tooLargeToCompile(id)
                      : wi.products &&
                            countNodes(rt_.erased(id).body, kProductCopyNodes) <= kProductCopyNodes;
  if (!external && id != root && !copy) return nullptr;
  // The root's worker is exported; callees compiled along get private copies.
  std::string name = external     ? it->second.workerName
                     : id == root ? base(id) + ".w"
                                  : fmt::format("{}.w{}", base(id), be_.counter_++);
  Function* f = newFn(name, llType(wi.resultShape), ps);
  workers_[id] = f;
  if (external) {
    uses.insert(id);
    return f;
  }
  if (id != root) f->setLinkage(GlobalValue::InternalLinkage);
  pendingWorkers_.push_back({id, f});
  return f;
}

Function* ModuleCompiler::entry(TopId id) {
  if (auto it = entries_.find(id); it != entries_.end()) return it->second;
  bool external = be_.compiled_.count(id) != 0;
  if (id != root && !external) return nullptr; // not compiled: through the runtime (may tier up)
  Function* f = uniform(base(id));
  entries_[id] = f;
  if (external)
    uses.insert(id);
  else
    pendingEntries_.push_back({id, f});
  return f;
}

void ModuleCompiler::finish() {
  auto drainWorkers = [&] {
    while (!pendingWorkers_.empty()) {
      auto [wid, wf] = pendingWorkers_.back();
      pendingWorkers_.pop_back();
      FnCompiler fc(*this, wf, wid);
      fc.worker(wid, rt_.erased(wid).body, be_.workerInfo(rt_, wid));
    }
  };
  while (!pendingEntries_.empty()) {
    auto [id, f] = pendingEntries_.back();
    pendingEntries_.pop_back();
    Global& g = rt_.erased(id);
    WorkerInfo wi = be_.workerInfo(rt_, id);
    Function* w = wi.ok ? worker(id) : nullptr;
    drainWorkers(); // throws Unsupported: the caller retries without workers
    FnCompiler fc(*this, f, id);
    if (w) {
      // Wrapper: unbox the arguments, call the worker, box the result.
      IRBuilder<>& b = fc.builder();
      std::vector<Value*> args;
      for (uint32_t i = 0; i < wi.params.size(); ++i) {
        Value* a = b.CreateLoad(i64_, b.CreateConstGEP1_64(i64_, f->getArg(1), i));
        fc.flatten({a, MType::None}, wi.shapes[i], id, args);
      }
      b.CreateRet(fc.word(fc.result(b.CreateCall(w, args), wi.resultShape)));
    } else {
      fc.uniformLoop(id, g.body->a, g.arity);
    }
    drainWorkers();
  }
}

// ---------------------------------------------------------------------------

// Compiling one definition: the IR is built on the calling thread (it reads
// the runtime's state), optimized and compiled anywhere (it touches only its
// own LLVMContext and the thread-safe LLJIT), installed on the calling thread.
std::unique_ptr<LlvmTier::Job> LlvmTier::front(Runtime& rt, TopId id) {
  syncPluginLowerings(rt.err); // (on the calling thread: the tables are not shared)
  auto job = std::make_unique<Job>();
  job->id = id;
  job->name = rt.nameOf(id);
  job->t0 = std::chrono::steady_clock::now();
  if (!started_) start();
  if (!jit_) {
    rt.err << fmt::format("warning: the JIT is unavailable ({}); {} stays interpreted\n",
                          initError_, job->name);
    return nullptr;
  }
  job->ctx = std::make_unique<LLVMContext>();
  auto newModule = [&] {
    job->mod = std::make_unique<Module>(fmt::format("thorin.{}", id), *job->ctx);
    job->mod->setDataLayout(jit_->getDataLayout());
  };
  newModule();
  bool withWorkers = true;
  for (;;) {
    try {
      ModuleCompiler mc(*this, rt, *job->ctx, *job->mod);
      mc.root = id;
      mc.noWorkers = !withWorkers;
      mc.entry(id);
      mc.finish();
      job->uses = mc.uses;
      job->lambdas = mc.lambdas;
      break;
    } catch (FnCompiler::Unsupported&) {
      if (!withWorkers) {
        rt.err << fmt::format(
            "warning: cannot compile {} (unsupported construct); it stays interpreted\n",
            job->name);
        return nullptr;
      }
      withWorkers = false; // machine-typed code failed: compile on words
      newModule();
    }
  }
  std::string verr;
  raw_string_ostream vs(verr);
  if (verifyModule(*job->mod, &vs)) {
    rt.err << fmt::format("warning: JIT failure for {} (invalid IR: {}); it stays interpreted\n",
                          job->name, vs.str().substr(0, 200));
    return nullptr;
  }
  job->base = symbolBase(rt, id);
  if (withWorkers && workerInfo(rt, id).ok) {
    job->workerName = job->base + ".w";
    job->products = workerInfo(rt, id).products;
  }
  job->frontMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - job->t0).count();
  return job;
}

// The object an earlier run compiled for this module, linked; false if
// there is none or it does not link (then it is compiled again).
bool LlvmTier::linkCached(Job& job, const std::string& key) {
  auto obj = cache_->find(key);
  if (!obj) return false;
  job.tracker = jit_->getMainJITDylib().createResourceTracker();
  llvm::Error err = jit_->addObjectFile(job.tracker, std::move(obj));
  if (!err) {
    if (auto sym = jit_->lookup(job.base))
      return true;
    else
      err = sym.takeError();
  }
  consumeError(std::move(err));
  if (auto e = job.tracker->remove()) consumeError(std::move(e));
  job.tracker = nullptr;
  cache_->forget(key);
  return false;
}

void LlvmTier::back(Job& job) {
  auto t0 = std::chrono::steady_clock::now();
  std::string key = cache_ ? cache_->key(*job.mod) : "";
  if (!key.empty() && linkCached(job, key)) {
    job.fromCache = true;
    job.ir = "; LLVM's code from the code cache (entry " + key + "): its IR is not kept\n";
  } else {
    optimize(*job.mod);
    raw_string_ostream os(job.ir);
    job.mod->print(os, nullptr);
    if (!key.empty()) CodeCache::name(*job.mod, key);
    job.tracker = jit_->getMainJITDylib().createResourceTracker();
    if (auto err = jit_->addIRModule(
            job.tracker, orc::ThreadSafeModule(std::move(job.mod), std::move(job.ctx)))) {
      job.error = toString(std::move(err));
      job.tracker = nullptr;
      return;
    }
  }
  auto sym = jit_->lookup(job.base);
  if (!sym) {
    job.error = toString(sym.takeError());
    if (auto err = job.tracker->remove()) consumeError(std::move(err));
    job.tracker = nullptr;
    return;
  }
  job.entry = sym->toPtr<Code>();
  // Baseline code running meanwhile calls the optimized worker from now on
  // (same signature: I64 parameters and result; not with products).
  if (job.slot && !job.workerName.empty() && !job.products) {
    if (auto w = jit_->lookup(job.workerName)) {
      job.slot->store(w->toPtr<void*>(), std::memory_order_release);
      requestSafepoint(); // (a loop in baseline code moves over at its next poll)
    } else
      consumeError(w.takeError());
  }
  // Where its inner λs' code is, so that a normal form read back from their
  // closures gets the λs' own parameter names.
  for (auto& [lname, lam] : job.lambdas)
    if (auto ls = jit_->lookup(lname))
      job.lambdaCode.push_back({ls->toPtr<void*>(), lam});
    else
      consumeError(ls.takeError());
  job.backMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Code LlvmTier::install(Runtime& rt, Job& job) {
  if (!job.entry) {
    rt.err << fmt::format("warning: JIT failure for {} ({}); it stays interpreted\n", job.name,
                          job.error);
    return nullptr;
  }
  Compiled c;
  for (auto& [addr, lam] : job.lambdaCode) {
    lambdas_[addr] = lam;
    c.lambdas.push_back(addr);
  }
  c.tracker = job.tracker;
  c.ir = std::move(job.ir);
  c.uses = std::move(job.uses);
  c.workerName = job.workerName;
  compiled_[job.id] = std::move(c);
  rt.global(job.id).compileMs = job.frontMs + job.backMs;
  rt.global(job.id).fromCodeCache = job.fromCache;
  return job.entry;
}

Code LlvmTier::compile(Runtime& rt, TopId id) { // (the caller settled: nothing runs beside it)
  auto job = front(rt, id);
  if (!job) return nullptr;
  back(*job);
  return install(rt, *job);
}

bool LlvmTier::startCompile(Runtime& rt, TopId id, bool& failed, std::atomic<void*>* slot) {
  failed = false;
  auto job = front(rt, id);
  if (!job) {
    failed = true;
    return false;
  }
  job->slot = slot;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!worker_.joinable()) {
    try {
      worker_ = std::thread([this] { serve(); });
    } catch (std::system_error&) { // (no thread under a tight memory limit: it stays as it is)
      failed = true;
      return false;
    }
  }
  ++pending_;
  queue_.push_back(std::move(job));
  wake_.notify_one();
  return true;
}

// The background thread: runs the back half of queued jobs, in order.
constexpr auto kReleaseAfter = std::chrono::milliseconds(50);

// Idle for kReleaseAfter after its last job, it gives back the memory only
// compiling needs (jit/llvm/idle_memory.hpp).
void LlvmTier::serve() {
  std::unique_lock<std::mutex> lock(mutex_);
  bool holding = false; // (memory compiling took since the last release)
  for (;;) {
    auto ready = [&] { return stop_ || !queue_.empty(); };
    if (holding && !wake_.wait_for(lock, kReleaseAfter, ready)) {
      lock.unlock();
      releaseIdleMemory();
      lock.lock();
      holding = false;
      continue;
    }
    wake_.wait(lock, ready);
    if (queue_.empty()) return; // (stop_)
    holding = true;
    std::unique_ptr<Job> job = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    try {
      back(*job);
    } catch (std::exception& e) { // (out of memory: the function stays interpreted)
      job->entry = nullptr;
      job->error = e.what();
    }
    lock.lock();
    done_.push_back(std::move(job));
    finished_.store(true, std::memory_order_release);
    idle_.notify_all();
  }
}

void LlvmTier::settle(Runtime& rt, bool wait, const std::function<void(TopId, Code)>& installed) {
  std::vector<std::unique_ptr<Job>> done;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wait) idle_.wait(lock, [&] { return done_.size() == pending_; });
    done.swap(done_);
    pending_ -= done.size();
    finished_.store(false, std::memory_order_relaxed);
  }
  for (auto& job : done)
    installed(job->id, install(rt, *job));
}

LlvmTier::~LlvmTier() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    wake_.notify_all();
  }
  if (worker_.joinable()) worker_.join();
  // (Jobs hold resource trackers of jit_, which goes first among the members.)
  queue_.clear();
  done_.clear();
}

void LlvmTier::remove(Runtime& rt, const std::vector<TopId>& ids) {
  // Remove these and, transitively, everything compiled against them.
  std::set<TopId> gone(ids.begin(), ids.end());
  bool grew = true;
  while (grew) {
    grew = false;
    for (auto& [id, c] : compiled_)
      if (!gone.count(id))
        for (TopId u : c.uses)
          if (gone.count(u)) {
            gone.insert(id);
            grew = true;
            break;
          }
  }
  std::set<orc::ResourceTracker*> removed;
  std::vector<uint32_t> dropped; // (plugins hear of all of it: what they made for the code goes)
  for (TopId id : gone) {
    auto it = compiled_.find(id);
    if (it == compiled_.end()) continue;
    dropped.push_back(id);
    if (removed.insert(it->second.tracker.get()).second)
      if (auto err = it->second.tracker->remove()) consumeError(std::move(err));
    for (void* l : it->second.lambdas)
      lambdas_.erase(l);
    compiled_.erase(it);
    workerCache_.erase(id);
  }
  for (TopId id : gone)
    if (isSpec(id) ? id - kSpecBase < rt.specCount() : id < rt.globals.size()) {
      rt.global(id).compiled = nullptr;
      rt.global(id).calls = 0;
    }
  if (!dropped.empty()) codeDropped(dropped);
}

Tier* makeLlvm(const JitOptions* o) { return new LlvmTier(*o); }

} // namespace

} // namespace thorin::rt

/// Entry point of the JIT module (dlopen'ed by jit/llvm/llvm_loader.cpp).
/// (Plugins' lowerings register before each compilation: syncPluginLowerings.)
extern "C" thorin::rt::Tier* thorin_make_llvm_backend(const thorin::rt::JitOptions* o) {
  return thorin::rt::makeLlvm(o);
}

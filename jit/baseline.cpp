#include "baseline.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "baseline_lower.hpp"
#include "by_axiom.hpp"
#include "guard.hpp"
#include "literal.hpp"
#include "prims.hpp"

// libgcc's unwinder: registers the .eh_frame data of code it did not load.
extern "C" void __register_frame(void*);
extern "C" void __deregister_frame(void*);

namespace thorin::rt {

static ByAxiom<BaselineLowering>& lowerings() {
  static ByAxiom<BaselineLowering> t;
  return t;
}
void registerBaselineLowering(std::string_view axiom, BaselineLowering l) {
  lowerings().add(axiom, l);
}
BaselineLowering findBaselineLowering(std::string_view axiom) {
  const BaselineLowering* l = lowerings().find(axiom);
  return l ? *l : nullptr;
}
static ByAxiom<asmjit::x86::CondCode>& compares() {
  static ByAxiom<asmjit::x86::CondCode> t;
  return t;
}
void registerBaselineCompare(std::string_view axiom, asmjit::x86::CondCode cc) {
  compares().add(axiom, cc);
}
bool findBaselineCompare(std::string_view axiom, asmjit::x86::CondCode& cc) {
  const asmjit::x86::CondCode* c = compares().find(axiom);
  if (c) cc = *c;
  return c != nullptr;
}

static ByAxiom<int64_t>& monoids() {
  static ByAxiom<int64_t> t;
  return t;
}
void registerBaselineMonoid(std::string_view axiom, int64_t identity) {
  monoids().add(axiom, identity);
}
bool findBaselineMonoid(std::string_view axiom, int64_t& identity) {
  const int64_t* i = monoids().find(axiom);
  if (i) identity = *i;
  return i != nullptr;
}

namespace {
using namespace asmjit;

// What baseline code calls (plain C++ functions: the SysV convention).
int64_t blToI64(V v) { return toI64(v); }
V blOfI64(int64_t x) { return ofI64(x); }
void blPoll() {
  gPollLimit = gStackLimit; // (tripped by Ctrl-C, or a real stack overflow)
  poll();
}

struct Unsupported {};

// An address as an immediate operand.
template <class T> Imm addr(T* p) { return asmjit::imm(reinterpret_cast<intptr_t>(p)); }

// A function of `n` I64 parameters returning I64.
FuncSignatureBuilder i64Sig(uint32_t n) {
  FuncSignatureBuilder s(CallConvId::kHost);
  s.setRetT<int64_t>();
  for (uint32_t i = 0; i < n; ++i)
    s.addArgT<int64_t>();
  return s;
}

// ---------------------------------------------------------------------------
// Unwind information. Run-time errors, Ctrl-C and stack overflow are C++
// exceptions thrown by the helpers baseline code calls (and by LLVM code it
// calls through a slot); they unwind through baseline frames, so each
// function gets an FDE. asmjit's prologue (no frame pointer: one register
// fewer to save per call, measured 15 % faster on fib) pushes the
// callee-saved registers it uses, then subtracts the frame's size from rsp;
// it is decoded here, and the FDE states the CFA after each instruction.

void uleb(std::vector<uint8_t>& o, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    o.push_back(v ? b | 0x80 : b);
  } while (v);
}
void put32(std::vector<uint8_t>& o, size_t at, uint32_t v) { std::memcpy(&o[at], &v, 4); }
void put64(std::vector<uint8_t>& o, uint64_t v) {
  size_t at = o.size();
  o.resize(at + 8);
  std::memcpy(&o[at], &v, 8);
}
void pad8(std::vector<uint8_t>& o, size_t start) {
  while ((o.size() - start) % 8)
    o.push_back(0); // DW_CFA_nop
}

// x86-64 register numbers (as encoded in `push`) → DWARF's.
constexpr uint8_t kDwarfGp[16] = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};

struct Fde {
  uint64_t begin, size;
  std::vector<uint8_t> cfa; // the prologue's call frame instructions
};

// Decodes the prologue at `p` (`push r`…, `sub rsp, n`) into call frame
// instructions; false if it is not of that form or disagrees with `frame`.
bool prologue(const uint8_t* p, size_t size, const FuncFrame& frame, std::vector<uint8_t>& cfa) {
  size_t at = 0, last = 0;
  uint32_t pushed = 0, offset = 8; // CFA = rsp + offset
  auto advance = [&] {
    cfa.push_back(0x02); // DW_CFA_advance_loc1
    cfa.push_back(uint8_t(at - last));
    last = at;
  };
  while (at < size) {
    uint32_t reg;
    if (p[at] >= 0x50 && p[at] <= 0x57) {
      reg = p[at] - 0x50;
      at += 1;
    } else if (at + 1 < size && p[at] == 0x41 && p[at + 1] >= 0x50 && p[at + 1] <= 0x57) {
      reg = 8 + p[at + 1] - 0x50;
      at += 2;
    } else {
      break;
    }
    offset += 8;
    ++pushed;
    advance();
    cfa.push_back(0x0e); // DW_CFA_def_cfa_offset
    uleb(cfa, offset);
    cfa.push_back(uint8_t(0x80 | kDwarfGp[reg])); // DW_CFA_offset reg, at CFA - offset
    uleb(cfa, offset / 8);
  }
  if (pushed * 8 != frame.pushPopSaveSize()) return false;
  uint32_t adjust = 0;
  if (at + 4 <= size && p[at] == 0x48 && p[at + 1] == 0x83 && p[at + 2] == 0xec) {
    adjust = p[at + 3];
    at += 4;
  } else if (at + 7 <= size && p[at] == 0x48 && p[at + 1] == 0x81 && p[at + 2] == 0xec) {
    std::memcpy(&adjust, p + at + 3, 4);
    at += 7;
  }
  if (adjust != frame.stackAdjustment()) return false;
  if (adjust) {
    offset += adjust;
    advance();
    cfa.push_back(0x0e);
    uleb(cfa, offset);
  }
  return true;
}

std::vector<uint8_t> ehFrame(const std::vector<Fde>& fns) {
  std::vector<uint8_t> o;
  // CIE: CFA = rsp + 8, return address at CFA - 8.
  o.resize(4);
  for (uint8_t b : {0, 0, 0, 0, 1, int('z'), int('R'), 0})
    o.push_back(b);
  uleb(o, 1);                             // code alignment
  o.push_back(0x78);                      // data alignment -8
  uleb(o, 16);                            // return address register
  uleb(o, 1);                             // augmentation data: the FDE pointer encoding
  o.push_back(0x00);                      // DW_EH_PE_absptr
  for (uint8_t b : {0x0c, 7, 8, 0x90, 1}) // def_cfa rsp+8; offset ra, 1
    o.push_back(b);
  pad8(o, 0);
  put32(o, 0, uint32_t(o.size() - 4));
  for (const Fde& f : fns) {
    size_t start = o.size();
    o.resize(start + 8);
    put32(o, start + 4, uint32_t(start + 4)); // CIE pointer: back to offset 0
    put64(o, f.begin);
    put64(o, f.size);
    uleb(o, 0);
    o.insert(o.end(), f.cfa.begin(), f.cfa.end());
    pad8(o, start);
    put32(o, start, uint32_t(o.size() - start - 4));
  }
  o.resize(o.size() + 4, 0); // terminator
  return o;
}

// One compilation: the code of some functions and their unwind information.
struct Module {
  void* code = nullptr;
  std::vector<uint8_t> eh;
  std::vector<TopId> ids;          // its workers
  TopId root = 0;                  // its entry's function
  std::unordered_set<TopId> calls; // workers of other modules it calls
};

} // namespace

struct Baseline::Impl {
  JitRuntime jit;
  std::unordered_map<TopId, std::unique_ptr<std::atomic<void*>>> slots;
  std::unordered_map<TopId, void*> own; // each slot's baseline worker
  std::unordered_map<TopId, Code> entries;
  std::unordered_set<Code> entrySet;
  std::vector<std::unique_ptr<Module>> modules;

  void drop(Module& m) {
    if (!m.eh.empty()) __deregister_frame(m.eh.data());
    if (m.code) jit.release(m.code);
  }
};

namespace {

// Code generation for the functions of one module.
class Gen {
public:
  Gen(Runtime& rt, x86::Compiler& cc, Baseline::Impl& im) : rt_(rt), cc_(cc), im_(im) {}

  /// Can `g` have baseline code? (I64 parameters and result, a λ group.)
  bool eligible(TopId g) {
    if (isSpec(g) || rt_.global(g).compileFailed || rt_.global(g).tooLarge == 1) return false;
    Global& gl = rt_.erased(g);
    if (!gl.body || gl.body->tag != ETag::Lam || gl.arity == 0 || gl.arity > 6 ||
        gl.body->n != gl.arity || !gl.specsUsed.empty())
      return false;
    if (!small(gl.body)) return false;
    MachineSig sig = rt_.machineSig(g);
    if (!sig.known || sig.params.size() != gl.arity || sig.result != MType::I64) return false;
    for (MType m : sig.params)
      if (m != MType::I64) return false;
    return true;
  }

  // asmjit's register allocation grows faster than the code: a function of
  // 3,000 conditionals took 108 ms. Larger ones are left to LLVM.
  static constexpr size_t kMaxNodes = 1000;
  static constexpr size_t kMaxInlined = 40; // (fib: 14 nodes, ackermann: 27)
  static bool small(ETm* body) { return nodes(body, kMaxNodes) <= kMaxNodes; }
  // The nodes of t, counted up to `limit + 1`.
  static size_t nodes(ETm* t, size_t limit = SIZE_MAX - 1) {
    std::vector<ETm*> todo{t};
    size_t n = 0;
    while (!todo.empty() && n <= limit) {
      ETm* u = todo.back();
      todo.pop_back();
      ++n;
      forEachChild(u, 0, [&](ETm* c, uint32_t) {
        if (c) todo.push_back(c);
      });
    }
    return n;
  }

  /// The slot of `g`'s worker: an existing one, or one of this module.
  std::atomic<void*>* slotOf(TopId g) {
    if (auto it = im_.slots.find(g); it != im_.slots.end()) {
      calls_.insert(g);
      return it->second.get();
    }
    if (auto it = mine_.find(g); it != mine_.end()) return it->second.get();
    if (!eligible(g)) throw Unsupported{};
    auto s = std::make_unique<std::atomic<void*>>(nullptr);
    auto* p = s.get();
    mine_[g] = std::move(s);
    todo_.push_back(g);
    return p;
  }

  /// Emits the workers of `root` and of what it calls, and root's entry.
  void run(TopId root) {
    slotOf(root);
    for (size_t i = 0; i < todo_.size(); ++i)
      worker(todo_[i]);
    entry(root);
  }

  std::unordered_map<TopId, std::unique_ptr<std::atomic<void*>>> mine_;
  std::unordered_set<TopId> calls_; // existing slots called
  std::vector<TopId> todo_;
  std::vector<std::pair<TopId, FuncNode*>> workers_;
  FuncNode* entry_ = nullptr;

private:
  // A worker: `int64_t f(int64_t…)`.
  void worker(TopId id) {
    Global& g = rt_.erased(id);
    FuncNode* f = cc_.addFunc(i64Sig(g.arity));
    workers_.push_back({id, f});
    self_ = id;
    params_.clear();
    env_.clear();
    for (uint32_t i = 0; i < g.arity; ++i) {
      params_.push_back(cc_.newInt64());
      f->setArg(i, params_[i]);
      env_.push_back(params_[i]);
    }
    // `e ⊕ f(…)` in tail position: the accumulator holds what the loop's
    // result is combined with (the identity at first).
    accPrim_ = UINT32_MAX;
    int64_t identity = 0;
    accumulates(g.body->a, identity);
    selfInline_ = nodes(g.body) <= kMaxInlined && !loops(g.body->a);
    if (accPrim_ != UINT32_MAX) {
      acc_ = cc_.newInt64();
      cc_.mov(acc_, asmjit::imm(identity));
    }
    // The top, where a tail call of itself jumps: polls for Ctrl-C and
    // stack overflow (`sp < gPollLimit`, as compiled code does).
    top_ = cc_.newLabel();
    Label poll = cc_.newLabel(), go = cc_.newLabel();
    cc_.bind(top_);
    x86::Gp lim = cc_.newIntPtr();
    cc_.mov(lim, addr(&gPollLimit));
    cc_.cmp(x86::rsp, x86::ptr(lim));
    cc_.jb(poll);
    cc_.bind(go);
    x86::Gp r = cc_.newInt64();
    if (!into(g.body->a, r, true)) throw Unsupported{}; // (a loop without exit)
    cc_.ret(accumulated(r));
    cc_.bind(poll);
    invokeVoid(&blPoll);
    // The slot holds LLVM's worker by now (the compile thread asked for
    // this poll): a loop running here continues there.
    x86::Gp cur = cc_.newIntPtr(), me = cc_.newIntPtr();
    cc_.mov(cur, addr(slotOf(id)));
    cc_.mov(cur, x86::ptr(cur));
    cc_.lea(me, x86::ptr(f->label()));
    cc_.cmp(cur, me);
    cc_.je(go);
    InvokeNode* c;
    cc_.invoke(&c, cur, i64Sig(g.arity));
    for (uint32_t i = 0; i < g.arity; ++i)
      c->setArg(i, params_[i]);
    x86::Gp r2 = cc_.newInt64();
    c->setRet(0, r2);
    cc_.ret(accumulated(r2));
    cc_.endFunc();
  }

  bool selfCall(ETm* t) {
    return t->tag == ETag::App && t->a->tag == ETag::Global && t->a->n == self_ &&
           rt_.erased(self_).arity == t->n;
  }
  // Is t (in tail position) `e ⊕ self(…)`, ⊕ the accumulator's monoid?
  bool accTail(ETm* t) {
    return t->tag == ETag::Prim && t->n == 2 && t->prim == accPrim_ && selfCall(t->args[1]);
  }
  // Sets accPrim_ to the first monoid ⊕ of an `e ⊕ self(…)` in tail
  // position (with a baseline lowering), its identity to `identity`.
  void accumulates(ETm* t, int64_t& identity) {
    switch (t->tag) {
    case ETag::Let: accumulates(t->b, identity); return;
    case ETag::If:
      accumulates(t->b, identity);
      accumulates(t->c, identity);
      return;
    case ETag::Prim: {
      if (accPrim_ != UINT32_MAX || t->n != 2 || !selfCall(t->args[1])) return;
      const Prim& p = primById(t->prim);
      if (p.result == MType::I64 && findBaselineLowering(p.axiom) &&
          findBaselineMonoid(p.axiom, identity))
        accPrim_ = t->prim;
      return;
    }
    default: return;
    }
  }
  // Does t (in tail position) call the function itself without ⊕: a loop?
  // Its copy, not in tail position, would make that jump a call: ackermann
  // ran as many instructions with one and more calls. (fib's accumulating
  // calls are calls in the copy too, but its leaves make none.)
  bool loops(ETm* t) {
    switch (t->tag) {
    case ETag::Let: return loops(t->b);
    case ETag::If: return loops(t->b) || loops(t->c);
    default: return selfCall(t);
    }
  }
  // The function's result for r, the value of its body: acc ⊕ r.
  x86::Gp accumulated(const x86::Gp& r) {
    if (accPrim_ == UINT32_MAX) return r;
    x86::Gp out = cc_.newInt64();
    Operand as[2] = {acc_, r};
    BaselineCx cx{cc_, 0};
    findBaselineLowering(primById(accPrim_).axiom)(cx, out, as);
    return out;
  }

  // The uniform entry: `V f(Closure*, const V* args)`, boxed arguments.
  void entry(TopId id) {
    Global& g = rt_.erased(id);
    FuncSignatureBuilder sig(CallConvId::kHost);
    sig.setRetT<uint64_t>();
    sig.addArgT<void*>();
    sig.addArgT<const void*>();
    entry_ = cc_.addFunc(sig);
    x86::Gp self = cc_.newIntPtr(), args = cc_.newIntPtr();
    entry_->setArg(0, self);
    entry_->setArg(1, args);
    std::vector<x86::Gp> xs;
    for (uint32_t i = 0; i < g.arity; ++i) {
      x86::Gp w = cc_.newUInt64(), x = cc_.newInt64();
      cc_.mov(w, x86::ptr(args, int32_t(8 * i)));
      Label slow = cc_.newLabel(), done = cc_.newLabel();
      cc_.test(w, 1);
      cc_.jz(slow);
      cc_.mov(x, w);
      cc_.sar(x, 1);
      cc_.jmp(done);
      cc_.bind(slow);
      callHelper(&blToI64, w, x);
      cc_.bind(done);
      xs.push_back(x);
    }
    x86::Gp r = cc_.newInt64();
    callSlot(slotOf(id), xs, r);
    // An immediate when it fits (r + 2^62 has the sign bit clear).
    x86::Gp t = cc_.newInt64(), out = cc_.newUInt64();
    Label slow = cc_.newLabel(), done = cc_.newLabel();
    cc_.mov(t, asmjit::imm(int64_t(1) << 62));
    cc_.add(t, r);
    cc_.js(slow);
    cc_.lea(out, x86::ptr(r, r, 0, 1));
    cc_.jmp(done);
    cc_.bind(slow);
    callHelper(&blOfI64, r, out);
    cc_.bind(done);
    cc_.ret(out);
    cc_.endFunc();
  }

  // out = fn(arg), a C++ helper of one argument.
  template <class R, class A> void callHelper(R (*fn)(A), const x86::Gp& arg, const x86::Gp& out) {
    InvokeNode* c;
    FuncSignatureBuilder s(CallConvId::kHost);
    s.setRetT<R>();
    s.addArgT<A>();
    cc_.invoke(&c, addr(fn), s);
    c->setArg(0, arg);
    c->setRet(0, out);
  }

  void invokeVoid(void (*fn)()) {
    InvokeNode* c;
    FuncSignatureBuilder s(CallConvId::kHost);
    s.setRetT<void>();
    cc_.invoke(&c, addr(fn), s);
  }

  void callSlot(std::atomic<void*>* slot, const std::vector<x86::Gp>& args, const x86::Gp& out) {
    x86::Gp sp = cc_.newIntPtr();
    cc_.mov(sp, addr(slot));
    InvokeNode* c;
    cc_.invoke(&c, x86::qword_ptr(sp), i64Sig(uint32_t(args.size())));
    for (size_t i = 0; i < args.size(); ++i)
      c->setArg(uint32_t(i), args[i]);
    c->setRet(0, out);
  }

  // A register holding t's value (I64, or Bool as 0/1).
  x86::Gp val(ETm* t) {
    switch (t->tag) {
    case ETag::Var:
      if (t->n >= env_.size()) throw Unsupported{};
      return env_[env_.size() - 1 - t->n];
    case ETag::Lit: {
      x86::Gp r = cc_.newInt64();
      if (LitKind(t->n) == LitKind::I64)
        cc_.mov(r, asmjit::imm(int64_t(t->bits)));
      else if (LitKind(t->n) == LitKind::Bool)
        cc_.mov(r, asmjit::imm(t->bits != 0 ? 1 : 0));
      else
        throw Unsupported{};
      return r;
    }
    default: {
      x86::Gp r = cc_.newInt64();
      if (!into(t, r, false)) throw Unsupported{}; // (only a tail call jumps away)
      return r;
    }
    }
  }

  // A literal that fits in 32 bits as an immediate (where `imm` allows one),
  // anything else in a register.
  Operand operand(ETm* t, bool imm) {
    if (imm && t->tag == ETag::Lit && LitKind(t->n) == LitKind::I64 &&
        int64_t(t->bits) == int64_t(int32_t(t->bits)))
      return asmjit::imm(int64_t(t->bits));
    return val(t);
  }

  // If t is a comparison with a baseline lowering, emits `cmp` and sets
  // `cc` to the condition under which it is true.
  bool compare(ETm* t, x86::CondCode& cc) {
    if (t->tag != ETag::Prim || t->n != 2) return false;
    const Prim& p = primById(t->prim);
    if (p.result != MType::Bool || !findBaselineCompare(p.axiom, cc)) return false;
    for (uint32_t i = 0; i < 2; ++i)
      if (p.args[i] != MType::I64 && p.args[i] != MType::Bool) throw Unsupported{};
    x86::Gp a = val(t->args[0]);
    Operand b = operand(t->args[1], true);
    cc_.emit(x86::Inst::kIdCmp, a, b);
    return true;
  }

  // Computes t into `out`; false if it jumped away (a tail call of itself).
  bool into(ETm* t, const x86::Gp& out, bool tail) {
    switch (t->tag) {
    case ETag::Var:
    case ETag::Lit: cc_.mov(out, val(t)); return true;
    case ETag::Let: {
      env_.push_back(val(t->a));
      bool falls = into(t->b, out, tail);
      env_.pop_back();
      return falls;
    }
    case ETag::If: {
      Label no = cc_.newLabel(), join = cc_.newLabel();
      x86::CondCode cc;
      if (compare(t->a, cc)) {
        cc_.j(x86::negateCond(cc), no);
      } else {
        x86::Gp c = val(t->a);
        cc_.test(c, c);
        cc_.jz(no);
      }
      bool a = into(t->b, out, tail);
      if (a) cc_.jmp(join);
      cc_.bind(no);
      bool b = into(t->c, out, tail);
      cc_.bind(join);
      return a || b;
    }
    case ETag::Prim: {
      if (tail && accTail(t)) { // acc ⊕= e, then a tail call of itself
        Operand as[2] = {acc_, operand(t->args[0], true)};
        BaselineCx cx{cc_, t->span};
        findBaselineLowering(primById(accPrim_).axiom)(cx, acc_, as);
        return into(t->args[1], out, true);
      }
      x86::CondCode cc;
      if (compare(t, cc)) { // a Bool value: 0 or 1
        x86::Gp r = cc_.newInt64();
        cc_.mov(r, 0);
        cc_.set(cc, r.r8());
        cc_.mov(out, r);
        return true;
      }
      const Prim& p = primById(t->prim);
      BaselineLowering low = findBaselineLowering(p.axiom);
      if (!low || t->n > 4 || (p.result != MType::I64 && p.result != MType::Bool))
        throw Unsupported{};
      Operand as[4];
      for (uint32_t i = 0; i < t->n; ++i) {
        if (p.args[i] != MType::I64 && p.args[i] != MType::Bool) throw Unsupported{};
        as[i] = operand(t->args[i], i > 0);
      }
      BaselineCx cx{cc_, t->span};
      low(cx, out, as);
      return true;
    }
    case ETag::App: {
      if (t->a->tag != ETag::Global) throw Unsupported{};
      TopId g = t->a->n;
      if (rt_.erased(g).arity != t->n) throw Unsupported{};
      std::vector<x86::Gp> args;
      for (uint32_t i = 0; i < t->n; ++i)
        args.push_back(val(t->args[i]));
      if (tail && g == self_) { // a loop: new parameters, back to the top
        std::vector<x86::Gp> copies;
        for (auto& a : args) { // (an argument may be a parameter itself)
          copies.push_back(cc_.newInt64());
          cc_.mov(copies.back(), a);
        }
        for (size_t i = 0; i < args.size(); ++i)
          cc_.mov(params_[i], copies[i]);
        cc_.jmp(top_);
        return false;
      }
      if (g == self_ && !inlining_ && selfInline_) {
        // One copy of the body at its own calls (whose calls stay calls):
        // the recursion unrolled once, as LLVM's code does
        // (llvm_recursive_inline.cpp). fib's leaves then make no call.
        std::vector<x86::Gp> outer = std::exchange(env_, args);
        inlining_ = true;
        into(rt_.erased(g).body->a, out, false);
        inlining_ = false;
        env_ = std::move(outer);
        return true;
      }
      callSlot(slotOf(g), args, out);
      return true;
    }
    default: throw Unsupported{};
    }
  }

  Runtime& rt_;
  x86::Compiler& cc_;
  Baseline::Impl& im_;
  TopId self_ = 0;
  uint32_t accPrim_ = UINT32_MAX; // the accumulator's monoid (UINT32_MAX: none)
  bool selfInline_ = false;       // is the body small enough to copy at its calls?
  bool inlining_ = false;         // in that copy
  x86::Gp acc_;
  std::vector<x86::Gp> params_, env_;
  Label top_;
};

} // namespace

Baseline::Baseline() : impl_(std::make_unique<Impl>()) {}

Baseline::~Baseline() {
  for (auto& m : impl_->modules)
    impl_->drop(*m);
}

bool Baseline::owns(Code c) const { return impl_->entrySet.count(c) != 0; }

std::atomic<void*>* Baseline::slot(TopId id) {
  auto it = impl_->slots.find(id);
  return it == impl_->slots.end() ? nullptr : it->second.get();
}

Code Baseline::compile(Runtime& rt, TopId id) {
  Impl& im = *impl_;
  if (auto it = im.entries.find(id); it != im.entries.end()) return it->second;
  CodeHolder code;
  code.init(im.jit.environment());
  // THORIN_BASELINE_ASM=1 prints the code (a developer's aid, as :llvm is).
  static const bool printAsm = std::getenv("THORIN_BASELINE_ASM") != nullptr;
  StringLogger logger;
  if (printAsm) code.setLogger(&logger);
  x86::Compiler cc(&code);
  Gen gen(rt, cc, im);
  try {
    gen.run(id);
  } catch (Unsupported&) {
    return nullptr;
  }
  if (cc.finalize() != kErrorOk) return nullptr;
  if (printAsm) std::fprintf(stderr, "%s\n", logger.data());
  void* base = nullptr;
  if (im.jit.add(&base, &code) != kErrorOk) return nullptr;
  auto m = std::make_unique<Module>();
  m->code = base;
  std::vector<std::pair<uint64_t, FuncNode*>> fns;
  for (auto& [g, f] : gen.workers_)
    fns.push_back({code.labelOffsetFromBase(f->label()), f});
  fns.push_back({code.labelOffsetFromBase(gen.entry_->label()), gen.entry_});
  std::sort(fns.begin(), fns.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<Fde> fdes;
  size_t total = code.codeSize();
  for (size_t i = 0; i < fns.size(); ++i) {
    uint64_t at = fns[i].first, end = i + 1 < fns.size() ? fns[i + 1].first : total;
    const auto* p = static_cast<const uint8_t*>(base) + at;
    Fde fde{uint64_t(reinterpret_cast<uintptr_t>(p)), end - at, {}};
    if (!prologue(p, end - at, fns[i].second->frame(), fde.cfa)) {
      im.jit.release(base); // (not a prologue the unwinder could be told about)
      return nullptr;
    }
    fdes.push_back(std::move(fde));
  }
  m->eh = ehFrame(fdes);
  __register_frame(m->eh.data());
  for (auto& [g, f] : gen.workers_) {
    void* w = static_cast<uint8_t*>(base) + code.labelOffsetFromBase(f->label());
    gen.mine_[g]->store(w, std::memory_order_release);
    im.own[g] = w;
    m->ids.push_back(g);
  }
  m->root = id;
  m->calls = std::move(gen.calls_);
  for (auto& [g, s] : gen.mine_)
    im.slots[g] = std::move(s);
  auto entry = reinterpret_cast<Code>(static_cast<uint8_t*>(base) +
                                      code.labelOffsetFromBase(gen.entry_->label()));
  im.entries[id] = entry;
  im.entrySet.insert(entry);
  im.modules.push_back(std::move(m));
  return entry;
}

void Baseline::remove(Runtime& rt, const std::vector<TopId>& ids) {
  Impl& im = *impl_;
  if (im.modules.empty()) return;
  for (auto& [g, s] : im.slots)
    s->store(im.own[g], std::memory_order_release);
  std::unordered_set<TopId> gone(ids.begin(), ids.end());
  std::vector<bool> dead(im.modules.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < im.modules.size(); ++i) {
      Module& m = *im.modules[i];
      if (dead[i]) continue;
      bool hit = gone.count(m.root) != 0;
      for (TopId g : m.ids)
        hit = hit || gone.count(g);
      for (TopId g : m.calls)
        hit = hit || gone.count(g);
      if (!hit) continue;
      dead[i] = grew = true;
      gone.insert(m.root);
      gone.insert(m.ids.begin(), m.ids.end());
    }
  }
  std::vector<std::unique_ptr<Module>> kept;
  for (size_t i = 0; i < im.modules.size(); ++i) {
    Module& m = *im.modules[i];
    if (!dead[i]) {
      kept.push_back(std::move(im.modules[i]));
      continue;
    }
    if (auto it = im.entries.find(m.root); it != im.entries.end()) {
      Global& g = rt.global(m.root);
      if (g.compiled == it->second) {
        g.compiled = nullptr;
        g.calls = 0;
        g.tierUp = false;
      }
      im.entrySet.erase(it->second);
      im.entries.erase(it);
    }
    for (TopId g : m.ids) {
      im.slots.erase(g);
      im.own.erase(g);
    }
    im.drop(m);
  }
  im.modules = std::move(kept);
}

void Baseline::clear(Runtime& rt) {
  Impl& im = *impl_;
  if (im.modules.empty()) return;
  for (auto& [id, c] : im.entries) {
    Global& g = rt.global(id);
    if (g.compiled == c) {
      g.compiled = nullptr;
      g.calls = 0;
      g.tierUp = false;
    }
  }
  for (auto& m : im.modules)
    im.drop(*m);
  im.modules.clear();
  im.entries.clear();
  im.entrySet.clear();
  im.slots.clear();
  im.own.clear();
}

} // namespace thorin::rt

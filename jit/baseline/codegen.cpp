#include "codegen.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "baseline_lowering.hpp"
#include "core/guard.hpp"
#include "core/literal.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt {
namespace {

using namespace asmjit;
using x86::Gp;

// What baseline code calls (plain C++ functions: the SysV convention).
int64_t blToI64(V v) { return toI64(v); }
V blOfI64(int64_t x) { return ofI64(x); }
V blOfF64(double d) { return ofF64(d); }
V blGlobal(Runtime* rt, uint32_t id) { return rt->globalValue(id); }
V blCallGlobal(Runtime* rt, uint32_t id, const V* args) { return rt->callGlobal(id, args); }
V blLit(Runtime* rt, ETm* t) { return rt->eval(t, nullptr); }
V blArr(uint32_t n) { return mkArr(n); }
bool blElemsShaped(V arr, uint32_t rep, uint32_t len) {
  return arrElemsShaped(arr, OTag(rep), len);
}
void blPoll() {
  gPollLimit = gStackLimit; // (tripped by Ctrl-C, or a real stack overflow)
  poll();
}

struct Unsupported {
  int line = 0;
};

template <class T> Imm addr(T* p) { return asmjit::imm(reinterpret_cast<intptr_t>(p)); }

// Intermediate values: caller-saved registers that are no argument
// register of a call's own making (rax: results, rdx: division).
const Gp kScratch[] = {x86::rcx, x86::rsi, x86::rdi, x86::r8, x86::r9, x86::r10, x86::r11};
// Homes of variables, pushed by the prologue when used.
const Gp kSaved[] = {x86::rbx, x86::rbp, x86::r12, x86::r13, x86::r14, x86::r15};
const Gp kArgs[] = {x86::rdi, x86::rsi, x86::rdx, x86::rcx, x86::r8, x86::r9};
constexpr size_t kNumScratch = sizeof(kScratch) / sizeof(kScratch[0]);
constexpr size_t kNumSaved = sizeof(kSaved) / sizeof(kSaved[0]);

// x86-64 register numbers → DWARF's.
constexpr uint8_t kDwarfGp[16] = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};

// Call frame instructions of a prologue `push r…; sub rsp, n`: `at` holds
// the code offset after each of its instructions (relative to the start).
std::vector<uint8_t> prologueCfa(const std::vector<Gp>& pushed, size_t adjust,
                                 const std::vector<size_t>& at) {
  std::vector<uint8_t> cfa;
  size_t last = 0, offset = 8; // CFA = rsp + offset
  auto advance = [&](size_t to) {
    cfa.push_back(0x02); // DW_CFA_advance_loc1
    cfa.push_back(uint8_t(to - last));
    last = to;
  };
  for (size_t i = 0; i < pushed.size(); ++i) {
    offset += 8;
    advance(at[i]);
    cfa.push_back(0x0e); // DW_CFA_def_cfa_offset
    appendUleb(cfa, offset);
    cfa.push_back(uint8_t(0x80 | kDwarfGp[pushed[i].id()])); // DW_CFA_offset
    appendUleb(cfa, offset / 8);
  }
  if (adjust) {
    offset += adjust;
    advance(at[pushed.size()]);
    cfa.push_back(0x0e);
    appendUleb(cfa, offset);
  }
  return cfa;
}

// An operand: a register, a stack slot or an immediate, of a class: an I64
// or Bool (0/1) in a general register, a word (MType::None: Nat and Idx
// immediates, pointers to arrays…) in one too, or an F64 in an xmm register.
// Immediates of I64 and Bool fit in 32 bits; of words and F64, any 64 bits
// (materialized where used).
struct Opnd {
  enum Kind : uint8_t { Reg, Mem, Imm } kind = Imm;
  bool temp = false; // an intermediate register, freed by its user
  MType cls = MType::I64;
  Gp reg;               // Reg, not F64
  x86::Xmm xmm;         // Reg, F64
  int32_t off = 0;      // Mem: [rsp + off]
  int64_t imm = 0;      // (F64: the bits)
  int64_t below = 0;    // a word known to be less than this word (made by `idx`); 0: none
  uint64_t shape = 0;   // an array known to have this arrShapeCode (a row of a checked matrix)
  bool immWord = false; // a word known to be an immediate (a sum that cannot overflow)
  bool isF() const { return cls == MType::F64; }
  Operand op() const {
    if (kind == Reg) return isF() ? Operand(xmm) : Operand(reg);
    if (kind == Mem) return x86::qword_ptr(x86::rsp, off);
    return asmjit::imm(imm);
  }
  bool same(const Opnd& o) const {
    if (kind != o.kind || isF() != o.isF()) return false;
    if (kind == Reg) return isF() ? xmm.id() == o.xmm.id() : reg.id() == o.reg.id();
    return kind == Mem ? off == o.off : imm == o.imm;
  }
};
Opnd regOpnd(const Gp& r, bool temp, MType cls = MType::I64) {
  Opnd o;
  o.kind = Opnd::Reg;
  o.reg = r;
  o.temp = temp;
  o.cls = cls;
  return o;
}
Opnd xmmOpnd(const x86::Xmm& r, bool temp) {
  Opnd o;
  o.kind = Opnd::Reg;
  o.xmm = r;
  o.temp = temp;
  o.cls = MType::F64;
  return o;
}
Opnd immOpnd(int64_t v, MType cls = MType::I64) {
  Opnd o;
  o.imm = v;
  o.cls = cls;
  return o;
}

bool fits32(int64_t v) { return v == int64_t(int32_t(v)); }

// A worker's signature: the class of each parameter and of the result
// (MType::None: a word). SysV's convention: words, I64 in general argument
// registers, F64 in xmm ones; the result in rax or xmm0 — as LLVM's worker
// for the same function, which may take over the slot.
struct FnSig {
  std::vector<MType> params;
  MType result = MType::None;
};

// The module being generated: its functions in order, and the slots.
struct ModuleGen {
  Runtime& rt;
  const ExistingSlot& existing;
  BaselineModuleCode& out;
  const std::unordered_set<TopId>& refused;            // called through the runtime
  std::unordered_map<TopId, std::atomic<void*>*> mine; // slots of this module's workers
  std::unordered_map<TopId, FnSig> sigs;
  std::vector<TopId> todo;

  bool eligible(TopId g);
  bool sigOf(TopId g, FnSig& out);
  // Is g called through a slot (it has baseline code, or gets it here), not
  // through the runtime?
  bool direct(TopId g) {
    if (existing(g) || mine.count(g)) return true;
    if (refused.count(g)) return false;
    auto it = checked.find(g); // (asked at each call site and conditional)
    if (it == checked.end()) it = checked.emplace(g, eligible(g)).first;
    return it->second;
  }
  std::unordered_map<TopId, bool> checked; // eligible(g), for direct
  const FnSig& sig(TopId g) {
    auto it = sigs.find(g);
    if (it != sigs.end()) return it->second;
    FnSig s;
    if (!sigOf(g, s)) throw Unsupported{__LINE__};
    return sigs[g] = std::move(s);
  }
  std::atomic<void*>* slotOf(TopId g) {
    if (auto* s = existing(g)) {
      sig(g);
      out.calls.insert(g);
      return s;
    }
    if (auto it = mine.find(g); it != mine.end()) return it->second;
    if (!eligible(g)) throw Unsupported{__LINE__};
    auto s = std::make_unique<std::atomic<void*>>(nullptr);
    auto* p = s.get();
    out.slots[g] = std::move(s);
    mine[g] = p;
    todo.push_back(g);
    return p;
  }
};

// asmjit's register allocation grew faster than the code; this one does not,
// but a function this large is LLVM's to compile.
constexpr size_t kMaxNodes = 1000;

// Parameters and result: I64, F64 or words (a lifted λ's free variables and
// parameters are all words). Bool in a signature is left to LLVM (its
// worker passes an i1).
bool ModuleGen::sigOf(TopId g, FnSig& s) {
  Global& gl = rt.erased(g);
  MachineSig ms = rt.machineSig(g);
  if (ms.known) {
    if (ms.params.size() != gl.arity) return false;
    s.params = ms.params;
    s.result = ms.result;
  } else if (isSpec(g) && rt.spec(g).lifted) {
    s.params.assign(gl.arity, MType::None);
    s.result = MType::None;
  } else {
    return false;
  }
  size_t gp = 0, fp = 0;
  for (MType m : s.params) {
    if (m == MType::Bool) return false;
    (m == MType::F64 ? fp : gp) += 1;
  }
  return s.result != MType::Bool && gp <= 6 && fp <= 6;
}

bool ModuleGen::eligible(TopId g) {
  if ((isSpec(g) && !rt.spec(g).lifted) || rt.global(g).compileFailed || rt.global(g).tooLarge == 1)
    return false;
  Global& gl = rt.erased(g);
  if (!gl.body || gl.body->tag != ETag::Lam || gl.arity == 0 || gl.arity > 6 ||
      gl.body->n != gl.arity || !gl.specsUsed.empty())
    return false;
  if (countNodes(gl.body, kMaxNodes) > kMaxNodes) return false;
  FnSig s;
  if (!sigOf(g, s)) return false;
  sigs[g] = std::move(s);
  return true;
}

// Where the arguments of a call with these parameter classes go.
std::vector<Opnd> argLocations(const std::vector<MType>& params) {
  std::vector<Opnd> at;
  size_t gp = 0, fp = 0;
  for (MType m : params)
    at.push_back(m == MType::F64 ? xmmOpnd(x86::xmm(uint32_t(fp++)), false)
                                 : regOpnd(kArgs[gp++], false, m));
  return at;
}
// Where a value of class m is returned.
Opnd resultLocation(MType m) {
  return m == MType::F64 ? xmmOpnd(x86::xmm0, false) : regOpnd(x86::rax, false, m);
}

// What a function's first emission learns for its second: the frame.
struct FrameNeeds {
  uint32_t saved = 0; // callee-saved registers used (kSaved[0..saved))
  uint32_t slots = 0; // stack slots
  uint32_t cold = 0;  // slots of code out of line, above them (shared: one runs at a time)
};

// One worker (see FnSig). Emitted twice — the first time into a scratch
// buffer, to learn the frame (which callee-saved registers its variables
// take, how many stack slots) that the prologue sets up.
class FnGen {
public:
  FnGen(ModuleGen& m, x86::Assembler& a, TopId id, const FrameNeeds* frame, uint32_t maxUnroll)
      : m_(m), a_(a), self_(id), frame_(frame), sig_(m.sig(id)) {
    Global& g = m_.rt.erased(id);
    body_ = g.body->a;
    arity_ = g.arity;
    accumulates(body_);
    unroll_ = std::min(unrollDepth(body_), maxUnroll);
    if (unroll_ == 0) findFacts();
  }

  uint32_t unroll() const { return unroll_; }

  FrameNeeds needs() const { return FrameNeeds{savedHigh_, slotsHigh_, coldHigh_}; }

  void emit(BaselineFn& fn) {
    fn.start = a_.offset();
    fn.label = a_.newLabel();
    selfLabel_ = fn.label;
    mergeAt(fn.label);
    // The prologue: push the callee-saved registers the homes use, then
    // make room for the slots (rsp 16-aligned at calls).
    std::vector<Gp> pushed;
    std::vector<size_t> at;
    size_t adjust = 0;
    if (frame_) {
      for (uint32_t i = 0; i < frame_->saved; ++i) {
        a_.push(kSaved[i]);
        pushed.push_back(kSaved[i]);
        at.push_back(a_.offset() - fn.start);
      }
      adjust = 8 * size_t(frame_->slots + frame_->cold);
      if ((8 + 8 * pushed.size() + adjust) % 16) adjust += 8;
      if (adjust) {
        a_.sub(x86::rsp, adjust);
        at.push_back(a_.offset() - fn.start);
      }
    }
    fn.cfa = prologueCfa(pushed, adjust, at);
    Loop l;
    l.depth = 0;
    std::vector<Opnd> args = argLocations(sig_.params);
    for (uint32_t i = 0; i < arity_; ++i) {
      l.params.push_back(newHome(sig_.params[i]));
      move(l.params[i], args[i]);
    }
    loop(l);
    if (adjust) a_.add(x86::rsp, adjust);
    for (size_t i = pushed.size(); i-- > 0;)
      a_.pop(pushed[i]);
    a_.ret();
    for (size_t i = 0; i < cold_.size(); ++i) // (out of line: polls, errors, slow paths)
      cold_[i]();
    fn.end = a_.offset();
    if (frame_ &&
        (savedHigh_ > frame_->saved || slotsHigh_ > frame_->slots || coldHigh_ > frame_->cold))
      throw Unsupported{__LINE__}; // (the second emission must fit the first's frame)
  }

private:
  // A loop: the function's body, or a copy of it inlined at one of its own
  // calls, whose tail calls of the function jump back to the copy's top. A
  // copy of a loop is a loop nested in it: inlining the function into
  // itself d levels deep takes d levels of calls off the recursion (gcc -O2
  // makes fib a nest of eight accumulating loops).
  struct Loop {
    std::vector<Opnd> params; // homes
    Opnd acc;                 // home of the accumulator (accumulating bodies)
    Label go, exit;           // the body; after the loop (its value in resultLocation)
    uint32_t depth = 0;       // 0: the function itself
    std::vector<Opnd> from;   // copies: the variable each parameter starts as (or an Imm)
    // Inverted loops (the body a test): back edges test again and jump to
    // the arm (`armOf[value]`); `arm` is the one being emitted.
    bool inverted = false;
    Label armOf[2];
    int arm = 0;
    // A copy whose first test was made on its arguments: they are in its
    // homes, and it starts in the arm `enterArm` (armOf made beforehand).
    int enterArm = -1;
  };

  // ---- registers and slots ----
  // Intermediate values: general registers (kScratch), xmm1–xmm7 for F64
  // (xmm0 holds results; xmm8–xmm14 are F64 homes; xmm15 breaks cycles of
  // argument moves). All are caller-saved: saved around calls.
  static constexpr uint32_t kXScratch0 = 1, kNumXScratch = 7, kXHome0 = 8, kNumXHomes = 7;
  // An intermediate register: `want` if it is one and free.
  Gp tmp(const Gp* want = nullptr) {
    if (want) {
      size_t i = scratchIndex(*want);
      if (i != SIZE_MAX && !(busy_ & (1u << i))) {
        busy_ |= 1u << i;
        return kScratch[i];
      }
    }
    for (size_t i = 0; i < kNumScratch; ++i)
      if (!(busy_ & (1u << i))) {
        busy_ |= 1u << i;
        return kScratch[i];
      }
    throw Unsupported{__LINE__}; // (an expression nested too deep: LLVM's)
  }
  x86::Xmm xtmp() {
    for (uint32_t i = 0; i < kNumXScratch; ++i)
      if (!(xbusy_ & (1u << i))) {
        xbusy_ |= 1u << i;
        return x86::xmm(kXScratch0 + i);
      }
    throw Unsupported{__LINE__};
  }
  // A fresh intermediate of class m.
  Opnd temp(MType m, const Gp* want = nullptr) {
    return m == MType::F64 ? xmmOpnd(xtmp(), true) : regOpnd(tmp(want), true, m);
  }
  static size_t scratchIndex(const Gp& r) {
    for (size_t i = 0; i < kNumScratch; ++i)
      if (kScratch[i].id() == r.id()) return i;
    return SIZE_MAX;
  }
  void release(const Opnd& o) {
    if (o.kind != Opnd::Reg || !o.temp) return;
    if (o.isF())
      xbusy_ &= ~(1u << (o.xmm.id() - kXScratch0));
    else
      busy_ &= ~(1u << scratchIndex(o.reg));
  }
  int32_t newSlot() { return newSlots(1); }
  // n consecutive slots (a primitive's argument array).
  int32_t newSlots(uint32_t n) {
    size_t i = 0;
    for (;; ++i) {
      size_t k = 0;
      while (k < n && i + k < slotUsed_.size() && !slotUsed_[i + k])
        ++k;
      if (k == n || i + k >= slotUsed_.size()) break;
    }
    if (slotUsed_.size() < i + n) slotUsed_.resize(i + n, false);
    for (size_t k = 0; k < n; ++k)
      slotUsed_[i + k] = true;
    slotsHigh_ = std::max<uint32_t>(slotsHigh_, uint32_t(i + n));
    return int32_t(8 * i);
  }
  void freeSlot(int32_t off) { slotUsed_[size_t(off / 8)] = false; }
  // Slots of one path out of line: coldStart(), then coldSlots(n) for each
  // thing it keeps (above the others' slots, known from the first emission).
  void coldStart() { coldNext_ = 0; }
  int32_t coldSlots(uint32_t n) {
    int32_t off = int32_t(8 * ((frame_ ? frame_->slots : 0) + coldNext_));
    coldNext_ += n;
    coldHigh_ = std::max(coldHigh_, coldNext_);
    return off;
  }
  static Opnd slotOpnd(int32_t off, MType m) {
    Opnd o;
    o.kind = Opnd::Mem;
    o.off = off;
    o.cls = m;
    return o;
  }
  // A variable's home: a callee-saved register (xmm8–xmm14 for F64) while
  // there are some, else a stack slot.
  Opnd newHome(MType m) {
    if (m == MType::F64) {
      for (uint32_t i = 0; i < kNumXHomes; ++i)
        if (!(xhomes_ & (1u << i))) {
          xhomes_ |= 1u << i;
          return xmmOpnd(x86::xmm(kXHome0 + i), false);
        }
      return slotOpnd(newSlot(), m);
    }
    for (uint32_t i = 0; i < kNumSaved; ++i)
      if (!(savedBusy_ & (1u << i))) {
        savedBusy_ |= 1u << i;
        savedHigh_ = std::max(savedHigh_, i + 1);
        return regOpnd(kSaved[i], false, m);
      }
    return slotOpnd(newSlot(), m);
  }
  void freeHome(const Opnd& h) {
    if (h.kind == Opnd::Mem) {
      freeSlot(h.off);
      return;
    }
    if (h.isF()) {
      xhomes_ &= ~(1u << (h.xmm.id() - kXHome0));
      return;
    }
    for (uint32_t i = 0; i < kNumSaved; ++i)
      if (kSaved[i].id() == h.reg.id()) savedBusy_ &= ~(1u << i);
  }
  // What a call of C++ or of a worker clobbers that is in use: intermediate
  // registers and F64 homes (no xmm register is callee-saved), each with
  // the slot it is saved in — except the operands in `except` (a call's
  // arguments, a result about to be written). Code out of line keeps the
  // slots taken (restore(…, false)): it runs where any slot may be in use.
  using Saves = std::vector<std::pair<Opnd, int32_t>>;
  // Code out of line (`cold`) saves into the cold region: each path
  // starts at its bottom (coldStart), since no two run at once.
  Saves liveSaves(const std::vector<Opnd>& except, bool cold = false) {
    auto excepted = [&](const Opnd& r) {
      for (const Opnd& e : except)
        if (e.kind == Opnd::Reg && e.same(r)) return true;
      for (const Opnd& e : unset_)
        if (e.kind == Opnd::Reg && e.same(r)) return true;
      return false;
    };
    Saves saves;
    auto add = [&](const Opnd& r) {
      if (!excepted(r)) saves.push_back({r, cold ? coldSlots(1) : newSlot()});
    };
    for (size_t i = 0; i < kNumScratch; ++i)
      if (busy_ & (1u << i)) add(regOpnd(kScratch[i], false));
    for (uint32_t i = 0; i < kNumXScratch; ++i)
      if (xbusy_ & (1u << i)) add(xmmOpnd(x86::xmm(kXScratch0 + i), false));
    for (uint32_t i = 0; i < kNumXHomes; ++i)
      if (xhomes_ & (1u << i)) add(xmmOpnd(x86::xmm(kXHome0 + i), false));
    return saves;
  }
  void save(const Saves& saves) {
    for (auto& [r, s] : saves)
      move(slotOpnd(s, r.cls), r);
  }
  void restore(const Saves& saves, bool free = true) {
    for (auto& [r, s] : saves) {
      move(r, slotOpnd(s, r.cls));
      if (free) freeSlot(s);
    }
  }

  // dst ← src, for any two operands of one class (memory to memory through
  // rax).
  void move(const Opnd& dst, const Opnd& src) {
    if (dst.same(src)) return;
    if (dst.isF() || src.isF()) {
      moveF(dst, src);
      return;
    }
    if (src.kind == Opnd::Imm && dst.kind == Opnd::Reg && src.imm == 0) {
      a_.xor_(dst.reg.r32(), dst.reg.r32());
      return;
    }
    if (dst.kind == Opnd::Mem &&
        (src.kind == Opnd::Mem || (src.kind == Opnd::Imm && !fits32(src.imm)))) {
      a_.emit(x86::Inst::kIdMov, x86::rax, src.op());
      a_.emit(x86::Inst::kIdMov, dst.op(), x86::rax);
      return;
    }
    a_.emit(x86::Inst::kIdMov, dst.op(), src.op());
  }
  void moveF(const Opnd& dst, const Opnd& src) {
    if (dst.kind == Opnd::Reg) {
      if (src.kind == Opnd::Reg)
        a_.movaps(dst.xmm, src.xmm);
      else if (src.kind == Opnd::Mem)
        a_.movsd(dst.xmm, src.op().as<x86::Mem>());
      else if (src.imm == 0)
        a_.xorps(dst.xmm, dst.xmm);
      else {
        a_.mov(x86::rax, asmjit::imm(src.imm));
        a_.movq(dst.xmm, x86::rax);
      }
      return;
    }
    if (src.kind == Opnd::Reg) {
      a_.movsd(dst.op().as<x86::Mem>(), src.xmm);
      return;
    }
    a_.emit(x86::Inst::kIdMov, x86::rax, src.op());
    a_.emit(x86::Inst::kIdMov, dst.op(), x86::rax);
  }

  // ---- the function's shape ----
  bool selfCall(ETm* t) {
    return t->tag == ETag::App && t->a->tag == ETag::Global && t->a->n == self_ &&
           m_.rt.erased(self_).arity == t->n;
  }
  bool accTail(ETm* t) {
    return t->tag == ETag::Prim && t->n == 2 && t->prim == accPrim_ && selfCall(t->args[1]);
  }
  // The accumulator's monoid: that of the first `e ⊕ self(…)` in tail
  // position.
  void accumulates(ETm* t) {
    switch (t->tag) {
    case ETag::Let: accumulates(t->b); return;
    case ETag::If:
      accumulates(t->b);
      accumulates(t->c);
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
  size_t callsOfSelf(ETm* t, bool tail) {
    switch (t->tag) {
    case ETag::Let: return callsOfSelf(t->a, false) + callsOfSelf(t->b, tail);
    case ETag::If:
      return callsOfSelf(t->a, false) + callsOfSelf(t->b, tail) + callsOfSelf(t->c, tail);
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
  static constexpr uint32_t kMaxUnroll = 8;
  static constexpr size_t kUnrollBudget = 480; // nodes in all copies
  static constexpr size_t kMaxHomes = 18;      // variables of all loops
  uint32_t unrollDepth(ETm* body) {
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

  // ---- loops ----
  // Emits loop l (its parameter homes set); its value ends in the result
  // location of the function's result class.
  void loop(Loop& l) {
    if (accPrim_ != UINT32_MAX) {
      l.acc = newHome(MType::I64);
      move(l.acc, immOpnd(identity_));
    }
    l.go = a_.newLabel();
    l.exit = a_.newLabel();
    // The function's entry polls for Ctrl-C and stack overflow (`sp <
    // gPollLimit`, as compiled code does); loops poll at their back edges
    // (copies take no stack).
    if (l.depth == 0) pollCheck(l);
    std::vector<Opnd> outer = std::exchange(env_, l.params);
    loops_.push_back(&l);
    bool falls;
    if (l.depth == 0 && anyFact()) {
      // Two versions of the loop: one that knows the facts, entered when
      // the parameters meet them, and the plain one, where the first goes
      // when a new value at a back edge does not (same homes: a jump).
      mergeAt(l.go);
      Label plain = a_.newLabel();
      factChecks(l.params, plain, false);
      l.go = a_.newLabel();
      mergeAt(l.go);
      plainGo_ = plain;
      useFacts_ = true;
      falls = tailInto(body_);
      useFacts_ = false;
      l.go = plain;
      mergeAt(l.go);
      falls = tailInto(body_, true) || falls;
      loops_.pop_back();
      env_ = std::move(outer);
      if (!falls) throw Unsupported{__LINE__}; // (a loop without exit)
      mergeAt(l.exit);
      if (accPrim_ != UINT32_MAX) freeHome(l.acc);
      return;
    }
    int first = l.depth > 0 && body_->tag == ETag::If ? atEntry(l, body_->a) : -1;
    if (l.enterArm >= 0) {
      l.armOf[0] = a_.newLabel();
      l.armOf[1] = a_.newLabel();
      a_.jmp(l.armOf[l.enterArm]);
      mergeAt(l.go);
      falls = tailInto(body_, true);
    } else if (first >= 0) {
      // The copy's first test is decided where it is entered (ackermann's
      // copy of itself at `ack m (n - 1)`, entered where m ≠ 0): the branch
      // taken comes first, and the test is where back edges go.
      Label taken = a_.newLabel(), other = a_.newLabel();
      l.inverted = simpleTest(body_->a);
      l.armOf[first] = taken;
      l.armOf[1 - first] = other;
      mergeAt(taken);
      l.arm = first;
      falls = tailBranch(body_->a, first == 1, first == 1 ? body_->b : body_->c);
      mergeAt(l.go);
      branch(body_->a, first == 1, taken);
      a_.bind(other); // (back edges come here having made the same test)
      l.arm = 1 - first;
      falls = tailBranch(body_->a, first != 1, first == 1 ? body_->c : body_->b, true) || falls;
    } else {
      mergeAt(l.go);
      falls = tailInto(body_, true);
    }
    loops_.pop_back();
    env_ = std::move(outer);
    if (!falls) throw Unsupported{__LINE__}; // (a loop without exit)
    mergeAt(l.exit);
    if (accPrim_ != UINT32_MAX) freeHome(l.acc);
  }

  // t in tail position of the innermost loop: its value, ⊕ the
  // accumulator, goes to the result location at the loop's exit. False if
  // no path gets there (each is a tail call of the function). `last`: the
  // exit comes next (no jump to it).
  bool tailInto(ETm* t, bool last = false) {
    Loop& l = *loops_.back();
    switch (t->tag) {
    case ETag::Let: {
      Opnd h = bind(t->a);
      bool falls = tailInto(t->b, last);
      unbind(h);
      return falls;
    }
    case ETag::If: {
      // The loop's first test: back edges make it again (loop inversion),
      // so that the test of a new iteration is a branch apart from the
      // entry's (fib's nest: half as many mispredicted branches).
      bool head = t == body_ && simpleTest(t->a);
      bool made = head && l.enterArm >= 0; // (the arms' labels: the entry jumps to them)
      Label no = made ? l.armOf[0] : a_.newLabel();
      branch(t->a, false, no);
      if (head) {
        l.inverted = true;
        if (made) {
          mergeAt(l.armOf[1]);
        } else {
          l.armOf[0] = no;
          l.armOf[1] = a_.newLabel();
          a_.bind(l.armOf[1]); // (back edges come here having made the same test)
        }
        l.arm = 1;
      }
      bool a = tailBranch(t->a, true, t->b);
      mergeAt(no);
      if (head) l.arm = 0;
      bool b = tailBranch(t->a, false, t->c, last);
      return a || b;
    }
    case ETag::Prim:
      if (accTail(t)) { // acc ⊕= e, then a tail call of itself
        if (t->args[0]->tag == ETag::App) {
          MType m = callInto(t->args[0]);
          Opnd e = as(resultLocation(m), MType::I64);
          accumulate(l, e);
          release(e);
        } else {
          Opnd e = as(eval(t->args[0]), MType::I64);
          accumulate(l, e);
          release(e);
        }
        return tailInto(t->args[1], last);
      }
      break;
    case ETag::App:
      if (selfCall(t)) {
        backEdge(l, t, last);
        return false;
      }
      break;
    default: break;
    }
    Opnd out = resultLocation(sig_.result);
    if (t->tag == ETag::App) {
      MType m = callInto(t);
      Opnd v = as(resultLocation(m), sig_.result);
      move(out, v);
      release(v);
    } else if (sig_.result != MType::I64 || !arithInto(t, x86::rax)) {
      Opnd v = as(eval(t), sig_.result);
      move(out, v);
      release(v);
    }
    if (accPrim_ != UINT32_MAX) binary(accOp_, x86::rax, l.acc);
    if (!last) a_.jmp(l.exit);
    return true;
  }

  // l's accumulator ⊕= e (e may be rax).
  void accumulate(Loop& l, const Opnd& e) {
    if (l.acc.kind == Opnd::Reg) {
      binary(accOp_, l.acc.reg, e);
    } else if (accOp_ == BaselineOp::Add && e.kind != Opnd::Mem) {
      a_.emit(x86::Inst::kIdAdd, l.acc.op(), e.op());
    } else {
      a_.emit(x86::Inst::kIdMov, x86::rdx, l.acc.op());
      binary(accOp_, x86::rdx, e);
      a_.emit(x86::Inst::kIdMov, l.acc.op(), x86::rdx);
    }
  }

  // `x ⊕ y` of a variable or literal x and y, computed into dst (any
  // register) without intermediates; false for anything else.
  bool arithInto(ETm* t, const Gp& dst) {
    if (t->tag != ETag::Prim || t->n != 2) return false;
    const BaselineLowering* l = findBaselineLowering(primById(t->prim).axiom);
    if (!l || !intOp(l->op)) return false;
    auto plain = [&](ETm* u) {
      if (u->tag == ETag::Var)
        return u->n < env_.size() && env_[env_.size() - 1 - u->n].cls != MType::None;
      return u->tag == ETag::Lit && LitKind(u->n) == LitKind::I64 && fits32(int64_t(u->bits));
    };
    if (!plain(t->args[0]) || !plain(t->args[1])) return false;
    const BaselineLowering& low = lowering(t);
    if (low.op != BaselineOp::Add && low.op != BaselineOp::Sub && low.op != BaselineOp::Mul)
      return false;
    Opnd x = eval(t->args[0]), y = eval(t->args[1]);
    if (x.kind == Opnd::Reg && y.kind == Opnd::Imm && low.op != BaselineOp::Mul) {
      a_.lea(dst, x86::ptr(x.reg, int32_t(low.op == BaselineOp::Add ? y.imm : -y.imm)));
      return true;
    }
    if (y.kind == Opnd::Reg && y.reg.id() == dst.id()) return false; // (not clobbered first)
    move(regOpnd(dst, false), x);
    binary(low.op, dst, y);
    return true;
  }

  // An application's value into the result location of its class (which
  // it returns): a copy of the function (a nested loop) or a call.
  MType callInto(ETm* t) {
    if (t->a->tag != ETag::Global) throw Unsupported{__LINE__};
    TopId g = t->a->n;
    if (m_.rt.erased(g).arity != t->n) throw Unsupported{__LINE__};
    if (g == self_ && loops_.back()->depth < unroll_) {
      nested(t);
      return sig_.result;
    }
    if (g != self_ && !m_.direct(g)) {
      callRuntime(g, t);
      return MType::None;
    }
    return call(g, t);
  }

  // A call of a function without baseline code, through the runtime (its
  // compiled entry, or the interpreter): arguments and result are words.
  void callRuntime(TopId g, ETm* t) {
    callOnWords(t, [&](int32_t base) {
      a_.mov(x86::rdi, addr(&m_.rt));
      a_.mov(x86::esi, g);
      a_.lea(x86::rdx, x86::qword_ptr(x86::rsp, base));
      a_.mov(x86::rax, addr(&blCallGlobal));
      a_.call(x86::rax);
    });
  }

  // A call of C++ that takes t's arguments as an array of words (in fresh
  // slots at `base`): `call(base)` sets its other arguments and calls, with
  // what is live saved around it. The result is in rax.
  void callOnWords(ETm* t, const std::function<void(int32_t)>& call) {
    std::vector<Opnd> ws = words(t);
    int32_t base = newSlots(t->n);
    for (uint32_t i = 0; i < t->n; ++i)
      move(slotOpnd(base + int32_t(8 * i), MType::None), ws[i]);
    releaseAll(ws);
    Saves saves = liveSaves({});
    save(saves);
    call(base);
    restore(saves);
    for (uint32_t i = 0; i < t->n; ++i)
      freeSlot(base + int32_t(8 * i));
  }

  // result ← fn(args…), C++ taking general arguments (words, I64, pointers
  // as immediates); what is live is saved around it.
  Opnd callC(void* fn, const std::vector<Opnd>& args) {
    std::vector<Opnd> temps;
    for (auto& x : args)
      if (x.kind == Opnd::Reg && x.temp) temps.push_back(x);
    Saves saves = liveSaves(temps);
    save(saves);
    releaseAll(args);
    std::vector<Opnd> dsts;
    for (size_t i = 0; i < args.size(); ++i)
      dsts.push_back(regOpnd(kArgs[i], false));
    parallelMove(dsts, args);
    a_.mov(x86::rax, asmjit::imm(reinterpret_cast<intptr_t>(fn)));
    a_.call(x86::rax);
    restore(saves);
    Opnd r = temp(MType::None);
    move(r, regOpnd(x86::rax, false, MType::None));
    return r;
  }

  // A conditional's branch t, where its condition c has the value `value`
  // (a fact while t is emitted).
  bool tailBranch(ETm* c, bool value, ETm* t, bool last = false) {
    Fact f;
    bool known = asFact(c, value, f);
    if (known) facts_.push_back(f);
    bool falls = tailInto(t, last);
    if (known) facts_.pop_back();
    return falls;
  }

  // What a branch knows of a variable: `cmp home, imm` meets cc. Homes of
  // variables in scope change only at back edges, where the path ends.
  struct Fact {
    Opnd home;
    x86::CondCode cc;
    int64_t imm;
  };
  // c, a comparison of an I64 variable with a small literal, as a fact
  // (that it has the value `value`).
  bool asFact(ETm* c, bool value, Fact& f) {
    if (c->tag != ETag::Prim || c->n != 2) return false;
    const BaselineLowering* l = findBaselineLowering(primById(c->prim).axiom);
    if (!l || l->op != BaselineOp::Compare) return false;
    ETm *x = c->args[0], *y = c->args[1];
    x86::CondCode cc = l->cc;
    if (x->tag == ETag::Lit) {
      std::swap(x, y);
      cc = x86::reverseCond(cc);
    }
    if (x->tag != ETag::Var || x->n >= env_.size() || y->tag != ETag::Lit ||
        env_[env_.size() - 1 - x->n].cls == MType::None)
      return false;
    int64_t k = literal(y);
    if (!fits32(k)) return false;
    f = Fact{env_[env_.size() - 1 - x->n], value ? cc : x86::negateCond(cc), k};
    return true;
  }
  // The value of c when loop l (a copy) is entered: 1, 0, or -1 (unknown).
  // Known when c tests a parameter that starts as a variable of which the
  // code around knows it.
  int atEntry(const Loop& l, ETm* c) {
    Fact f;
    if (!asFact(c, true, f)) return -1;
    for (size_t i = 0; i < l.params.size(); ++i) {
      if (!l.params[i].same(f.home) || l.from[i].kind == Opnd::Imm) continue;
      for (const Fact& g : facts_)
        if (g.home.same(l.from[i]) && g.imm == f.imm) {
          if (g.cc == f.cc) return 1;
          if (g.cc == x86::negateCond(f.cc)) return 0;
        }
    }
    return -1;
  }

  // A let: its value in a new home (it may live across calls and loops).
  Opnd bind(ETm* value) {
    Opnd v = eval(value);
    Opnd h = newHome(v.cls);
    forgetBelow(h);
    move(h, v);
    release(v);
    env_.push_back(h);
    return h;
  }
  void unbind(const Opnd& h) {
    env_.pop_back();
    freeHome(h);
  }

  // `cmp rsp, [gPollLimit]`; below it, the poll, out of line. Intermediate
  // values of the loops around are saved there (the poll calls C++). The
  // executable is linked at a fixed address below 2 GiB, so the limit is a
  // 32-bit absolute operand (else its address is loaded into rax first):
  // ackermann(3, 9) 118.6 → 112.1 M instructions, 3–4 % faster.
  // At a back edge (`back`), the common case jumps to the loop's body.
  void pollCheck(Loop& l, bool back = false) {
    uint64_t lim = uint64_t(reinterpret_cast<uintptr_t>(&gPollLimit));
    if (lim < (uint64_t(1) << 31)) { // (a 32-bit absolute operand: thorin is not a PIE)
      a_.cmp(x86::rsp, x86::qword_ptr(lim));
    } else {
      a_.mov(x86::rax, addr(&gPollLimit));
      a_.cmp(x86::rsp, x86::ptr(x86::rax));
    }
    Label stub = a_.newLabel();
    if (back) {
      a_.jae(l.go);
      a_.jmp(stub);
    } else {
      a_.jb(stub);
    }
    coldStart();
    Saves saves = liveSaves({}, true);
    cold_.push_back([this, stub, saves, params = l.params, acc = l.acc, go = l.go, exit = l.exit] {
      pollStub(stub, saves, params, acc, go, exit);
    });
  }

  // The poll; then back to the loop — or, when the slot holds LLVM's worker
  // by now (the compile thread asked for this poll), the loop continues
  // there: its value is acc ⊕ f(params).
  void pollStub(Label stub, const Saves& saves, const std::vector<Opnd>& params, const Opnd& acc,
                Label go, Label exit) {
    a_.bind(stub);
    save(saves);
    a_.mov(x86::rax, addr(&blPoll));
    a_.call(x86::rax);
    a_.mov(x86::rax, addr(m_.slotOf(self_)));
    a_.mov(x86::rax, x86::ptr(x86::rax));
    a_.lea(x86::rdx, x86::ptr(selfLabel_));
    a_.cmp(x86::rax, x86::rdx);
    Label moved = a_.newLabel();
    a_.jne(moved);
    restore(saves, false);
    a_.jmp(go);
    a_.bind(moved);
    // (homes are no argument registers: plain moves)
    std::vector<Opnd> at = argLocations(sig_.params);
    for (size_t i = 0; i < params.size(); ++i)
      move(at[i], params[i]);
    a_.call(x86::rax);
    if (accPrim_ != UINT32_MAX) binary(accOp_, x86::rax, acc);
    // (the result is in its location: restoring does not touch rax, xmm0)
    restore(saves, false);
    a_.jmp(exit);
  }

  // A tail call of the function in loop l: the new parameters, then back
  // to the top. All arguments are computed before a home changes; an
  // argument `p ± k` of its own I64 parameter p is an update in place.
  // `lastArm`: the loop's exit comes next.
  void backEdge(Loop& l, ETm* call, bool lastArm = false) {
    struct Arg {
      enum { Same, InPlace, Value, FInPlace } kind;
      Opnd v;
      bool add = true;
      x86::Inst::Id fop = x86::Inst::kIdNone; // FInPlace: home ⊕= v (an F64 accumulator)
    };
    std::vector<Arg> args;
    // An argument that calls something is computed last, when the others
    // cannot fail: its value is taken from the result location.
    uint32_t last = UINT32_MAX;
    for (uint32_t i = 0; i < call->n; ++i)
      if (call->args[i]->tag == ETag::App) last = last == UINT32_MAX ? i : UINT32_MAX - 1;
    if (last < call->n)
      for (uint32_t i = 0; i < call->n; ++i)
        if (i != last && !total(call->args[i])) last = UINT32_MAX;
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
    bool early = exitArm && smallExit(exitArm) && !useFacts_ && accPrim_ == UINT32_MAX;
    for (size_t i = 0; early && i < args.size(); ++i)
      if (l.params[i].cls != MType::I64 || args[i].kind == Arg::FInPlace) early = false;
    if (early) {
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
      return;
    }
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
    if (useFacts_ && l.depth == 0) // the new values must meet the facts, else the plain loop
      factChecks(l.params, plainGo_, true, &same, &immNew);
    if (!l.inverted) {
      pollCheck(l, true);
      belowKnown_.clear();
      return;
    }
    // The loop's test on the new values, as at its head (whose variables
    // are the parameters): to the arm it picks, this one if it is picked.
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

  // A test without calls, small enough to be made again at back edges
  // (at most `budget` nodes).
  static bool simpleTest(ETm* t, size_t budget = 16) {
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

  bool isVar(ETm* t, const Opnd& home) {
    return t->tag == ETag::Var && t->n < env_.size() && env_[env_.size() - 1 - t->n].same(home);
  }
  Opnd copyToTemp(const Opnd& v, const Gp* want = nullptr) {
    Opnd r = temp(v.cls, want);
    move(r, v);
    return r;
  }

  // A self-call that is no loop: a copy of the function, a loop nested
  // here; its value ends in rax (copies are made of functions on I64).
  void nested(ETm* call) {
    Loop l;
    l.depth = loops_.back()->depth + 1;
    // Each argument straight into its new home (no argument reads one).
    for (uint32_t i = 0; i < call->n; ++i) {
      l.params.push_back(newHome(MType::I64));
      ETm* x = call->args[i];
      l.from.push_back(x->tag == ETag::Var && x->n < env_.size() ? env_[env_.size() - 1 - x->n]
                                                                 : Opnd{});
    }
    // A first test with a small exit arm is made on the arguments, before
    // they go to the homes: the exit (fib's leaves, half its calls) then
    // writes no home (and, the accumulator being the identity, reads none).
    int exitWhen = -1;
    if (body_->tag == ETag::If && simpleTest(body_->a)) {
      std::vector<Opnd> outer = std::exchange(env_, l.params); // (as loop() sees it)
      if (atEntry(l, body_->a) < 0)
        exitWhen = smallExit(body_->b) ? 1 : smallExit(body_->c) ? 0 : -1;
      env_ = std::move(outer);
    }
    Label skip = a_.newLabel();
    if (exitWhen >= 0) {
      std::vector<Opnd> args, vars;
      for (uint32_t i = 0; i < call->n; ++i) {
        args.push_back(as(eval(call->args[i]), MType::I64));
        vars.push_back(asVariable(args.back()));
      }
      std::vector<Opnd> outer = std::exchange(env_, vars);
      Label go = a_.newLabel();
      branch(body_->a, exitWhen != 1, go);
      ETm* exit = exitWhen == 1 ? body_->b : body_->c;
      if (!arithInto(exit, x86::rax)) {
        Opnd v = as(eval(exit), MType::I64);
        move(resultLocation(MType::I64), v);
        release(v);
      }
      a_.jmp(skip);
      env_ = std::move(outer);
      mergeAt(go);
      for (uint32_t i = 0; i < call->n; ++i) {
        move(l.params[i], args[i]);
        release(args[i]);
      }
      l.enterArm = 1 - exitWhen;
    } else {
      for (uint32_t i = 0; i < call->n; ++i) {
        if (l.params[i].kind == Opnd::Reg && arithInto(call->args[i], l.params[i].reg)) continue;
        Opnd v = as(eval(call->args[i]), MType::I64);
        move(l.params[i], v);
        release(v);
      }
    }
    loop(l);
    mergeAt(skip);
    for (auto& h : l.params)
      freeHome(h);
  }
  static bool smallExit(ETm* t) { return t->tag != ETag::If && simpleTest(t, 6); }
  // An intermediate value read as a variable (a test, an exit arm on new
  // values): using it does not release it; its owner does, after.
  static Opnd asVariable(Opnd v) {
    v.temp = false;
    return v;
  }

  // A call through a slot; its value ends in the result location of the
  // callee's result class, which it returns.
  MType call(TopId g, ETm* t) {
    std::atomic<void*>* slot = m_.slotOf(g);
    const FnSig sig = g == self_ ? sig_ : m_.sig(g);
    std::vector<Opnd> vs(t->n);
    // Arguments that call something first, when the others cannot fail: an
    // argument computed before a call would be saved around it.
    bool reorder = true;
    for (uint32_t i = 0; i < t->n; ++i)
      if (!callsAnything(t->args[i]) && !total(t->args[i])) reorder = false;
    std::vector<uint32_t> order;
    for (int pass = 0; pass < 2; ++pass)
      for (uint32_t i = 0; i < t->n; ++i)
        if (!reorder || callsAnything(t->args[i]) == (pass == 0))
          if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
    std::vector<Opnd> at = argLocations(sig.params);
    for (uint32_t i : order) {
      const Gp* want = at[i].isF() ? nullptr : &at[i].reg;
      vs[i] = as(eval(t->args[i], want), sig.params[i]);
    }
    std::vector<Opnd> temps;
    for (auto& v : vs)
      if (v.kind == Opnd::Reg && v.temp) temps.push_back(v);
    Saves saved = liveSaves(temps);
    save(saved);
    for (auto& v : vs)
      release(v);
    parallelMove(at, vs);
    if (g == self_) { // (its entry's poll moves on to LLVM's code when that is ready)
      a_.call(selfLabel_);
    } else {
      a_.mov(x86::rax, addr(slot));
      a_.call(x86::ptr(x86::rax));
    }
    restore(saved);
    return sig.result;
  }

  bool callsAnything(ETm* t) {
    if (t->tag == ETag::App) return true;
    bool any = false;
    forEachChild(t, 0, [&](ETm* c, uint32_t) {
      if (c && !any) any = callsAnything(c);
    });
    return any;
  }
  // Cannot fail or loop: no call, no division, no primitive that may call
  // its run-time implementation.
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

  // dsts[i] ← vs[i] at once, dsts registers (a source may be another's
  // destination; rax and xmm15 break cycles). F64 first: an F64 literal
  // passes through rax.
  void parallelMove(const std::vector<Opnd>& dsts, std::vector<Opnd> vs) {
    size_t n = vs.size();
    std::vector<bool> done(n, false);
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < n; ++i)
        done[i] = dsts[i].isF() != (pass == 0);
      parallelMovePass(dsts, vs, done);
    }
  }
  void parallelMovePass(const std::vector<Opnd>& dsts, std::vector<Opnd>& vs,
                        std::vector<bool>& done) {
    size_t n = vs.size();
    auto readBy = [&](const Opnd& r, size_t except) {
      for (size_t j = 0; j < n; ++j)
        if (!done[j] && j != except && vs[j].kind == Opnd::Reg && vs[j].same(r)) return true;
      return false;
    };
    size_t left = 0;
    for (size_t i = 0; i < n; ++i)
      left += !done[i];
    while (left > 0) {
      bool progress = false;
      for (size_t i = 0; i < n; ++i) {
        if (done[i] || readBy(dsts[i], i)) continue;
        move(dsts[i], vs[i]);
        done[i] = true;
        --left;
        progress = true;
      }
      if (progress) continue;
      // A cycle: move one waiting destination's current value aside.
      for (size_t i = 0; i < n; ++i)
        if (!done[i]) {
          Opnd aside = dsts[i].isF() ? xmmOpnd(x86::xmm15, false) : regOpnd(x86::rax, false);
          move(aside, dsts[i]);
          for (size_t j = 0; j < n; ++j)
            if (!done[j] && vs[j].kind == Opnd::Reg && vs[j].same(dsts[i])) vs[j] = aside;
          break;
        }
    }
  }

  // ---- facts of the loop's parameters ----
  // A word parameter that Nat operations take is an immediate; an array
  // parameter read by `get` at a literal element type and length, passed
  // unchanged around the loop, has that representation and length. The
  // function's loop is emitted twice: a version that knows these facts
  // (checked at the entry, and for new values at back edges) and skips the
  // checks they make, and the plain one, where it goes when they fail.
  struct ParamFact {
    bool imm = false;   // an immediate (Nat)
    bool arr = false;   // an array of representation `rep` and `len` elements
    bool noArr = false; // (reads that disagree, or the parameter changes)
    int64_t below = 0;  // an index word below this (`Idx n` read from arrays of n)
    OTag rep = OTag::Arr;
    uint32_t len = 0;
    // An array (of words) whose elements are arrays read by `get` at a
    // literal element type and length: their shape, checked once per
    // array at the entry (arrElemsShaped; remembered in the array).
    uint64_t rows = 0;
    bool noRows = false;
  };
  std::vector<ParamFact> pfacts_;
  bool useFacts_ = false;
  Label plainGo_;

  // Which parameter `t` (a variable at `depth` binders inside the body) is.
  int paramOf(ETm* t, uint32_t depth) const {
    if (t->tag != ETag::Var || t->n < depth || t->n - depth >= arity_) return -1;
    return int(arity_ - 1 - (t->n - depth));
  }
  void findFacts() {
    pfacts_.assign(arity_, {});
    std::function<void(ETm*, uint32_t, bool)> walk = [&](ETm* t, uint32_t depth, bool tail) {
      if (t->tag == ETag::Prim) {
        const BaselineLowering* l = findBaselineLowering(primById(t->prim).axiom);
        if (l && (l->op == BaselineOp::NatAdd || l->op == BaselineOp::NatSub ||
                  l->op == BaselineOp::NatMul || l->op == BaselineOp::NatDiv ||
                  l->op == BaselineOp::NatMod || l->op == BaselineOp::NatCompare ||
                  l->op == BaselineOp::IdxOf || l->op == BaselineOp::NatToF64))
          for (uint32_t i = 0; i < t->n; ++i)
            if (int p = paramOf(t->args[i], depth); p >= 0 && sig_.params[p] == MType::None)
              pfacts_[p].imm = true;
        if (l && l->op == BaselineOp::ArrGet && t->args[1]->tag == ETag::Lit &&
            LitKind(t->args[1]->n) == LitKind::Nat && t->args[1]->bits < (uint64_t(1) << 31) &&
            t->args[0]->tag == ETag::Erased)
          if (int p = paramOf(t->args[2], depth); p >= 0 && sig_.params[p] == MType::None) {
            MType m = elemHint(t);
            OTag rep = m == MType::I64 ? OTag::ArrI64 : m == MType::F64 ? OTag::ArrF64 : OTag::Arr;
            uint32_t len = uint32_t(t->args[1]->bits);
            ParamFact& f = pfacts_[p];
            if (f.arr && (f.rep != rep || f.len != len)) f.noArr = true;
            f.arr = true, f.rep = rep, f.len = len;
          }
        // get {A} {n} (get {B} {m} p i) j: p's rows have A's representation and length n
        if (l && l->op == BaselineOp::ArrGet && t->args[1]->tag == ETag::Lit &&
            LitKind(t->args[1]->n) == LitKind::Nat && t->args[1]->bits < (uint64_t(1) << 22) &&
            t->args[2]->tag == ETag::Prim && t->args[2]->n == 4 &&
            findBaselineLowering(primById(t->args[2]->prim).axiom) == l)
          if (int p = paramOf(t->args[2]->args[2], depth);
              p >= 0 && sig_.params[p] == MType::None) {
            MType m = elemHint(t);
            OTag rep = m == MType::I64 ? OTag::ArrI64 : m == MType::F64 ? OTag::ArrF64 : OTag::Arr;
            uint64_t code = arrShapeCode(rep, uint32_t(t->args[1]->bits));
            ParamFact& f = pfacts_[p];
            if (f.rows && f.rows != code) f.noRows = true;
            f.rows = code;
          }
        if (l && l->op == BaselineOp::ArrGet && t->args[1]->tag == ETag::Lit &&
            LitKind(t->args[1]->n) == LitKind::Nat && t->args[1]->bits < (uint64_t(1) << 30))
          if (int p = paramOf(t->args[3], depth); p >= 0 && sig_.params[p] == MType::None) {
            int64_t w = wordOf(int64_t(t->args[1]->bits));
            ParamFact& f = pfacts_[p];
            f.below = f.below ? std::min(f.below, w) : w;
          }
      }
      bool selfTail = tail && selfCall(t);
      if (selfTail)
        for (uint32_t i = 0; i < t->n; ++i)
          if (paramOf(t->args[i], depth) != int(i)) pfacts_[i].noArr = true;
      switch (t->tag) { // (tail positions: a let's body, an if's branches, `e ⊕ self(…)`)
      case ETag::Let:
        walk(t->a, depth, false);
        walk(t->b, depth + 1, tail);
        return;
      case ETag::If:
        walk(t->a, depth, false);
        walk(t->b, depth, tail);
        walk(t->c, depth, tail);
        return;
      default: break;
      }
      bool acc = tail && accTail(t);
      uint32_t k = 0;
      forEachChild(t, depth, [&](ETm* c, uint32_t d) { walk(c, d, acc && k++ == 1); });
    };
    walk(body_, 0, true);
    for (ParamFact& f : pfacts_) {
      if (f.noArr) f.arr = false, f.below = 0;
      if (f.noRows || !f.arr || f.rep != OTag::Arr) f.rows = 0;
    }
  }
  bool anyFact() const {
    for (const ParamFact& f : pfacts_)
      if (f.imm || f.arr || f.below || f.rows) return true;
    return false;
  }
  // The fact known of operand o (a parameter's home), if any.
  const ParamFact* factOf(const Opnd& o) const {
    if (!useFacts_ || loops_.empty()) return nullptr;
    const Loop& l = *loops_.front();
    for (size_t i = 0; i < l.params.size() && i < pfacts_.size(); ++i)
      if (l.params[i].same(o) && o.kind != Opnd::Imm) return &pfacts_[i];
    return nullptr;
  }
  // Jumps to `fail` unless the parameters meet their facts (at a back edge,
  // `same`: those passed unchanged, and arrays, which are, need no check).
  void factChecks(const std::vector<Opnd>& params, Label fail, bool backEdge,
                  const std::vector<bool>* same = nullptr,
                  const std::vector<bool>* immNew = nullptr) {
    for (size_t i = 0; i < params.size(); ++i) {
      const ParamFact& f = pfacts_[i];
      if (same && (*same)[i]) continue;
      Opnd p = params[i];
      if (f.imm && !(immNew && (*immNew)[i])) {
        a_.emit(x86::Inst::kIdTest, p.op(), asmjit::imm(1));
        a_.jz(fail);
      }
      if (f.below && !backEdge) {
        a_.emit(x86::Inst::kIdCmp, p.op(), asmjit::imm(f.below));
        a_.jae(fail);
      }
      if (f.arr && !backEdge) {
        if (p.kind != Opnd::Reg) {
          a_.emit(x86::Inst::kIdMov, x86::rax, p.op());
          p = regOpnd(x86::rax, false, MType::None);
        }
        a_.test(p.reg.r8(), 7);
        a_.jnz(fail);
        a_.cmp(x86::dword_ptr(p.reg), uint32_t(f.rep));
        a_.jne(fail);
        a_.cmp(x86::dword_ptr(p.reg, 4), f.len);
        a_.jne(fail);
        if (f.rows) rowsCheck(p, f.rows, fail);
      }
    }
  }
  // Jumps to `fail` unless every element of the array in `p` has the shape
  // `code`: known (remembered in the array), or checked out of line.
  void rowsCheck(const Opnd& p, uint64_t code, Label fail) {
    Label check = a_.newLabel(), done = a_.newLabel();
    a_.cmp(x86::qword_ptr(p.reg, -8), asmjit::imm(int64_t(code)));
    a_.jne(check);
    a_.bind(done);
    coldStart();
    Saves saves = liveSaves({}, true);
    cold_.push_back([this, p, code, check, done, fail, saves] {
      a_.bind(check);
      save(saves);
      a_.mov(x86::rdi, p.reg);
      a_.mov(x86::esi, uint32_t(code & 0x7f));
      a_.mov(x86::edx, uint32_t(code >> 8));
      a_.mov(x86::rax, addr(&blElemsShaped));
      a_.call(x86::rax);
      restore(saves, false); // (not rax)
      a_.test(x86::al, x86::al);
      a_.jz(fail);
      a_.jmp(done);
    });
  }

  // ---- classes and conversions ----
  static bool intOp(BaselineOp op) { return op <= BaselineOp::Compare; }
  static bool floatOp(BaselineOp op) {
    return op >= BaselineOp::FAdd && op <= BaselineOp::I64ToF64;
  }
  // The machine type `get {A}` reads when A is a literal type.
  static MType elemHint(ETm* t) {
    if (t->n > 0 && t->args[0]->tag == ETag::Erased) {
      MType m = MType(t->args[0]->n);
      if (m == MType::I64 || m == MType::F64) return m;
    }
    return MType::None;
  }
  // The class t's value is computed in (before any conversion).
  MType classOf(ETm* t) {
    switch (t->tag) {
    case ETag::Var:
      if (t->n >= env_.size()) throw Unsupported{__LINE__};
      return env_[env_.size() - 1 - t->n].cls;
    case ETag::Lit: return litOpnd(t, false).cls;
    case ETag::Erased:
    case ETag::Known:
    case ETag::Global:
    case ETag::Arr: return MType::None;
    case ETag::Let: {
      env_.push_back(immOpnd(0, classOf(t->a)));
      MType m = classOf(t->b);
      env_.pop_back();
      return m;
    }
    case ETag::If: {
      MType b = classOf(t->b), c = classOf(t->c);
      return b == c ? b : MType::None;
    }
    case ETag::Prim: {
      const Prim& p = primById(t->prim);
      const BaselineLowering* l = findBaselineLowering(p.axiom);
      if (!l) return p.result;
      switch (l->op) {
      case BaselineOp::FCompare:
      case BaselineOp::NatCompare: return MType::Bool;
      case BaselineOp::NatToF64: return MType::F64;
      case BaselineOp::ArrGet: return elemHint(t);
      default: return intOp(l->op) || floatOp(l->op) ? p.result : MType::None;
      }
    }
    case ETag::App: {
      if (t->a->tag != ETag::Global || m_.rt.erased(t->a->n).arity != t->n)
        throw Unsupported{__LINE__};
      if (t->a->n == self_) return sig_.result;
      return m_.direct(t->a->n) ? m_.sig(t->a->n).result : MType::None;
    }
    default: throw Unsupported{__LINE__};
    }
  }

  // v (consumed) as a value of class m: words box and unbox I64 (immediates
  // inline), F64 (a boxed double: its bits, or a new box) and Bool.
  Opnd as(Opnd v, MType m) {
    if (v.cls == m) return v;
    if (v.kind == Opnd::Imm) {
      if (m == MType::None && v.cls != MType::F64)
        return immOpnd(int64_t(uint64_t(v.imm) << 1 | 1), m);
      if (v.cls == MType::None && m != MType::F64 && fits32(v.imm >> 1))
        return immOpnd(v.imm >> 1, m);
    }
    if (m == MType::None) {
      if (v.cls == MType::Bool) { // 2b + 1
        Opnd r = temp(MType::None);
        if (v.kind == Opnd::Reg) {
          a_.lea(r.reg, x86::ptr(v.reg, v.reg, 0, 1));
        } else {
          move(r, v);
          a_.lea(r.reg, x86::ptr(r.reg, r.reg, 0, 1));
        }
        release(v);
        return r;
      }
      if (v.cls == MType::I64) { // 2x + 1 when it fits, else boxed
        Opnd x = v.kind == Opnd::Reg ? v : copyToTemp(v);
        if (x.kind != Opnd::Reg) x = copyToTemp(x);
        Opnd r = temp(MType::None);
        Label slow = a_.newLabel(), done = a_.newLabel();
        a_.mov(r.reg, x.reg);
        a_.add(r.reg, x.reg);
        a_.jo(slow);
        a_.or_(r.reg, 1);
        a_.bind(done);
        coldHelper(slow, done, reinterpret_cast<void*>(&blOfI64), {x}, r);
        release(x);
        return r;
      }
      // F64: a new box (a call; a variable's home lives on, saved around it)
      Opnd x = v;
      Saves saved = liveSaves(x.temp ? std::vector<Opnd>{x} : std::vector<Opnd>{});
      save(saved);
      moveF(xmmOpnd(x86::xmm0, false), x);
      release(x);
      a_.mov(x86::rax, addr(&blOfF64));
      a_.call(x86::rax);
      restore(saved);
      Opnd r = temp(MType::None);
      move(r, regOpnd(x86::rax, false));
      return r;
    }
    if (v.cls != MType::None) throw Unsupported{__LINE__}; // (no other conversion is typed)
    if (m == MType::F64) {                                 // always boxed: load the bits
      Opnd w = v.kind == Opnd::Reg ? v : copyToTemp(v);
      Opnd r = temp(MType::F64);
      a_.movsd(r.xmm, x86::qword_ptr(w.reg, 8));
      release(w);
      return r;
    }
    if (m == MType::Bool) { // imm(1) = 3 is true
      Opnd r = temp(MType::Bool);
      a_.emit(x86::Inst::kIdCmp, v.op(), asmjit::imm(3));
      release(v);
      a_.sete(r.reg.r8());
      a_.movzx(r.reg.r32(), r.reg.r8());
      return r;
    }
    // I64: immediates inline, boxed ones through the runtime
    Opnd w = v.kind == Opnd::Reg ? v : copyToTemp(v);
    Opnd r = temp(MType::I64);
    Label slow = a_.newLabel(), done = a_.newLabel();
    a_.mov(r.reg, w.reg);
    a_.sar(r.reg, 1);
    a_.test(w.reg.r8(), 1);
    a_.jz(slow);
    a_.bind(done);
    coldHelper(slow, done, reinterpret_cast<void*>(&blToI64), {w}, r);
    release(w);
    return r;
  }

  // Out of line at `from`: result ← fn(args…) (C++, words or I64 in
  // general registers), with what is live saved; then back to `to`.
  void coldHelper(Label from, Label to, void* fn, std::vector<Opnd> args, Opnd result) {
    coldStart();
    Saves saves = liveSaves({result}, true);
    cold_.push_back([this, from, to, fn, args, result, saves] {
      a_.bind(from);
      save(saves);
      for (size_t i = 0; i < args.size(); ++i) // (args are registers or slots, not rdi…)
        move(regOpnd(kArgs[i], false), args[i]);
      a_.mov(x86::rax, asmjit::imm(reinterpret_cast<intptr_t>(fn)));
      a_.call(x86::rax);
      restore(saves, false);
      move(result, resultLocation(result.cls));
      a_.jmp(to);
    });
  }

  // The primitive's run-time implementation on `words` (registers, slots
  // or immediates of class None): result ← prim(words) as a word; at hot
  // code, or out of line from `from` back to `to` (then `branch`: instead
  // of a result, jump to `target` when the word is the Bool `when`).
  struct PrimSlow {
    Label from, to;
    bool branch = false, when = false;
    Label target;
    bool discard = false; // (the fast path's result is the primitive's, when it returns)
  };
  // prim(args at [rsp + base], span).
  void primFnCall(uint32_t prim, uint32_t span, int32_t base) {
    a_.lea(x86::rdi, x86::qword_ptr(x86::rsp, base));
    a_.mov(x86::esi, span);
    a_.mov(x86::rax, addr(primById(prim).fn));
    a_.call(x86::rax);
  }
  // Out of line: the words into the argument array, what is live saved,
  // the call.
  void primCallCode(uint32_t prim, uint32_t span, const std::vector<Opnd>& words, int32_t base,
                    const Saves& saves) {
    for (size_t i = 0; i < words.size(); ++i)
      move(slotOpnd(base + int32_t(8 * i), MType::None), words[i]);
    save(saves);
    primFnCall(prim, span, base);
  }
  Opnd primCall(ETm* t) {
    callOnWords(t, [&](int32_t base) { primFnCall(t->prim, t->span, base); });
    Opnd r = temp(MType::None);
    move(r, regOpnd(x86::rax, false, MType::None));
    return as(r, primById(t->prim).result);
  }
  void coldPrim(ETm* t, const std::vector<Opnd>& words, const Opnd& result, const PrimSlow& s) {
    coldStart();
    int32_t base = coldSlots(t->n);
    Saves saves = liveSaves({result}, true);
    uint32_t prim = t->prim, span = t->span;
    cold_.push_back([this, prim, span, words, base, saves, result, s] {
      a_.bind(s.from);
      primCallCode(prim, span, words, base, saves);
      if (s.discard) {
        restore(saves, false);
      } else if (s.branch) {
        restore(saves, false); // (not rax)
        a_.cmp(x86::rax, 3);
        a_.j(s.when ? x86::CondCode::kE : x86::CondCode::kNE, s.target);
      } else if (result.isF()) { // (a boxed F64)
        a_.movsd(result.xmm, x86::qword_ptr(x86::rax, 8));
      } else if (result.cls == MType::Bool) {
        a_.cmp(x86::rax, 3);
        a_.sete(result.reg.r8());
        a_.movzx(result.reg.r32(), result.reg.r8());
      } else if (result.cls == MType::I64) { // (a raw element's type: boxed when big)
        Label small = a_.newLabel();
        a_.mov(result.reg, x86::rax);
        a_.sar(result.reg, 1);
        a_.test(x86::al, 1);
        a_.jnz(small);
        a_.mov(x86::rdi, x86::rax);
        a_.mov(x86::rax, addr(&blToI64));
        a_.call(x86::rax);
        a_.mov(result.reg, x86::rax);
        a_.bind(small);
      } else {
        move(result, regOpnd(x86::rax, false, MType::None));
      }
      if (!s.branch && !s.discard) restore(saves, false); // (not the result: excepted)
      a_.jmp(s.to);
    });
  }

  // ---- expressions ----
  // t's value as an operand: a variable's home, a literal, or an
  // intermediate register (taken only once there is a value to hold).
  Opnd eval(ETm* t, const Gp* want = nullptr) {
    switch (t->tag) {
    case ETag::Var:
      if (t->n >= env_.size()) throw Unsupported{__LINE__};
      return env_[env_.size() - 1 - t->n];
    case ETag::Lit: return litOpnd(t, true);
    case ETag::Erased: return immOpnd(int64_t(erasedType(t->n)), MType::None);
    case ETag::Known: return immOpnd(int64_t(erased()), MType::None); // (filters are never run)
    case ETag::Global: // (a top-level value: computed once, by the runtime)
      return callC(reinterpret_cast<void*>(&blGlobal),
                   {immOpnd(int64_t(reinterpret_cast<intptr_t>(&m_.rt)), MType::None),
                    immOpnd(t->n, MType::None)});
    case ETag::Arr: { // (a literal: words)
      Opnd arr = callC(reinterpret_cast<void*>(&blArr), {immOpnd(t->n, MType::None)});
      for (uint32_t i = 0; i < t->n; ++i) {
        Opnd v = as(eval(t->args[i]), MType::None);
        if (v.kind == Opnd::Mem || (v.kind == Opnd::Imm && !fits32(v.imm))) {
          a_.emit(x86::Inst::kIdMov, x86::rax, v.op());
          v = regOpnd(x86::rax, false, MType::None);
        }
        a_.emit(x86::Inst::kIdMov, x86::qword_ptr(arr.reg, int32_t(8 + 8 * i)), v.op());
        release(v);
      }
      return arr;
    }
    case ETag::Let: {
      Opnd h = bind(t->a);
      Opnd v = eval(t->b);
      if (v.same(h)) v = copyToTemp(v);
      unbind(h);
      return v;
    }
    case ETag::If: {
      Opnd r = temp(classOf(t));
      Label no = a_.newLabel(), join = a_.newLabel();
      branch(t->a, false, no);
      into(t->b, r);
      a_.jmp(join);
      mergeAt(no);
      into(t->c, r);
      mergeAt(join);
      return r;
    }
    case ETag::Prim: {
      const BaselineLowering* l = findBaselineLowering(primById(t->prim).axiom);
      if (!l) return primCall(t);
      if (intOp(l->op)) return intPrim(t, want);
      if (floatOp(l->op)) return floatPrim(t, *l);
      return wordPrim(t, *l);
    }
    case ETag::App: {
      MType m = callInto(t);
      Opnd r = temp(m, want);
      move(r, resultLocation(m));
      return r;
    }
    default: throw Unsupported{__LINE__};
    }
  }
  static int64_t wordOf(int64_t k) { return int64_t(uint64_t(k) << 1 | 1); }
  // A literal: I64 immediates of 32 bits (else a register when `emit`),
  // Bool 0/1, F64 bits, Nat and Idx immediates as words (a Nat of 2^62 or
  // more, a string: LLVM's).
  Opnd litOpnd(ETm* t, bool emit) {
    Opnd lit = litImm(t, emit);
    if (lit.kind != Opnd::Imm || lit.cls != MType::None || lit.imm != 0) return lit;
    if (!emit) return lit; // (class None)
    return callC(reinterpret_cast<void*>(&blLit),
                 {immOpnd(int64_t(reinterpret_cast<intptr_t>(&m_.rt)), MType::None),
                  immOpnd(int64_t(reinterpret_cast<intptr_t>(t)), MType::None)});
  }
  // A literal's operand; for one that is no immediate (a Nat of 2^62 or
  // more, a string), the word 0 (no word is 0: the runtime makes it).
  Opnd litImm(ETm* t, bool emit) {
    switch (LitKind(t->n)) {
    case LitKind::I64: {
      int64_t v = int64_t(t->bits);
      if (fits32(v) || !emit) return immOpnd(v);
      Opnd r = temp(MType::I64);
      a_.mov(r.reg, asmjit::imm(v));
      return r;
    }
    case LitKind::Bool: return immOpnd(t->bits != 0 ? 1 : 0, MType::Bool);
    case LitKind::F64: return immOpnd(int64_t(t->bits), MType::F64);
    case LitKind::Idx: return immOpnd(wordOf(int64_t(t->bits)), MType::None);
    case LitKind::Unit: return immOpnd(wordOf(0), MType::None);
    case LitKind::Nat:
      if (t->bits < (uint64_t(1) << 62)) return immOpnd(wordOf(int64_t(t->bits)), MType::None);
      break;
    default: break;
    }
    return immOpnd(0, MType::None);
  }
  // An I64 or Bool literal's value.
  static int64_t literal(ETm* t) {
    if (LitKind(t->n) == LitKind::I64) return int64_t(t->bits);
    if (LitKind(t->n) == LitKind::Bool) return t->bits != 0 ? 1 : 0;
    throw Unsupported{__LINE__};
  }
  // dst ← t's value (in dst's class).
  void into(ETm* t, const Opnd& dst) {
    // dst is written at the end: until then calls need not save it (an
    // `if`'s result register, around the calls in its branches).
    unset_.push_back(dst);
    Opnd v = as(eval(t), dst.cls);
    unset_.pop_back();
    move(dst, v);
    release(v);
  }
  std::vector<Opnd> unset_; // registers of values not computed yet (see into)
  Opnd inReg(const Opnd& v) { return v.kind == Opnd::Reg ? v : copyToTemp(v); }
  // An operand an instruction takes: immediates of more than 32 bits in a
  // register.
  Opnd fit(const Opnd& v) {
    return v.kind == Opnd::Imm && !v.isF() && !fits32(v.imm) ? copyToTemp(v) : v;
  }

  // An I64 or Bool operation.
  Opnd intPrim(ETm* t, const Gp* want) {
    const BaselineLowering& low = lowering(t);
    if (low.op == BaselineOp::Compare) {
      x86::CondCode cc = compare(t, low.cc);
      Gp r = tmp();
      a_.set(cc, r.r8());
      a_.movzx(r.r32(), r.r8());
      return regOpnd(r, true, MType::Bool);
    }
    if (low.op != BaselineOp::Div && low.op != BaselineOp::Mod) {
      // (a variable or literal first operand: straight into the result)
      ETm* x0 = t->args[0];
      if (x0->tag == ETag::Var || x0->tag == ETag::Lit) {
        Gp r = tmp(want);
        if (arithInto(t, r)) return regOpnd(r, true);
        release(regOpnd(r, true));
      }
    }
    const Prim& p = primById(t->prim);
    Opnd x = as(eval(t->args[0], want), p.args[0]);
    if (!x.temp) x = copyToTemp(x, want);
    if (low.op == BaselineOp::Div || low.op == BaselineOp::Mod) {
      divide(t, low, x.reg);
      return x;
    }
    Opnd y = as(eval(t->args[1]), p.args[1]);
    binary(low.op, x.reg, y);
    release(y);
    return x;
  }

  const BaselineLowering& lowering(ETm* t) {
    const Prim& p = primById(t->prim);
    const BaselineLowering* l = findBaselineLowering(p.axiom);
    if (!l || !intOp(l->op) || t->n != 2 || (p.result != MType::I64 && p.result != MType::Bool))
      throw Unsupported{__LINE__};
    for (uint32_t i = 0; i < 2; ++i)
      if (p.args[i] != MType::I64 && p.args[i] != MType::Bool) throw Unsupported{__LINE__};
    return *l;
  }

  // ---- F64 ----
  Opnd floatPrim(ETm* t, const BaselineLowering& l) {
    if (l.op == BaselineOp::FCompare) {
      Gp r = tmp();
      fcompareValue(t, l.cc, r);
      return regOpnd(r, true, MType::Bool);
    }
    if (l.op == BaselineOp::I64ToF64) {
      Opnd x = as(eval(t->args[0]), MType::I64);
      if (x.kind == Opnd::Imm) x = copyToTemp(x);
      Opnd r = temp(MType::F64);
      a_.xorps(r.xmm, r.xmm); // (no dependency on its old value)
      a_.emit(x86::Inst::kIdCvtsi2sd, r.xmm, x.op());
      release(x);
      return r;
    }
    Opnd x = as(eval(t->args[0]), MType::F64);
    if (l.op == BaselineOp::FSqrt) {
      if (x.kind == Opnd::Imm) x = copyToTemp(x);
      Opnd r = temp(MType::F64);
      a_.emit(x86::Inst::kIdSqrtsd, r.xmm, x.op());
      release(x);
      return r;
    }
    if (!x.temp) x = copyToTemp(x);
    Opnd y = as(eval(t->args[1]), MType::F64);
    if (y.kind == Opnd::Imm) y = copyToTemp(y);
    x86::Inst::Id id = l.op == BaselineOp::FAdd   ? x86::Inst::kIdAddsd
                       : l.op == BaselineOp::FSub ? x86::Inst::kIdSubsd
                       : l.op == BaselineOp::FMul ? x86::Inst::kIdMulsd
                                                  : x86::Inst::kIdDivsd;
    a_.emit(id, x.xmm, y.op());
    release(y);
    return x;
  }
  // `ucomisd` of a comparison's operands, ordered so that one condition
  // (kA, kAE) decides < ≤ > ≥; == and ≠ also look at parity (NaN).
  x86::CondCode fcompare(ETm* t, x86::CondCode cc) {
    Opnd x = as(eval(t->args[0]), MType::F64), y = as(eval(t->args[1]), MType::F64);
    bool swap = cc == x86::CondCode::kL || cc == x86::CondCode::kLE;
    if (swap) std::swap(x, y);
    if (x.kind != Opnd::Reg) x = copyToTemp(x);
    if (y.kind == Opnd::Imm) y = copyToTemp(y);
    a_.emit(x86::Inst::kIdUcomisd, x.xmm, y.op());
    release(x);
    release(y);
    switch (cc) {
    case x86::CondCode::kL:
    case x86::CondCode::kG: return x86::CondCode::kA;
    case x86::CondCode::kLE:
    case x86::CondCode::kGE: return x86::CondCode::kAE;
    default: return cc; // kE (ordered), kNE (unordered)
    }
  }
  void fcompareValue(ETm* t, x86::CondCode cc, const Gp& r) {
    x86::CondCode c = fcompare(t, cc);
    a_.set(c, r.r8());
    if (cc == x86::CondCode::kE) { // and ordered
      a_.setnp(x86::al);
      a_.and_(r.r8(), x86::al);
    } else if (cc == x86::CondCode::kNE) { // or unordered
      a_.setp(x86::al);
      a_.or_(r.r8(), x86::al);
    }
    a_.movzx(r.r32(), r.r8());
  }
  void fbranch(ETm* t, x86::CondCode cc, bool when, Label target) {
    x86::CondCode c = fcompare(t, cc);
    bool eq = cc == x86::CondCode::kE, ne = cc == x86::CondCode::kNE;
    if (!eq && !ne) {
      a_.j(when ? c : x86::negateCond(c), target); // (not above: below, equal or NaN)
      return;
    }
    if (eq == when) { // jump when ordered and equal
      Label skip = a_.newLabel();
      a_.jp(skip);
      a_.je(target);
      a_.bind(skip);
    } else { // jump when unordered or not equal
      a_.jp(target);
      a_.jne(target);
    }
  }

  // ---- words ----
  // Jumps to `slow` unless both words are immediates.
  // 1: an immediate (a literal, a parameter known to be one), -1: a
  // literal that is no immediate, 0: unknown.
  int knownImm(const Opnd& o) const {
    if (o.kind == Opnd::Imm) return o.imm & 1 ? 1 : -1;
    if (o.immWord) return 1;
    const ParamFact* f = factOf(o);
    return f && f->imm ? 1 : 0;
  }
  void immCheck(const Opnd& a, const Opnd& b, Label slow) {
    int ka = knownImm(a), kb = knownImm(b);
    if (ka < 0 || kb < 0) {
      a_.jmp(slow);
      return;
    }
    if (ka && kb) return;
    if (ka || kb) {
      const Opnd& x = ka ? b : a;
      a_.emit(x86::Inst::kIdTest, x.op(), asmjit::imm(1));
      a_.jz(slow);
      return;
    }
    a_.emit(x86::Inst::kIdMov, x86::rax, a.op());
    a_.emit(x86::Inst::kIdAnd, x86::rax, b.op());
    a_.test(x86::al, 1);
    a_.jz(slow);
  }
  // The words of a primitive's arguments.
  std::vector<Opnd> words(ETm* t) {
    std::vector<Opnd> ws;
    for (uint32_t i = 0; i < t->n; ++i)
      ws.push_back(fit(as(eval(t->args[i]), MType::None)));
    return ws;
  }
  void releaseAll(const std::vector<Opnd>& vs) {
    for (auto& v : vs)
      release(v);
  }
  // `cmp` of two words (immediates: unsigned, as their values); the
  // condition that holds. Two literals: -1 when false, else 1 (as `known`).
  x86::CondCode cmpWords(Opnd x, Opnd y, x86::CondCode cc, int& known) {
    known = 0;
    if (x.kind == Opnd::Imm && y.kind == Opnd::Imm) {
      uint64_t a = uint64_t(x.imm), b = uint64_t(y.imm);
      bool r = cc == x86::CondCode::kE    ? a == b
               : cc == x86::CondCode::kNE ? a != b
               : cc == x86::CondCode::kB  ? a < b
               : cc == x86::CondCode::kBE ? a <= b
               : cc == x86::CondCode::kA  ? a > b
                                          : a >= b;
      known = r ? 1 : -1;
      return cc;
    }
    if (x.kind == Opnd::Imm) {
      std::swap(x, y);
      cc = x86::reverseCond(cc);
    }
    if (x.kind == Opnd::Mem && y.kind == Opnd::Mem) {
      a_.emit(x86::Inst::kIdMov, x86::rax, x.op());
      a_.emit(x86::Inst::kIdCmp, x86::rax, y.op());
    } else {
      a_.emit(x86::Inst::kIdCmp, x.op(), y.op());
    }
    return cc;
  }
  void natBranch(ETm* t, x86::CondCode cc, bool when, Label target) {
    std::vector<Opnd> ws = words(t);
    Label slow = a_.newLabel(), done = a_.newLabel();
    immCheck(ws[0], ws[1], slow);
    int known;
    x86::CondCode c = cmpWords(ws[0], ws[1], cc, known);
    if (known == 0)
      a_.j(when ? c : x86::negateCond(c), target);
    else if ((known > 0) == when)
      a_.jmp(target);
    a_.bind(done);
    PrimSlow s{slow, done, true, when, target};
    coldPrim(t, ws, Opnd{}, s);
    releaseAll(ws);
  }

  Opnd wordPrim(ETm* t, const BaselineLowering& l) {
    if (l.op == BaselineOp::IdxToNat) return as(eval(t->args[1]), MType::None); // ({n} i: i)
    if (l.op == BaselineOp::ArrLength) {
      Opnd arr = inReg(as(eval(t->args[2]), MType::None));
      Opnd r = temp(MType::None);
      a_.mov(r.reg.r32(), x86::dword_ptr(arr.reg, 4));
      a_.lea(r.reg, x86::ptr(r.reg, r.reg, 0, 1));
      release(arr);
      return r;
    }
    std::vector<Opnd> ws = words(t);
    Label slow = a_.newLabel(), done = a_.newLabel();
    Opnd r;
    switch (l.op) {
    case BaselineOp::NatAdd: // 2a+1 + 2b+1 - 1, an immediate while below 2^63
      if (ws[1].kind == Opnd::Imm && (ws[1].imm & 1) && ws[1].imm < (int64_t(1) << 30) &&
          knownBelow(ws[0], int64_t(1) << 30)) {
        // k + c for k checked below a small bound (`idx k` before): no overflow
        r = temp(MType::None);
        a_.lea(r.reg, x86::ptr(ws[0].reg, int32_t(ws[1].imm - 1)));
        r.immWord = true;
        return r;
      }
      immCheck(ws[0], ws[1], slow);
      r = temp(MType::None);
      move(r, ws[0]);
      if (ws[1].kind == Opnd::Imm) { // (k + 1: add 2)
        a_.add(r.reg, asmjit::imm(ws[1].imm - 1));
      } else {
        a_.emit(x86::Inst::kIdAdd, r.reg, ws[1].op());
        a_.sub(r.reg, 1);
      }
      a_.js(slow);
      break;
    case BaselineOp::NatSub: // a - b + 1, or 1 (zero) when a < b
      immCheck(ws[0], ws[1], slow);
      r = temp(MType::None);
      move(r, ws[0]);
      a_.emit(x86::Inst::kIdSub, r.reg, ws[1].op());
      a_.lea(r.reg, x86::ptr(r.reg, 1));
      a_.mov(x86::eax, 1);
      a_.cmovb(r.reg, x86::rax);
      break;
    case BaselineOp::NatMul: { // a·b while below 2^62
      immCheck(ws[0], ws[1], slow);
      r = temp(MType::None);
      move(r, ws[0]);
      a_.sar(r.reg, 1);
      if (ws[1].kind == Opnd::Imm) {
        a_.imul(r.reg, r.reg, asmjit::imm(ws[1].imm >> 1));
      } else {
        a_.emit(x86::Inst::kIdMov, x86::rax, ws[1].op());
        a_.sar(x86::rax, 1);
        a_.imul(r.reg, x86::rax);
      }
      a_.jo(slow);
      a_.mov(x86::rax, r.reg);
      a_.shr(x86::rax, 62);
      a_.jnz(slow);
      a_.lea(r.reg, x86::ptr(r.reg, r.reg, 0, 1));
      break;
    }
    case BaselineOp::NatDiv:
    case BaselineOp::NatMod: { // unsigned; by zero: the primitive's error
      bool mod = l.op == BaselineOp::NatMod;
      immCheck(ws[0], ws[1], slow);
      r = temp(MType::None);
      int64_t k = ws[1].kind == Opnd::Imm ? ws[1].imm >> 1 : -1;
      if (k == 0) {
        a_.jmp(slow);
        break;
      }
      if (k > 0 && std::has_single_bit(uint64_t(k))) { // shifts, masks
        move(r, ws[0]);
        if (mod)
          a_.and_(r.reg, asmjit::imm(2 * k - 1)); // (the word's bits: 2·(a mod k) + 1)
        else {
          a_.shr(r.reg, std::countr_zero(uint64_t(k)));
          a_.or_(r.reg, 1);
        }
        break;
      }
      if (k > 0) {
        a_.mov(r.reg, asmjit::imm(k));
      } else {
        move(r, ws[1]);
        a_.shr(r.reg, 1);
        a_.test(r.reg, r.reg);
        a_.jz(slow);
      }
      a_.emit(x86::Inst::kIdMov, x86::rax, ws[0].op());
      a_.shr(x86::rax, 1);
      a_.xor_(x86::edx, x86::edx);
      a_.div(r.reg);
      a_.lea(r.reg, x86::ptr(mod ? x86::rdx : x86::rax, mod ? x86::rdx : x86::rax, 0, 1));
      break;
    }
    case BaselineOp::NatCompare: {
      immCheck(ws[0], ws[1], slow);
      r = temp(MType::Bool);
      int known;
      x86::CondCode c = cmpWords(ws[0], ws[1], l.cc, known);
      if (known)
        a_.mov(r.reg.r32(), known > 0 ? 1 : 0);
      else {
        a_.set(c, r.reg.r8());
        a_.movzx(r.reg.r32(), r.reg.r8());
      }
      break;
    }
    case BaselineOp::IdxOf: {                                        // {n} k: k when k < n
      if (ws[0].kind == Opnd::Imm && knownBelow(ws[1], ws[0].imm)) { // (checked before)
        r = ws[1];
        r.below = ws[0].imm;
        return r;
      }
      immCheck(ws[0], ws[1], slow);
      int known;
      x86::CondCode c = cmpWords(ws[1], ws[0], x86::CondCode::kB, known);
      if (known < 0)
        a_.jmp(slow);
      else if (known == 0)
        a_.j(x86::negateCond(c), slow);
      if (ws[0].kind == Opnd::Imm && ws[1].kind == Opnd::Reg && !ws[1].temp) {
        // k is a variable's home: the index is k itself (the primitive,
        // when k is no immediate, fails), no copy.
        r = ws[1];
        r.below = ws[0].imm;
        a_.bind(done);
        checkedBelow(ws[1], ws[0].imm); // (past `done`: the primitive failed, else)
        PrimSlow ps{slow, done, false, false, Label()};
        ps.discard = true;
        coldPrim(t, ws, Opnd{}, ps);
        return r;
      }
      r = temp(MType::None);
      move(r, ws[1]);
      if (ws[0].kind == Opnd::Imm) r.below = ws[0].imm; // (the primitive fails, else)
      break;
    }
    case BaselineOp::NatToF64: {
      r = temp(MType::F64);
      Opnd x = ws[0].kind == Opnd::Imm ? copyToTemp(ws[0]) : ws[0];
      if (knownImm(x) <= 0) {
        a_.emit(x86::Inst::kIdTest, x.op(), asmjit::imm(1));
        a_.jz(slow);
      }
      a_.emit(x86::Inst::kIdMov, x86::rax, x.op());
      a_.sar(x86::rax, 1);
      a_.xorps(r.xmm, r.xmm);
      a_.cvtsi2sd(r.xmm, x86::rax);
      if (!x.same(ws[0])) release(x);
      break;
    }
    case BaselineOp::ArrGet: { // {A} {n} arr i
      MType m = elemHint(t);
      OTag rep = m == MType::I64 ? OTag::ArrI64 : m == MType::F64 ? OTag::ArrF64 : OTag::Arr;
      uint64_t shape = ws[2].shape;
      if (ws[2].kind != Opnd::Reg) ws[2] = copyToTemp(ws[2]);
      if (ws[3].kind == Opnd::Mem || (ws[3].kind == Opnd::Imm && !fits32(4 * ws[3].imm + 4)))
        ws[3] = copyToTemp(ws[3]);
      const Gp& arr = ws[2].reg;
      // The length from the type (`Array 256 A`): compared with the header
      // (or known for a parameter), and the index with it, an immediate —
      // not at all for an index made by `idx` with that length.
      int64_t lenWord =
          ws[1].kind == Opnd::Imm && (ws[1].imm & 1) && fits32(ws[1].imm) ? ws[1].imm : 0;
      const ParamFact* f = factOf(ws[2]);
      if (lenWord && f && f->arr && f->rep == rep && wordOf(f->len) == lenWord) {
        // (known)
      } else if (lenWord && shape == arrShapeCode(rep, uint32_t(lenWord >> 1))) {
        // (a row of an array whose rows were checked at the loop's entry)
      } else {
        a_.cmp(x86::dword_ptr(arr), uint32_t(rep));
        a_.jne(slow);
        if (lenWord) {
          a_.cmp(x86::dword_ptr(arr, 4), uint32_t(lenWord >> 1));
          a_.jne(slow);
        }
      }
      if (lenWord) {
        if (ws[3].kind == Opnd::Imm) {
          if (uint64_t(ws[3].imm) >= uint64_t(lenWord)) a_.jmp(slow);
        } else if (const ParamFact* fi = factOf(ws[3]); fi && fi->below && fi->below <= lenWord) {
          // (a parameter checked at the loop's entry)
        } else if (!(ws[3].below && uint64_t(ws[3].below) <= uint64_t(lenWord)) &&
                   !knownBelow(ws[3], lenWord)) {
          a_.emit(x86::Inst::kIdCmp, ws[3].op(), asmjit::imm(lenWord));
          a_.jae(slow);
        }
      } else {
        a_.mov(x86::eax, x86::dword_ptr(arr, 4)); // the length, 2·len + 1 > i
        a_.lea(x86::rax, x86::ptr(x86::rax, x86::rax, 0, 1));
        a_.emit(x86::Inst::kIdCmp, x86::rax, ws[3].op());
        a_.jbe(slow);
      }
      // Element k of the index word 2k+1 is at byte 8 + 8k = 4·(2k+1) + 4.
      x86::Mem at = ws[3].kind == Opnd::Reg ? x86::qword_ptr(arr, ws[3].reg, 2, 4)
                                            : x86::qword_ptr(arr, int32_t(4 * ws[3].imm + 4));
      r = temp(m);
      if (r.isF())
        a_.movsd(r.xmm, at);
      else
        a_.mov(r.reg, at);
      if (f && f->rows && m == MType::None) r.shape = f->rows; // (the slow path's result too)
      break;
    }
    default: throw Unsupported{__LINE__};
    }
    a_.bind(done);
    coldPrim(t, ws, r, PrimSlow{slow, done, false, false, Label()});
    releaseAll(ws);
    return r;
  }

  // dst ⊕= src for ⊕ add, sub or mul.
  void binary(BaselineOp op, const Gp& dst, const Opnd& src) {
    if (op == BaselineOp::Mul && src.kind == Opnd::Imm) {
      a_.imul(dst, dst, asmjit::imm(src.imm));
      return;
    }
    x86::Inst::Id id = op == BaselineOp::Add   ? x86::Inst::kIdAdd
                       : op == BaselineOp::Sub ? x86::Inst::kIdSub
                                               : x86::Inst::kIdImul;
    a_.emit(id, dst, src.op());
  }

  // `cmp` of a comparison's operands; the condition under which it holds.
  x86::CondCode compare(ETm* t, x86::CondCode cc) {
    // x % 2^k == 0 (or ≠): the low k bits of x, whatever its sign.
    if (cc == x86::CondCode::kE || cc == x86::CondCode::kNE) {
      for (int side = 0; side < 2; ++side) {
        ETm *m = t->args[side], *z = t->args[1 - side];
        if (z->tag != ETag::Lit || literal(z) != 0 || m->tag != ETag::Prim || m->n != 2) continue;
        const BaselineLowering* l = findBaselineLowering(primById(m->prim).axiom);
        ETm* c = m->args[1];
        if (!l || l->op != BaselineOp::Mod || c->tag != ETag::Lit || LitKind(c->n) != LitKind::I64)
          continue;
        int64_t k = int64_t(c->bits);
        if (k <= 1 || k > (int64_t(1) << 31) || !std::has_single_bit(uint64_t(k))) continue;
        lowering(m); // (checks the operand types)
        Opnd x = as(eval(m->args[0]), MType::I64);
        if (x.kind == Opnd::Imm) x = copyToTemp(x);
        a_.emit(x86::Inst::kIdTest, x.op(), asmjit::imm(k - 1));
        release(x);
        return cc;
      }
    }
    const Prim& p = primById(t->prim);
    Opnd x = as(eval(t->args[0]), p.args[0]);
    Opnd y = as(eval(t->args[1]), p.args[1]);
    if (x.kind == Opnd::Imm && y.kind != Opnd::Imm) {
      std::swap(x, y);
      cc = x86::reverseCond(cc);
    }
    if (x.kind == Opnd::Imm || (x.kind == Opnd::Mem && y.kind == Opnd::Mem)) {
      Opnd r = copyToTemp(x);
      release(x);
      x = r;
    }
    a_.emit(x86::Inst::kIdCmp, x.op(), y.op());
    release(x);
    release(y);
    return cc;
  }

  // Jumps to `target` when t's value is `when`, falls through otherwise.
  void branch(ETm* t, bool when, Label target) {
    if (t->tag == ETag::Lit) {
      if ((literal(t) != 0) == when) a_.jmp(target);
      return;
    }
    if (t->tag == ETag::Prim && t->n == 2) {
      const BaselineLowering* l = findBaselineLowering(primById(t->prim).axiom);
      if (l && l->op == BaselineOp::Compare) {
        lowering(t); // (checks the operand types)
        x86::CondCode cc = compare(t, l->cc);
        a_.j(when ? cc : x86::negateCond(cc), target);
        return;
      }
      if (l && l->op == BaselineOp::FCompare) {
        fbranch(t, l->cc, when, target);
        return;
      }
      if (l && l->op == BaselineOp::NatCompare) {
        natBranch(t, l->cc, when, target);
        return;
      }
    }
    if (t->tag == ETag::If && (t->b->tag == ETag::Lit || t->c->tag == ETag::Lit)) {
      // c && x, c || y (and their negations): short-circuit jumps.
      bool litThen = t->b->tag == ETag::Lit;
      ETm* other = litThen ? t->c : t->b;
      bool v = literal(litThen ? t->b : t->c) != 0;
      if (v == when) { // the literal's branch jumps
        branch(t->a, litThen, target);
        branch(other, when, target);
      } else {
        Label skip = a_.newLabel();
        branch(t->a, litThen, skip);
        branch(other, when, target);
        mergeAt(skip); // (reached without `other`: what it checked is not known)
      }
      return;
    }
    Opnd v = eval(t);
    if (v.cls == MType::None) { // a Bool word: imm(1) = 3 is true
      if (v.kind == Opnd::Imm) {
        if ((v.imm == 3) == when) a_.jmp(target);
        return;
      }
      a_.emit(x86::Inst::kIdCmp, v.op(), asmjit::imm(3));
      release(v);
      a_.j(when ? x86::CondCode::kE : x86::CondCode::kNE, target);
      return;
    }
    if (v.kind == Opnd::Reg)
      a_.test(v.reg, v.reg);
    else if (v.kind == Opnd::Mem)
      a_.cmp(v.op().as<x86::Mem>(), 0);
    release(v);
    if (v.kind == Opnd::Imm) {
      if ((v.imm != 0) == when) a_.jmp(target);
      return;
    }
    a_.j(when ? x86::CondCode::kNE : x86::CondCode::kE, target);
  }

  // dst = dst / y or dst % y (y: t's second argument): shifts for a power of two, else idiv, with
  // the checks a variable divisor needs out of line.
  void divide(ETm* t, const BaselineLowering& low, const Gp& dst) {
    bool mod = low.op == BaselineOp::Mod;
    Opnd y = as(eval(t->args[1]), MType::I64);
    uint32_t span = t->span;
    auto fail = [this, span, byZero = low.byZero] {
      a_.mov(x86::edi, span);
      a_.mov(x86::rax, addr(byZero));
      a_.call(x86::rax);
    };
    if (y.kind == Opnd::Imm) {
      int64_t c = y.imm;
      if (c == 0) {
        fail();
        return;
      }
      if (c == -1 || c == 1) {
        if (mod)
          a_.xor_(dst.r32(), dst.r32());
        else if (c == -1)
          a_.neg(dst);
        return;
      }
      if (c > 0 && std::has_single_bit(uint64_t(c))) {
        // Rounding toward zero: add c − 1 to a negative x first.
        uint32_t k = uint32_t(std::countr_zero(uint64_t(c)));
        a_.mov(x86::rax, dst);
        a_.sar(x86::rax, 63);
        a_.shr(x86::rax, 64 - k);
        a_.add(x86::rax, dst);
        if (mod) {
          a_.and_(x86::rax, asmjit::imm(-c));
          a_.sub(dst, x86::rax);
        } else {
          a_.sar(x86::rax, k);
          a_.mov(dst, x86::rax);
        }
        return;
      }
      Opnd r = copyToTemp(y); // (idiv takes no immediate; no check needed)
      a_.mov(x86::rax, dst);
      a_.cqo();
      a_.idiv(r.reg);
      a_.mov(dst, mod ? x86::rdx : x86::rax);
      release(r);
      return;
    }
    Label zero = a_.newLabel(), minusOne = a_.newLabel(), done = a_.newLabel();
    if (y.kind == Opnd::Reg)
      a_.test(y.reg, y.reg);
    else
      a_.cmp(y.op().as<x86::Mem>(), 0);
    a_.je(zero);
    a_.emit(x86::Inst::kIdCmp, y.op(), asmjit::imm(-1));
    a_.je(minusOne);
    a_.mov(x86::rax, dst);
    a_.cqo();
    a_.emit(x86::Inst::kIdIdiv, y.op());
    a_.mov(dst, mod ? x86::rdx : x86::rax);
    a_.bind(done);
    release(y);
    cold_.push_back([this, zero, minusOne, done, dst, mod, fail] {
      a_.bind(zero);
      fail();
      a_.bind(minusOne); // (idiv would trap on INT64_MIN / -1)
      if (mod)
        a_.xor_(dst.r32(), dst.r32());
      else
        a_.neg(dst);
      a_.jmp(done);
    });
  }

  ModuleGen& m_;
  x86::Assembler& a_;
  TopId self_;
  const FrameNeeds* frame_;
  FnSig sig_;
  ETm* body_ = nullptr;
  uint32_t arity_ = 0;
  Label selfLabel_;
  uint32_t accPrim_ = UINT32_MAX; // the accumulator's monoid (UINT32_MAX: none)
  BaselineOp accOp_ = BaselineOp::Add;
  int64_t identity_ = 0;
  uint32_t unroll_ = 0; // levels of copies (unrollDepth)
  std::vector<Loop*> loops_;
  std::vector<Opnd> env_;
  std::vector<Fact> facts_; // what the branches around the code being emitted know
  // Variables' homes (register ids) that straight-line code has checked to
  // be immediates below a word (`idx {n} k`): a second `idx k` on the path,
  // or a `get` at that index, checks nothing. Forgotten where control flow
  // merges (mergeAt), when the home is bound anew, and at back edges (which
  // rewrite the homes); paths out of line that come back write no home.
  std::vector<std::pair<uint32_t, int64_t>> belowKnown_;
  void mergeAt(Label l) {
    a_.bind(l);
    belowKnown_.clear();
  }
  bool knownBelow(const Opnd& o, int64_t word) const {
    if (o.kind != Opnd::Reg || o.temp || o.isF()) return false;
    for (auto& [r, w] : belowKnown_)
      if (r == o.reg.id() && uint64_t(w) <= uint64_t(word)) return true;
    return false;
  }
  void checkedBelow(const Opnd& o, int64_t word) {
    if (o.kind == Opnd::Reg && !o.temp && !o.isF()) belowKnown_.push_back({o.reg.id(), word});
  }
  void forgetBelow(const Opnd& o) {
    if (o.kind != Opnd::Reg || o.isF()) return;
    std::erase_if(belowKnown_, [&](auto& e) { return e.first == o.reg.id(); });
  }
  uint32_t busy_ = 0;      // intermediate registers in use (bits of kScratch)
  uint32_t xbusy_ = 0;     // intermediate xmm registers in use (bits from kXScratch0)
  uint32_t savedBusy_ = 0; // homes in use (bits of kSaved)
  uint32_t xhomes_ = 0;    // F64 homes in use (bits from kXHome0)
  uint32_t savedHigh_ = 0;
  std::vector<bool> slotUsed_;
  uint32_t slotsHigh_ = 0;
  uint32_t coldNext_ = 0, coldHigh_ = 0;
  std::vector<std::function<void()>> cold_;
};

// The boxed entry: unboxes the arguments, calls the worker through its
// slot, boxes the result (an I64 as an immediate when it fits: r + 2^62 ≥
// 0; an F64 in a new box).
void entry(ModuleGen& m, x86::Assembler& a, TopId id, BaselineFn& fn) {
  const FnSig& sig = m.sig(id);
  uint32_t arity = uint32_t(sig.params.size());
  fn.start = a.offset();
  fn.label = a.newLabel();
  a.bind(fn.label);
  a.push(x86::rbx);
  std::vector<size_t> at{a.offset() - fn.start};
  a.sub(x86::rsp, 48); // (8 + 8 + 48: 16-aligned)
  at.push_back(a.offset() - fn.start);
  fn.cfa = prologueCfa({x86::rbx}, 48, at);
  a.mov(x86::rbx, x86::rsi);
  for (uint32_t i = 0; i < arity; ++i) {
    a.mov(x86::rdi, x86::ptr(x86::rbx, int32_t(8 * i)));
    if (sig.params[i] == MType::F64) { // (always boxed)
      a.mov(x86::rdi, x86::ptr(x86::rdi, 8));
    } else if (sig.params[i] == MType::I64) {
      Label slow = a.newLabel(), done = a.newLabel();
      a.test(x86::dil, 1);
      a.jz(slow);
      a.sar(x86::rdi, 1);
      a.jmp(done);
      a.bind(slow);
      a.mov(x86::rax, addr(&blToI64));
      a.call(x86::rax);
      a.mov(x86::rdi, x86::rax);
      a.bind(done);
    }
    a.mov(x86::qword_ptr(x86::rsp, int32_t(8 * i)), x86::rdi);
  }
  std::vector<Opnd> args = argLocations(sig.params);
  for (uint32_t i = 0; i < arity; ++i)
    if (args[i].isF())
      a.movsd(args[i].xmm, x86::qword_ptr(x86::rsp, int32_t(8 * i)));
    else
      a.mov(args[i].reg, x86::qword_ptr(x86::rsp, int32_t(8 * i)));
  a.mov(x86::rax, addr(m.slotOf(id)));
  a.call(x86::ptr(x86::rax));
  Label slow = a.newLabel(), done = a.newLabel();
  if (sig.result == MType::F64) {
    a.mov(x86::rax, addr(&blOfF64));
    a.call(x86::rax);
  } else if (sig.result == MType::I64) {
    a.mov(x86::rcx, asmjit::imm(int64_t(1) << 62));
    a.add(x86::rcx, x86::rax);
    a.js(slow);
    a.lea(x86::rax, x86::ptr(x86::rax, x86::rax, 0, 1));
  }
  a.bind(done);
  a.add(x86::rsp, 48);
  a.pop(x86::rbx);
  a.ret();
  a.bind(slow);
  a.mov(x86::rdi, x86::rax);
  a.mov(x86::rax, addr(&blOfI64));
  a.call(x86::rax);
  a.jmp(done);
  fn.end = a.offset();
}

} // namespace

void appendUleb(std::vector<uint8_t>& o, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    o.push_back(v ? b | 0x80 : b);
  } while (v);
}

bool generateBaseline(Runtime& rt, CodeHolder& code, TopId root, const ExistingSlot& existing,
                      BaselineModuleCode& out) {
  // A function the generator refuses (a construct it does not compile) is
  // called through the runtime by the others: each refusal starts the
  // module again without it. First each function into a scratch buffer,
  // for its frame (copies whose intermediate values outnumber the registers
  // are fewer), then all of them for real.
  std::unordered_set<TopId> refused;
  for (;;) {
    out = BaselineModuleCode{};
    ModuleGen m{rt, existing, out, refused, {}, {}, {}, {}};
    std::vector<std::pair<FrameNeeds, uint32_t>> frames;
    TopId at = root;
    try {
      m.slotOf(root);
      for (size_t i = 0; i < m.todo.size(); ++i) {
        at = m.todo[i];
        uint32_t unroll = UINT32_MAX;
        for (;;) {
          CodeHolder scratch;
          scratch.init(code.environment());
          x86::Assembler sa(&scratch);
          FnGen first(m, sa, at, nullptr, unroll);
          try {
            BaselineFn ignored;
            first.emit(ignored);
            frames.push_back({first.needs(), first.unroll()});
            break;
          } catch (Unsupported&) {
            if (first.unroll() == 0) throw;
            unroll = first.unroll() - 1;
          }
        }
      }
    } catch (Unsupported& u) {
      if (std::getenv("THORIN_BASELINE_ASM"))
        std::fprintf(stderr, "baseline: %s unsupported (line %d)\n", rt.nameOf(at).c_str(), u.line);
      if (at == root) return false;
      refused.insert(at);
      continue;
    }
    try {
      x86::Assembler a(&code);
      for (size_t i = 0; i < m.todo.size(); ++i) {
        TopId id = m.todo[i];
        FnGen gen(m, a, id, &frames[i].first, frames[i].second);
        BaselineFn fn;
        gen.emit(fn);
        out.workers.push_back({id, std::move(fn)});
      }
      entry(m, a, root, out.entry);
    } catch (Unsupported& u) {
      if (std::getenv("THORIN_BASELINE_ASM"))
        std::fprintf(stderr, "baseline: unsupported (line %d)\n", u.line);
      return false;
    }
    return true;
  }
}

} // namespace thorin::rt

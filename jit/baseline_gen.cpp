#include "baseline_gen.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "baseline_lower.hpp"
#include "guard.hpp"
#include "literal.hpp"
#include "prims.hpp"

namespace thorin::rt {
namespace {

using namespace asmjit;
using x86::Gp;

// What baseline code calls (plain C++ functions: the SysV convention).
int64_t blToI64(V v) { return toI64(v); }
V blOfI64(int64_t x) { return ofI64(x); }
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

// An operand: a register, a stack slot or an immediate (32 bits).
struct Opnd {
  enum Kind : uint8_t { Reg, Mem, Imm } kind = Imm;
  bool temp = false; // an intermediate register, freed by its user
  Gp reg;
  int32_t off = 0; // Mem: [rsp + off]
  int64_t imm = 0;
  Operand op() const {
    if (kind == Reg) return reg;
    if (kind == Mem) return x86::qword_ptr(x86::rsp, off);
    return asmjit::imm(imm);
  }
  bool same(const Opnd& o) const {
    if (kind != o.kind) return false;
    return kind == Reg ? reg.id() == o.reg.id() : kind == Mem ? off == o.off : imm == o.imm;
  }
};
Opnd regOpnd(const Gp& r, bool temp) {
  Opnd o;
  o.kind = Opnd::Reg;
  o.reg = r;
  o.temp = temp;
  return o;
}

bool fits32(int64_t v) { return v == int64_t(int32_t(v)); }

// The module being generated: its functions in order, and the slots.
struct ModuleGen {
  Runtime& rt;
  const ExistingSlot& existing;
  BaselineModuleCode& out;
  std::unordered_map<TopId, std::atomic<void*>*> mine; // slots of this module's workers
  std::vector<TopId> todo;

  bool eligible(TopId g);
  std::atomic<void*>* slotOf(TopId g) {
    if (auto* s = existing(g)) {
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

bool ModuleGen::eligible(TopId g) {
  if (isSpec(g) || rt.global(g).compileFailed || rt.global(g).tooLarge == 1) return false;
  Global& gl = rt.erased(g);
  if (!gl.body || gl.body->tag != ETag::Lam || gl.arity == 0 || gl.arity > 6 ||
      gl.body->n != gl.arity || !gl.specsUsed.empty())
    return false;
  if (countNodes(gl.body, kMaxNodes) > kMaxNodes) return false;
  MachineSig sig = rt.machineSig(g);
  if (!sig.known || sig.params.size() != gl.arity || sig.result != MType::I64) return false;
  for (MType m : sig.params)
    if (m != MType::I64) return false;
  return true;
}

// What a function's first emission learns for its second: the frame.
struct FrameNeeds {
  uint32_t saved = 0; // callee-saved registers used (kSaved[0..saved))
  uint32_t slots = 0; // stack slots
};

// One worker: `int64_t f(int64_t…)`. Emitted twice — the first time into a
// scratch buffer, to learn the frame (which callee-saved registers its
// variables take, how many stack slots) that the prologue sets up.
class FnGen {
public:
  FnGen(ModuleGen& m, x86::Assembler& a, TopId id, const FrameNeeds* frame, uint32_t maxUnroll)
      : m_(m), a_(a), self_(id), frame_(frame) {
    Global& g = m_.rt.erased(id);
    body_ = g.body->a;
    arity_ = g.arity;
    accumulates(body_);
    unroll_ = std::min(unrollDepth(body_), maxUnroll);
  }

  uint32_t unroll() const { return unroll_; }

  FrameNeeds needs() const { return FrameNeeds{savedHigh_, slotsHigh_}; }

  void emit(BaselineFn& fn) {
    fn.start = a_.offset();
    fn.label = a_.newLabel();
    selfLabel_ = fn.label;
    a_.bind(fn.label);
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
      adjust = 8 * size_t(frame_->slots);
      if ((8 + 8 * pushed.size() + adjust) % 16) adjust += 8;
      if (adjust) {
        a_.sub(x86::rsp, adjust);
        at.push_back(a_.offset() - fn.start);
      }
    }
    fn.cfa = prologueCfa(pushed, adjust, at);
    Loop l;
    l.depth = 0;
    for (uint32_t i = 0; i < arity_; ++i) {
      l.params.push_back(newHome());
      move(l.params[i], regOpnd(kArgs[i], false));
    }
    loop(l);
    if (adjust) a_.add(x86::rsp, adjust);
    for (size_t i = pushed.size(); i-- > 0;)
      a_.pop(pushed[i]);
    a_.ret();
    for (size_t i = 0; i < cold_.size(); ++i) // (out of line: polls, errors)
      cold_[i]();
    fn.end = a_.offset();
    if (frame_ && (savedHigh_ > frame_->saved || slotsHigh_ > frame_->slots))
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
    Label go, exit;           // the body; after the loop (its value in rax)
    uint32_t depth = 0;       // 0: the function itself
    std::vector<Opnd> from;   // copies: the variable each parameter starts as (or an Imm)
  };

  // ---- registers and slots ----
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
  static size_t scratchIndex(const Gp& r) {
    for (size_t i = 0; i < kNumScratch; ++i)
      if (kScratch[i].id() == r.id()) return i;
    return SIZE_MAX;
  }
  void release(const Opnd& o) {
    if (o.kind == Opnd::Reg && o.temp) busy_ &= ~(1u << scratchIndex(o.reg));
  }
  int32_t newSlot() {
    uint32_t i = 0;
    while (i < slotUsed_.size() && slotUsed_[i])
      ++i;
    if (i == slotUsed_.size()) slotUsed_.push_back(false);
    slotUsed_[i] = true;
    slotsHigh_ = std::max<uint32_t>(slotsHigh_, i + 1);
    return int32_t(8 * i);
  }
  void freeSlot(int32_t off) { slotUsed_[size_t(off / 8)] = false; }
  // A variable's home: a callee-saved register while there are some.
  Opnd newHome() {
    for (uint32_t i = 0; i < kNumSaved; ++i)
      if (!(savedBusy_ & (1u << i))) {
        savedBusy_ |= 1u << i;
        savedHigh_ = std::max(savedHigh_, i + 1);
        return regOpnd(kSaved[i], false);
      }
    Opnd o;
    o.kind = Opnd::Mem;
    o.off = newSlot();
    return o;
  }
  void freeHome(const Opnd& h) {
    if (h.kind == Opnd::Mem) {
      freeSlot(h.off);
      return;
    }
    for (uint32_t i = 0; i < kNumSaved; ++i)
      if (kSaved[i].id() == h.reg.id()) savedBusy_ &= ~(1u << i);
  }
  // Intermediate registers in use but `except`: saved around a call.
  std::vector<std::pair<Gp, int32_t>> saveLive(uint32_t exceptMask) {
    std::vector<std::pair<Gp, int32_t>> saved;
    for (size_t i = 0; i < kNumScratch; ++i)
      if ((busy_ & ~exceptMask) & (1u << i)) {
        int32_t s = newSlot();
        a_.mov(x86::qword_ptr(x86::rsp, s), kScratch[i]);
        saved.push_back({kScratch[i], s});
      }
    return saved;
  }
  void restore(const std::vector<std::pair<Gp, int32_t>>& saved, bool free = true) {
    for (auto& [r, s] : saved) {
      a_.mov(r, x86::qword_ptr(x86::rsp, s));
      if (free) freeSlot(s);
    }
  }
  static uint32_t maskOf(const Gp& r) {
    size_t i = scratchIndex(r);
    return i == SIZE_MAX ? 0 : 1u << i;
  }

  // dst ← src, for any two operands (memory to memory through rax).
  void move(const Opnd& dst, const Opnd& src) {
    if (dst.same(src)) return;
    if (dst.kind == Opnd::Mem && src.kind == Opnd::Mem) {
      a_.emit(x86::Inst::kIdMov, x86::rax, src.op());
      a_.emit(x86::Inst::kIdMov, dst.op(), x86::rax);
      return;
    }
    if (src.kind == Opnd::Imm && dst.kind == Opnd::Reg && src.imm == 0) {
      a_.xor_(dst.reg.r32(), dst.reg.r32());
      return;
    }
    a_.emit(x86::Inst::kIdMov, dst.op(), src.op());
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
  // Emits loop l (its parameter homes set); its value ends in rax.
  void loop(Loop& l) {
    if (accPrim_ != UINT32_MAX) {
      l.acc = newHome();
      Opnd id;
      id.imm = identity_;
      move(l.acc, id);
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
    int first = l.depth > 0 && body_->tag == ETag::If ? atEntry(l, body_->a) : -1;
    if (first >= 0) {
      // The copy's first test is decided where it is entered (ackermann's
      // copy of itself at `ack m (n - 1)`, entered where m ≠ 0): the branch
      // taken comes first, and the test is where back edges go.
      Label taken = a_.newLabel();
      a_.bind(taken);
      falls = tailBranch(body_->a, first == 1, first == 1 ? body_->b : body_->c);
      a_.bind(l.go);
      branch(body_->a, first == 1, taken);
      falls = tailBranch(body_->a, first != 1, first == 1 ? body_->c : body_->b) || falls;
    } else {
      a_.bind(l.go);
      falls = tailInto(body_);
    }
    loops_.pop_back();
    env_ = std::move(outer);
    if (!falls) throw Unsupported{__LINE__}; // (a loop without exit)
    a_.bind(l.exit);
    if (accPrim_ != UINT32_MAX) freeHome(l.acc);
  }

  // t in tail position of the innermost loop: its value, ⊕ the
  // accumulator, goes to rax at the loop's exit. False if no path gets
  // there (each is a tail call of the function).
  bool tailInto(ETm* t) {
    Loop& l = *loops_.back();
    switch (t->tag) {
    case ETag::Let: {
      Opnd h = bind(t->a);
      bool falls = tailInto(t->b);
      unbind(h);
      return falls;
    }
    case ETag::If: {
      Label no = a_.newLabel();
      branch(t->a, false, no);
      bool a = tailBranch(t->a, true, t->b);
      a_.bind(no);
      bool b = tailBranch(t->a, false, t->c);
      return a || b;
    }
    case ETag::Prim:
      if (accTail(t)) { // acc ⊕= e, then a tail call of itself
        if (t->args[0]->tag == ETag::App) {
          callInto(t->args[0]);
          accumulate(l, regOpnd(x86::rax, false));
        } else {
          Opnd e = eval(t->args[0]);
          accumulate(l, e);
          release(e);
        }
        return tailInto(t->args[1]);
      }
      break;
    case ETag::App:
      if (selfCall(t)) {
        backEdge(l, t);
        return false;
      }
      break;
    default: break;
    }
    if (t->tag == ETag::App) {
      callInto(t);
    } else if (!arithInto(t, x86::rax)) {
      Opnd v = eval(t);
      move(regOpnd(x86::rax, false), v);
      release(v);
    }
    if (accPrim_ != UINT32_MAX) binary(accOp_, x86::rax, l.acc);
    a_.jmp(l.exit);
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
    auto plain = [](ETm* u) {
      return u->tag == ETag::Var ||
             (u->tag == ETag::Lit && LitKind(u->n) == LitKind::I64 && fits32(int64_t(u->bits)));
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

  // An application's value into rax: a copy of the function (a nested
  // loop) or a call.
  void callInto(ETm* t) {
    if (t->a->tag != ETag::Global) throw Unsupported{__LINE__};
    TopId g = t->a->n;
    if (m_.rt.erased(g).arity != t->n) throw Unsupported{__LINE__};
    if (g == self_ && loops_.back()->depth < unroll_)
      nested(t);
    else
      call(g, t);
  }

  // A conditional's branch t, where its condition c has the value `value`
  // (a fact while t is emitted).
  bool tailBranch(ETm* c, bool value, ETm* t) {
    Fact f;
    bool known = asFact(c, value, f);
    if (known) facts_.push_back(f);
    bool falls = tailInto(t);
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
  // c, a comparison of a variable with a small literal, as a fact (that it
  // has the value `value`).
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
    if (x->tag != ETag::Var || x->n >= env_.size() || y->tag != ETag::Lit) return false;
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
    Opnd h = newHome();
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
    std::vector<std::pair<Gp, int32_t>> saves;
    for (size_t i = 0; i < kNumScratch; ++i)
      if (busy_ & (1u << i)) saves.push_back({kScratch[i], newSlot()});
    // (these slots stay taken: the stub runs where any slot may be in use)
    cold_.push_back([this, stub, saves, params = l.params, acc = l.acc, go = l.go, exit = l.exit] {
      pollStub(stub, saves, params, acc, go, exit);
    });
  }

  // The poll; then back to the loop — or, when the slot holds LLVM's worker
  // by now (the compile thread asked for this poll), the loop continues
  // there: its value is acc ⊕ f(params).
  void pollStub(Label stub, const std::vector<std::pair<Gp, int32_t>>& saves,
                const std::vector<Opnd>& params, const Opnd& acc, Label go, Label exit) {
    a_.bind(stub);
    for (auto& [r, s] : saves)
      a_.mov(x86::qword_ptr(x86::rsp, s), r);
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
    for (size_t i = 0; i < params.size(); ++i)
      move(regOpnd(kArgs[i], false), params[i]);
    a_.call(x86::rax);
    if (accPrim_ != UINT32_MAX) binary(accOp_, x86::rax, acc);
    restore(saves, false);
    a_.jmp(exit);
  }

  // A tail call of the function in loop l: the new parameters, then back
  // to the top. All arguments are computed before a home changes; an
  // argument `p ± k` of its own parameter p is an update in place.
  void backEdge(Loop& l, ETm* call) {
    struct Arg {
      enum { Same, InPlace, Value } kind;
      Opnd v;
      bool add = true;
    };
    std::vector<Arg> args;
    // An argument that calls something is computed last, when the others
    // cannot fail: its value is taken from rax.
    uint32_t last = UINT32_MAX;
    for (uint32_t i = 0; i < call->n; ++i)
      if (call->args[i]->tag == ETag::App) last = last == UINT32_MAX ? i : UINT32_MAX - 1;
    if (last < call->n)
      for (uint32_t i = 0; i < call->n; ++i)
        if (i != last && !total(call->args[i])) last = UINT32_MAX;
    for (uint32_t i = 0; i < call->n; ++i) {
      ETm* x = call->args[i];
      if (i == last) {
        args.push_back({Arg::Value, {}, true});
        continue;
      }
      if (isVar(x, l.params[i])) {
        args.push_back({Arg::Same, {}, true});
        continue;
      }
      if (x->tag == ETag::Prim && x->n == 2 && isVar(x->args[0], l.params[i]) &&
          x->args[1]->tag == ETag::Lit && LitKind(x->args[1]->n) == LitKind::I64 &&
          fits32(int64_t(x->args[1]->bits))) {
        const BaselineLowering* low = findBaselineLowering(primById(x->prim).axiom);
        if (low && (low->op == BaselineOp::Add || low->op == BaselineOp::Sub)) {
          Opnd k;
          k.imm = int64_t(x->args[1]->bits);
          args.push_back({Arg::InPlace, k, low->op == BaselineOp::Add});
          continue;
        }
      }
      Opnd v = eval(x);
      if (v.kind == Opnd::Reg && !v.temp) v = copyToTemp(v); // (a home: it may change)
      if (v.kind == Opnd::Mem) v = copyToTemp(v);
      args.push_back({Arg::Value, v, true});
    }
    if (last < call->n) {
      callInto(call->args[last]);
      move(l.params[last], regOpnd(x86::rax, false)); // (before anything uses rax)
      args[last].kind = Arg::Same;
    }
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind == Arg::InPlace)
        a_.emit(args[i].add ? x86::Inst::kIdAdd : x86::Inst::kIdSub, l.params[i].op(),
                args[i].v.op());
      else if (args[i].kind == Arg::Value) {
        move(l.params[i], args[i].v);
        release(args[i].v);
      }
    }
    pollCheck(l, true);
  }

  bool isVar(ETm* t, const Opnd& home) {
    return t->tag == ETag::Var && t->n < env_.size() && env_[env_.size() - 1 - t->n].same(home);
  }
  Opnd copyToTemp(const Opnd& v, const Gp* want = nullptr) {
    Gp r = tmp(want);
    move(regOpnd(r, true), v);
    return regOpnd(r, true);
  }

  // A self-call that is no loop: a copy of the function, a loop nested
  // here; its value ends in rax.
  void nested(ETm* call) {
    Loop l;
    l.depth = loops_.back()->depth + 1;
    // Each argument straight into its new home (no argument reads one).
    for (uint32_t i = 0; i < call->n; ++i) {
      l.params.push_back(newHome());
      ETm* x = call->args[i];
      l.from.push_back(x->tag == ETag::Var && x->n < env_.size() ? env_[env_.size() - 1 - x->n]
                                                                 : Opnd{});
    }
    for (uint32_t i = 0; i < call->n; ++i) {
      if (l.params[i].kind == Opnd::Reg && arithInto(call->args[i], l.params[i].reg)) continue;
      Opnd v = eval(call->args[i]);
      move(l.params[i], v);
      release(v);
    }
    loop(l);
    for (auto& h : l.params)
      freeHome(h);
  }

  // A call through a slot; its value ends in rax.
  void call(TopId g, ETm* t) {
    std::atomic<void*>* slot = m_.slotOf(g);
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
    for (uint32_t i : order)
      vs[i] = eval(t->args[i], &kArgs[i]);
    uint32_t argMask = 0;
    for (auto& v : vs)
      if (v.kind == Opnd::Reg && v.temp) argMask |= maskOf(v.reg);
    auto saved = saveLive(argMask);
    for (auto& v : vs)
      release(v);
    parallelMove(vs);
    if (g == self_) { // (its entry's poll moves on to LLVM's code when that is ready)
      a_.call(selfLabel_);
    } else {
      a_.mov(x86::rax, addr(slot));
      a_.call(x86::ptr(x86::rax));
    }
    restore(saved);
  }

  bool callsAnything(ETm* t) {
    if (t->tag == ETag::App) return true;
    bool any = false;
    forEachChild(t, 0, [&](ETm* c, uint32_t) {
      if (c && !any) any = callsAnything(c);
    });
    return any;
  }
  // Cannot fail or loop: no call, no division.
  bool total(ETm* t) {
    if (t->tag == ETag::App) return false;
    if (t->tag == ETag::Prim) {
      const BaselineLowering* l = findBaselineLowering(primById(t->prim).axiom);
      if (!l || l->op == BaselineOp::Div || l->op == BaselineOp::Mod) return false;
    }
    bool ok = true;
    forEachChild(t, 0, [&](ETm* c, uint32_t) {
      if (c && ok) ok = total(c);
    });
    return ok;
  }

  // kArgs[i] ← vs[i] at once (a source may be another's destination; rax
  // breaks cycles).
  void parallelMove(std::vector<Opnd> vs) {
    size_t n = vs.size();
    std::vector<bool> done(n, false);
    auto readBy = [&](const Gp& r, size_t except) {
      for (size_t j = 0; j < n; ++j)
        if (!done[j] && j != except && vs[j].kind == Opnd::Reg && vs[j].reg.id() == r.id())
          return true;
      return false;
    };
    for (size_t left = n; left > 0;) {
      bool progress = false;
      for (size_t i = 0; i < n; ++i) {
        if (done[i] || readBy(kArgs[i], i)) continue;
        move(regOpnd(kArgs[i], false), vs[i]);
        done[i] = true;
        --left;
        progress = true;
      }
      if (progress) continue;
      // A cycle: move one waiting destination's current value to rax.
      for (size_t i = 0; i < n; ++i)
        if (!done[i]) {
          a_.mov(x86::rax, kArgs[i]);
          for (size_t j = 0; j < n; ++j)
            if (!done[j] && vs[j].kind == Opnd::Reg && vs[j].reg.id() == kArgs[i].id())
              vs[j] = regOpnd(x86::rax, false);
          break;
        }
    }
  }

  // ---- expressions ----
  // t's value as an operand: a variable's home, a small literal, or an
  // intermediate register (taken only once there is a value to hold).
  Opnd eval(ETm* t, const Gp* want = nullptr) {
    switch (t->tag) {
    case ETag::Var:
      if (t->n >= env_.size()) throw Unsupported{__LINE__};
      return env_[env_.size() - 1 - t->n];
    case ETag::Lit: {
      int64_t v = literal(t);
      if (fits32(v)) {
        Opnd o;
        o.imm = v;
        return o;
      }
      Gp r = tmp();
      a_.mov(r, asmjit::imm(v));
      return regOpnd(r, true);
    }
    case ETag::Let: {
      Opnd h = bind(t->a);
      Opnd v = eval(t->b);
      if (v.same(h)) v = copyToTemp(v);
      unbind(h);
      return v;
    }
    case ETag::If: {
      Gp r = tmp();
      Label no = a_.newLabel(), join = a_.newLabel();
      branch(t->a, false, no);
      into(t->b, r);
      a_.jmp(join);
      a_.bind(no);
      into(t->c, r);
      a_.bind(join);
      return regOpnd(r, true);
    }
    case ETag::Prim: {
      const BaselineLowering& low = lowering(t);
      if (low.op == BaselineOp::Compare) {
        x86::CondCode cc = compare(t, low.cc);
        Gp r = tmp();
        a_.set(cc, r.r8());
        a_.movzx(r.r32(), r.r8());
        return regOpnd(r, true);
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
      Opnd x = eval(t->args[0], want);
      if (!x.temp) x = copyToTemp(x, want);
      if (low.op == BaselineOp::Div || low.op == BaselineOp::Mod) {
        divide(t, low, x.reg);
        return x;
      }
      Opnd y = eval(t->args[1]);
      binary(low.op, x.reg, y);
      release(y);
      return x;
    }
    case ETag::App: {
      callInto(t);
      Gp r = tmp(want);
      a_.mov(r, x86::rax);
      return regOpnd(r, true);
    }
    default: throw Unsupported{__LINE__};
    }
  }
  static int64_t literal(ETm* t) {
    if (LitKind(t->n) == LitKind::I64) return int64_t(t->bits);
    if (LitKind(t->n) == LitKind::Bool) return t->bits != 0 ? 1 : 0;
    throw Unsupported{__LINE__};
  }
  // dst ← t's value.
  void into(ETm* t, const Gp& dst) {
    Opnd v = eval(t);
    move(regOpnd(dst, false), v);
    release(v);
  }

  const BaselineLowering& lowering(ETm* t) {
    const Prim& p = primById(t->prim);
    const BaselineLowering* l = findBaselineLowering(p.axiom);
    if (!l || t->n != 2 || (p.result != MType::I64 && p.result != MType::Bool))
      throw Unsupported{__LINE__};
    for (uint32_t i = 0; i < 2; ++i)
      if (p.args[i] != MType::I64 && p.args[i] != MType::Bool) throw Unsupported{__LINE__};
    return *l;
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
        Opnd x = eval(m->args[0]);
        if (x.kind == Opnd::Imm) x = copyToTemp(x);
        a_.emit(x86::Inst::kIdTest, x.op(), asmjit::imm(k - 1));
        release(x);
        return cc;
      }
    }
    Opnd x = eval(t->args[0]), y = eval(t->args[1]);
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
        a_.bind(skip);
      }
      return;
    }
    Opnd v = eval(t);
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
    Opnd y = eval(t->args[1]);
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
  uint32_t busy_ = 0;       // intermediate registers in use (bits of kScratch)
  uint32_t savedBusy_ = 0;  // homes in use (bits of kSaved)
  uint32_t savedHigh_ = 0;
  std::vector<bool> slotUsed_;
  uint32_t slotsHigh_ = 0;
  std::vector<std::function<void()>> cold_;
};

// The boxed entry: unboxes the arguments, calls the worker through its
// slot, boxes the result (an immediate when it fits: r + 2^62 ≥ 0).
void entry(ModuleGen& m, x86::Assembler& a, TopId id, BaselineFn& fn) {
  uint32_t arity = m.rt.erased(id).arity;
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
    Label slow = a.newLabel(), done = a.newLabel();
    a.mov(x86::rdi, x86::ptr(x86::rbx, int32_t(8 * i)));
    a.test(x86::dil, 1);
    a.jz(slow);
    a.sar(x86::rdi, 1);
    a.jmp(done);
    a.bind(slow);
    a.mov(x86::rax, addr(&blToI64));
    a.call(x86::rax);
    a.mov(x86::rdi, x86::rax);
    a.bind(done);
    a.mov(x86::qword_ptr(x86::rsp, int32_t(8 * i)), x86::rdi);
  }
  for (uint32_t i = 0; i < arity; ++i)
    a.mov(kArgs[i], x86::qword_ptr(x86::rsp, int32_t(8 * i)));
  a.mov(x86::rax, addr(m.slotOf(id)));
  a.call(x86::ptr(x86::rax));
  Label slow = a.newLabel(), done = a.newLabel();
  a.mov(x86::rcx, asmjit::imm(int64_t(1) << 62));
  a.add(x86::rcx, x86::rax);
  a.js(slow);
  a.lea(x86::rax, x86::ptr(x86::rax, x86::rax, 0, 1));
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
  ModuleGen m{rt, existing, out, {}, {}};
  x86::Assembler a(&code);
  try {
    m.slotOf(root);
    for (size_t i = 0; i < m.todo.size(); ++i) {
      TopId id = m.todo[i];
      // First into a scratch buffer, for the frame; then for real. Copies
      // whose intermediate values outnumber the registers are fewer.
      FrameNeeds frame;
      uint32_t unroll = UINT32_MAX;
      for (;;) {
        CodeHolder scratch;
        scratch.init(code.environment());
        x86::Assembler sa(&scratch);
        FnGen first(m, sa, id, nullptr, unroll);
        try {
          BaselineFn ignored;
          first.emit(ignored);
          frame = first.needs();
          unroll = first.unroll();
          break;
        } catch (Unsupported&) {
          if (first.unroll() == 0) throw;
          unroll = first.unroll() - 1;
        }
      }
      FnGen gen(m, a, id, &frame, unroll);
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

} // namespace thorin::rt

// Loops (fn_gen.hpp): the function's body and its copies, each a loop
// whose tail calls of the function jump back to its top; tail positions,
// accumulators, lets.
#include "fn_gen.hpp"

#include "runtime/share.hpp"

namespace thorin::rt::baseline_gen {

// Emits loop l (its parameter homes set); its value ends in the result
// location of the function's result class.
void FnGen::loop(Loop& l) {
  if (plan_.accPrim() != UINT32_MAX) {
    l.acc = newHome(MType::I64);
    move(l.acc, immOpnd(plan_.identity()));
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
  if (l.depth == 0 && anyFact(pfacts_)) {
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
    if (plan_.accPrim() != UINT32_MAX) freeHome(l.acc);
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
  if (plan_.accPrim() != UINT32_MAX) freeHome(l.acc);
}

// t in tail position of the innermost loop: its value, ⊕ the
// accumulator, goes to the result location at the loop's exit. False if
// no path gets there (each is a tail call of the function). `last`: the
// exit comes next (no jump to it).
bool FnGen::tailInto(ETm* t, bool last) {
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
    if (plan_.accTail(t)) { // acc ⊕= e, then a tail call of itself
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
    if (plan_.selfCall(t)) {
      backEdge(l, t, last);
      return false;
    }
    break;
  case ETag::Case: return tailCase(t, last);
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
  if (plan_.accPrim() != UINT32_MAX) binary(plan_.accOp(), x86::rax, l.acc);
  if (!last) a_.jmp(l.exit);
  return true;
}

// l's accumulator ⊕= e (e may be rax).
void FnGen::accumulate(Loop& l, const Opnd& e) {
  if (l.acc.kind == Opnd::Reg) {
    binary(plan_.accOp(), l.acc.reg, e);
  } else if (plan_.accOp() == BaselineOp::Add && e.kind != Opnd::Mem) {
    a_.emit(x86::Inst::kIdAdd, l.acc.op(), e.op());
  } else {
    a_.emit(x86::Inst::kIdMov, x86::rdx, l.acc.op());
    binary(plan_.accOp(), x86::rdx, e);
    a_.emit(x86::Inst::kIdMov, l.acc.op(), x86::rdx);
  }
}

// A conditional's branch t, where its condition c has the value `value`
// (a fact while t is emitted).
bool FnGen::tailBranch(ETm* c, bool value, ETm* t, bool last) {
  Fact f;
  bool known = asFact(c, value, f);
  if (known) facts_.push_back(f);
  bool falls = tailInto(t, last);
  if (known) facts_.pop_back();
  return falls;
}

// A let: its value in a new home (it may live across calls and loops).
Opnd FnGen::bind(ETm* value) {
  Opnd v = eval(value);
  Opnd h = newHome(v.cls);
  forgetBelow(h);
  move(h, v);
  h.below = v.below; // (a let's home keeps its value: `let i = idx k`)
  release(v);
  env_.push_back(h);
  return h;
}

void FnGen::unbind(const Opnd& h) {
  env_.pop_back();
  freeHome(h);
}

bool FnGen::isVar(ETm* t, const Opnd& home) {
  // (A word read that shares its value is computed, as any other argument.)
  if (t->tag == ETag::Var && !(t->flags & kNoShare) && home.cls == MType::None) return false;
  return t->tag == ETag::Var && t->n < env_.size() && env_[env_.size() - 1 - t->n].same(home);
}

} // namespace thorin::rt::baseline_gen

// Instruction selection of expressions (fn_gen.hpp): a term's value as an
// operand, literals, conditions as jumps; primitives by class in
// emit_int.cpp, emit_float.cpp, emit_words.cpp.
#include "fn_gen.hpp"

#include "core/literal.hpp"
#include "runtime/abi.hpp"
#include "runtime/primitive.hpp"
#include "runtime/share.hpp"

namespace thorin::rt::baseline_gen {

// The class t's value is computed in (before any conversion).
MType FnGen::classOf(ETm* t) {
  std::vector<MType> env;
  for (const Opnd& v : env_)
    env.push_back(v.cls);
  return valueClass(t, env, m_, self_, sig_);
}

// An array in word v is marked shared (a second reference to it may be
// used: runtime/share.hpp). Inline: the tests read the header in memory.
void FnGen::shareWord(const Opnd& v) {
  if (v.cls != MType::None || v.kind == Opnd::Imm || v.immWord) return;
  Opnd held = v;
  if (v.kind == Opnd::Mem) {
    held = temp(MType::None);
    move(held, v);
  }
  Gp r = held.reg;
  Label mark = a_.newLabel(), pair = a_.newLabel(), con = a_.newLabel(), done = a_.newLabel();
  auto tag = x86::dword_ptr(r, 0);
  a_.test(r.r8(), 15); // (an immediate or a compact cell: nothing to mark)
  a_.jnz(done);
  a_.cmp(tag, int32_t(OTag::Pair));
  a_.je(pair);
  a_.cmp(tag, int32_t(OTag::Con));
  a_.je(con);
  a_.cmp(tag, int32_t(OTag::Arr));
  a_.je(mark);
  a_.cmp(tag, int32_t(OTag::Str)); // (a string keeps its flags where an array does)
  a_.je(mark);
  a_.cmp(tag, int32_t(OTag::ArrI64));
  a_.jb(done);
  a_.cmp(tag, int32_t(OTag::ArrF64));
  a_.ja(done);
  a_.bind(mark);
  a_.or_(x86::qword_ptr(r, -16), int32_t(kArrShared));
  a_.jmp(done);
  a_.bind(pair);
  a_.or_(x86::dword_ptr(r, 4), int32_t(kPairShared));
  a_.jmp(done);
  a_.bind(con);
  a_.or_(x86::dword_ptr(r, 4), int32_t(kConShared));
  a_.bind(done);
  if (v.kind == Opnd::Mem) release(held);
}

// t's value as an operand: a variable's home, a literal, or an
// intermediate register (taken only once there is a value to hold).
Opnd FnGen::eval(ETm* t, const Gp* want) {
  switch (t->tag) {
  case ETag::Var: {
    if (t->n >= env_.size()) throw Unsupported{__LINE__};
    const Opnd& h = env_[env_.size() - 1 - t->n];
    if (!(t->flags & kNoShare)) shareWord(h);
    return h;
  }
  case ETag::Lit: return litOpnd(t, true);
  case ETag::Erased: return immOpnd(int64_t(erasedType(t->n)), MType::None);
  case ETag::Known: return immOpnd(int64_t(erased()), MType::None); // (filters are never run)
  case ETag::Global: // (a top-level value: computed once, by the runtime)
    return callC(reinterpret_cast<void*>(&thorin_rt_global), {immOpnd(t->n, MType::None)});
  case ETag::Arr: { // (a literal: words)
    Opnd arr = callC(reinterpret_cast<void*>(&thorin_rt_arr), {immOpnd(t->n, MType::None)});
    for (uint32_t i = 0; i < t->n; ++i) {
      Opnd v = as(eval(t->args[i]), MType::None);
      if (v.kind == Opnd::Mem || (v.kind == Opnd::Imm && !fits32(v.imm))) {
        a_.emit(x86::Inst::kIdMov, x86::rax, v.op());
        v = regOpnd(x86::rax, false, MType::None);
      }
      shareWord(v); // (stored in another object)
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
  case ETag::Con: return construct(t);
  case ETag::Field: return field(t);
  case ETag::Case: return caseOf(t);
  default: throw Unsupported{__LINE__};
  }
}

// A literal: I64 immediates of 32 bits (else a register when `emit`),
// Bool 0/1, F64 bits, Nat and Idx immediates as words (a Nat of 2^62 or
// more, a string: LLVM's).
Opnd FnGen::litOpnd(ETm* t, bool emit) {
  Opnd lit = litImm(t, emit);
  if (lit.kind != Opnd::Imm || lit.cls != MType::None || lit.imm != 0) return lit;
  if (!emit) return lit; // (class None)
  return callC(reinterpret_cast<void*>(&thorin_rt_lit),
               {immOpnd(int64_t(reinterpret_cast<intptr_t>(t)), MType::None)});
}

// A literal's operand; for one that is no immediate (a Nat of 2^62 or
// more, a string), the word 0 (no word is 0: the runtime makes it).
Opnd FnGen::litImm(ETm* t, bool emit) {
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

// dst ← t's value (in dst's class).
void FnGen::into(ETm* t, const Opnd& dst) {
  // dst is written at the end: until then calls need not save it (an
  // `if`'s result register, around the calls in its branches).
  unset_.push_back(dst);
  Opnd v = as(eval(t), dst.cls);
  unset_.pop_back();
  move(dst, v);
  release(v);
}

// Jumps to `target` when t's value is `when`, falls through otherwise.
void FnGen::branch(ETm* t, bool when, Label target) {
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

} // namespace thorin::rt::baseline_gen

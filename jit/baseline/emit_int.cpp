// I64 and Bool operations (fn_gen.hpp): arithmetic, comparisons, division.
#include "fn_gen.hpp"

#include "core/literal.hpp"
#include "runtime/primitive.hpp"
#include <bit>

namespace thorin::rt::baseline_gen {

// An I64 or Bool operation.
Opnd FnGen::intPrim(ETm* t, const Gp* want) {
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

const BaselineLowering& FnGen::lowering(ETm* t) {
  const Prim& p = primById(t->prim);
  const BaselineLowering* l = findBaselineLowering(p.axiom);
  if (!l || !intOp(l->op) || t->n != 2 || (p.result != MType::I64 && p.result != MType::Bool))
    throw Unsupported{__LINE__};
  for (uint32_t i = 0; i < 2; ++i)
    if (p.args[i] != MType::I64 && p.args[i] != MType::Bool) throw Unsupported{__LINE__};
  return *l;
}

// `x ⊕ y` of a variable or literal x and y, computed into dst (any
// register) without intermediates; false for anything else.
bool FnGen::arithInto(ETm* t, const Gp& dst) {
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

// dst ⊕= src for ⊕ add, sub or mul.
void FnGen::binary(BaselineOp op, const Gp& dst, const Opnd& src) {
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
x86::CondCode FnGen::compare(ETm* t, x86::CondCode cc) {
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

// dst = dst / y or dst % y (y: t's second argument): shifts for a power of two, else idiv, with
// the checks a variable divisor needs out of line.
void FnGen::divide(ETm* t, const BaselineLowering& low, const Gp& dst) {
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

} // namespace thorin::rt::baseline_gen

// F64 operations (fn_gen.hpp): SSE2 arithmetic, `ucomisd` comparisons.
#include "fn_gen.hpp"

namespace thorin::rt::baseline_gen {

Opnd FnGen::floatPrim(ETm* t, const BaselineLowering& l) {
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
x86::CondCode FnGen::fcompare(ETm* t, x86::CondCode cc) {
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

void FnGen::fcompareValue(ETm* t, x86::CondCode cc, const Gp& r) {
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

void FnGen::fbranch(ETm* t, x86::CondCode cc, bool when, Label target) {
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

} // namespace thorin::rt::baseline_gen

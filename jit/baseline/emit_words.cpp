// Words (fn_gen.hpp): Nat and Idx operations on immediates inline, the
// rest through the primitive out of line; Nat comparisons as jumps.
#include "fn_gen.hpp"

#include <bit>

namespace thorin::rt::baseline_gen {

// 1: an immediate (a literal, a parameter known to be one), -1: a
// literal that is no immediate, 0: unknown.
int FnGen::knownImm(const Opnd& o) const {
  if (o.kind == Opnd::Imm) return o.imm & 1 ? 1 : -1;
  if (o.immWord) return 1;
  const ParamFact* f = factOf(o);
  return f && f->imm ? 1 : 0;
}

// Jumps to `slow` unless both words are immediates.
void FnGen::immCheck(const Opnd& a, const Opnd& b, Label slow) {
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
std::vector<Opnd> FnGen::words(ETm* t) {
  std::vector<Opnd> ws;
  for (uint32_t i = 0; i < t->n; ++i)
    ws.push_back(fit(as(eval(t->args[i]), MType::None)));
  return ws;
}

// `cmp` of two words (immediates: unsigned, as their values); the
// condition that holds. Two literals: -1 when false, else 1 (as `known`).
x86::CondCode FnGen::cmpWords(Opnd x, Opnd y, x86::CondCode cc, int& known) {
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

void FnGen::natBranch(ETm* t, x86::CondCode cc, bool when, Label target) {
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

// A primitive on words: its fast path inline (immediates, arrays of the
// representation and length their type implies), the rest out of line
// (the primitive's run-time implementation).
Opnd FnGen::wordPrim(ETm* t, const BaselineLowering& l) {
  if (l.op == BaselineOp::IdxToNat) return as(eval(t->args[1]), MType::None); // ({n} i: i)
  if (l.op == BaselineOp::ArrLength) return arrLength(t);
  std::vector<Opnd> ws = words(t);
  Label slow = a_.newLabel(), done = a_.newLabel();
  Opnd r;
  switch (l.op) {
  case BaselineOp::NatAdd: // 2a+1 + 2b+1 - 1, an immediate while below 2^63
    if (natAdd(ws, slow, r)) return r;
    break;
  case BaselineOp::NatSub: r = natSub(ws, slow); break;
  case BaselineOp::NatMul: r = natMul(ws, slow); break;
  case BaselineOp::NatDiv:
  case BaselineOp::NatMod: r = natDivMod(ws, l.op == BaselineOp::NatMod, slow); break;
  case BaselineOp::NatCompare: r = natCompare(ws, l.cc, slow); break;
  case BaselineOp::IdxOf:
    if (idxOf(t, ws, slow, done, r)) return r;
    break;
  case BaselineOp::NatToF64: r = natToF64(ws, slow); break;
  case BaselineOp::ArrGet: r = arrGet(t, ws, slow); break;
  case BaselineOp::ArrSet: r = arrSet(t, ws, slow); break;
  default: throw Unsupported{__LINE__};
  }
  a_.bind(done);
  coldPrim(t, ws, r, PrimSlow{slow, done, false, false, Label()});
  releaseAll(ws);
  return r;
}

// Nat `+` (2a+1 + 2b+1 - 1, an immediate while below 2^63) into r; true
// when it needs no slow path (`k + c` for k checked below a small bound).
bool FnGen::natAdd(std::vector<Opnd>& ws, Label slow, Opnd& r) {
  if (ws[1].kind == Opnd::Imm && (ws[1].imm & 1) && ws[1].imm < (int64_t(1) << 30) &&
      knownBelow(ws[0], int64_t(1) << 30)) {
    // k + c for k checked below a small bound (`idx k` before): no overflow
    r = temp(MType::None);
    a_.lea(r.reg, x86::ptr(ws[0].reg, int32_t(ws[1].imm - 1)));
    r.immWord = true;
    return true;
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
  return false;
}

// Nat `-`: a - b + 1, or 1 (zero) when a < b.
Opnd FnGen::natSub(std::vector<Opnd>& ws, Label slow) {
  immCheck(ws[0], ws[1], slow);
  Opnd r = temp(MType::None);
  move(r, ws[0]);
  a_.emit(x86::Inst::kIdSub, r.reg, ws[1].op());
  a_.lea(r.reg, x86::ptr(r.reg, 1));
  a_.mov(x86::eax, 1);
  a_.cmovb(r.reg, x86::rax);
  return r;
}

// Nat `*`: a·b while below 2^62.
Opnd FnGen::natMul(std::vector<Opnd>& ws, Label slow) {
  immCheck(ws[0], ws[1], slow);
  Opnd r = temp(MType::None);
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
  return r;
}

// Nat `/` or `%` (`mod`): unsigned; by zero: the primitive's error.
Opnd FnGen::natDivMod(std::vector<Opnd>& ws, bool mod, Label slow) {
  immCheck(ws[0], ws[1], slow);
  Opnd r = temp(MType::None);
  int64_t k = ws[1].kind == Opnd::Imm ? ws[1].imm >> 1 : -1;
  if (k == 0) {
    a_.jmp(slow);
    return r;
  }
  if (mod && k > 0) r.below = 2 * k + 1;           // (the primitive's result too: a Nat below k)
  if (k > 0 && std::has_single_bit(uint64_t(k))) { // shifts, masks
    move(r, ws[0]);
    if (mod)
      a_.and_(r.reg, asmjit::imm(2 * k - 1)); // (the word's bits: 2·(a mod k) + 1)
    else {
      a_.shr(r.reg, std::countr_zero(uint64_t(k)));
      a_.or_(r.reg, 1);
    }
    return r;
  }
  if (k > 0) {
    divByConstant(ws[0], uint64_t(k), mod, r);
    return r;
  }
  {
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
  return r;
}

// x / k or x mod k for the immediate word x and a constant k ≥ 3 (not a
// power of two) into r, by a multiplication (Granlund and Montgomery,
// "Division by invariant integers using multiplication", 1994, theorem 4.2:
// x < 2^63, so m = ⌈2^(63+l) / k⌉ fits in 64 bits and q = ⌊x·m / 2^(63+l)⌋
// needs no correction): `div` takes tens of cycles (`k % 1000` in a loop).
void FnGen::divByConstant(const Opnd& word, uint64_t k, bool mod, const Opnd& r) {
  int l = 64 - std::countl_zero(k - 1); // ⌈log2 k⌉
  auto m = uint64_t((((unsigned __int128)1 << (63 + l)) + k - 1) / k);
  a_.emit(x86::Inst::kIdMov, x86::rax, word.op());
  a_.shr(x86::rax, 1); // x
  a_.mov(r.reg, x86::rax);
  a_.mov(x86::rdx, asmjit::imm(m));
  a_.mul(x86::rdx);
  a_.shr(x86::rdx, l - 1); // q = high(x · m) >> (l - 1)
  if (mod) {
    a_.mov(x86::rax, asmjit::imm(k));
    a_.imul(x86::rdx, x86::rax);
    a_.sub(r.reg, x86::rdx);
    a_.lea(r.reg, x86::ptr(r.reg, r.reg, 0, 1));
  } else {
    a_.lea(r.reg, x86::ptr(x86::rdx, x86::rdx, 0, 1));
  }
}

// A Nat comparison's value (a Bool): `cc` on the values, unsigned.
Opnd FnGen::natCompare(std::vector<Opnd>& ws, x86::CondCode cc, Label slow) {
  immCheck(ws[0], ws[1], slow);
  Opnd r = temp(MType::Bool);
  int known;
  x86::CondCode c = cmpWords(ws[0], ws[1], cc, known);
  if (known)
    a_.mov(r.reg.r32(), known > 0 ? 1 : 0);
  else {
    a_.set(c, r.reg.r8());
    a_.movzx(r.reg.r32(), r.reg.r8());
  }
  return r;
}

// `idx {n} k`: k when k < n, into r; true when it needs no slow path of
// wordPrim's (checked before on this path, or k a home: its own).
bool FnGen::idxOf(ETm* t, std::vector<Opnd>& ws, Label slow, Label done, Opnd& r) {
  if (ws[0].kind == Opnd::Imm &&
      (knownBelow(ws[1], ws[0].imm) || // (checked before)
       (ws[1].below && ws[1].kind != Opnd::Mem && uint64_t(ws[1].below) <= uint64_t(ws[0].imm)))) {
    r = ws[1]; // (`idx {n} (k % n)`: below n, made by a remainder)
    r.below = ws[0].imm;
    return true;
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
    return true;
  }
  r = temp(MType::None);
  move(r, ws[1]);
  if (ws[0].kind == Opnd::Imm) r.below = ws[0].imm; // (the primitive fails, else)
  return false;
}

// `natToF64` of an immediate.
Opnd FnGen::natToF64(std::vector<Opnd>& ws, Label slow) {
  Opnd r = temp(MType::F64);
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
  return r;
}

} // namespace thorin::rt::baseline_gen

// Arrays (fn_gen.hpp): `length`, and `get` in the representation the
// element type implies, with the checks of header, length and index that
// facts and earlier checks leave.
#include "fn_gen.hpp"

#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

// `length {A} {n} arr`: the header's length as a word.
Opnd FnGen::arrLength(ETm* t) {
  Opnd arr = inReg(as(eval(t->args[2]), MType::None));
  Opnd r = temp(MType::None);
  a_.mov(r.reg.r32(), x86::dword_ptr(arr.reg, 4));
  a_.lea(r.reg, x86::ptr(r.reg, r.reg, 0, 1));
  release(arr);
  return r;
}

// The address of element i of `arr` ({A} {n} arr i … in ws) in
// representation `rep`, after the checks of header, length and index that
// facts and earlier checks leave (failing: to `slow`).
x86::Mem FnGen::elemAt(std::vector<Opnd>& ws, OTag rep, Label slow) {
  uint64_t shape = ws[2].shape;
  if (ws[2].kind != Opnd::Reg) ws[2] = copyToTemp(ws[2]);
  if (ws[3].kind == Opnd::Mem || (ws[3].kind == Opnd::Imm && !fits32(4 * ws[3].imm + 4)))
    ws[3] = copyToTemp(ws[3]);
  const Gp& arr = ws[2].reg;
  // The length from the type (`Array 256 A`): compared with the header
  // (or known for a parameter), and the index with it, an immediate —
  // not at all for an index made by `idx` with that length.
  int64_t lenWord = ws[1].kind == Opnd::Imm && (ws[1].imm & 1) && fits32(ws[1].imm) ? ws[1].imm : 0;
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
  return ws[3].kind == Opnd::Reg ? x86::qword_ptr(arr, ws[3].reg, 2, 4)
                                 : x86::qword_ptr(arr, int32_t(4 * ws[3].imm + 4));
}

// `get {A} {n} arr i`.
Opnd FnGen::arrGet(ETm* t, std::vector<Opnd>& ws, Label slow) {
  MType m = elemHint(t);
  OTag rep = m == MType::I64 ? OTag::ArrI64 : m == MType::F64 ? OTag::ArrF64 : OTag::Arr;
  x86::Mem at = elemAt(ws, rep, slow);
  const ParamFact* f = factOf(ws[2]);
  Opnd r = temp(m);
  if (r.isF())
    a_.movsd(r.xmm, at);
  else
    a_.mov(r.reg, at);
  if (f && f->rows && m == MType::None) r.shape = f->rows; // (the slow path's result too)
  return r;
}

// `set {A} {n} arr i x`: in place when nothing else refers to the array
// (runtime/share.hpp) and it has the representation A implies; otherwise
// the primitive, which copies (or fails on the index). The element comes
// as a word: a small I64 or a boxed F64 is stored raw, any other word
// marked shared.
Opnd FnGen::arrSet(ETm* t, std::vector<Opnd>& ws, Label slow) {
  MType m = elemHint(t);
  OTag rep = m == MType::I64 ? OTag::ArrI64 : m == MType::F64 ? OTag::ArrF64 : OTag::Arr;
  x86::Mem at = elemAt(ws, rep, slow);
  const Gp& arr = ws[2].reg;
  a_.test(x86::byte_ptr(arr, -16), int32_t(kArrShared));
  a_.jnz(slow);
  a_.emit(x86::Inst::kIdMov, x86::rax, ws[4].op());
  if (m == MType::I64) {
    a_.test(x86::al, 1); // (a boxed I64 is the primitive's)
    a_.jz(slow);
    a_.sar(x86::rax, 1);
  } else if (m == MType::F64) {
    a_.mov(x86::rax, x86::qword_ptr(x86::rax, 8)); // (the box's bits)
  } else {
    shareWord(ws[4]);
    a_.emit(x86::Inst::kIdMov, x86::rax, ws[4].op());
  }
  a_.mov(x86::qword_ptr(arr, -8), 0); // the shape memo: the element may have another shape
  a_.mov(at, x86::rax);
  Opnd r = temp(MType::None);
  a_.mov(r.reg, arr);
  return r;
}

} // namespace thorin::rt::baseline_gen

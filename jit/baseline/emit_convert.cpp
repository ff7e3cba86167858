// Conversions between value classes (fn_gen.hpp): words box and unbox
// I64, F64 and Bool.
#include "fn_gen.hpp"

#include "runtime/abi.hpp"

namespace thorin::rt::baseline_gen {

// v (consumed) as a value of class m: words box and unbox I64 (immediates
// inline), F64 (a boxed double: its bits, or a new box) and Bool.
Opnd FnGen::as(Opnd v, MType m) {
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
      coldHelper(slow, done, reinterpret_cast<void*>(&thorin_rt_ofI64), {x}, r);
      release(x);
      return r;
    }
    // F64: a new box (a call; a variable's home lives on, saved around it)
    Opnd x = v;
    Saves saved = liveSaves(x.temp ? std::vector<Opnd>{x} : std::vector<Opnd>{});
    save(saved);
    moveF(xmmOpnd(x86::xmm0, false), x);
    release(x);
    a_.mov(x86::rax, addr(&thorin_rt_ofF64));
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
  coldHelper(slow, done, reinterpret_cast<void*>(&thorin_rt_toI64), {w}, r);
  release(w);
  return r;
}

} // namespace thorin::rt::baseline_gen

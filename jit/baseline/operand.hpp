// Operands of the baseline tier's code (codegen.hpp): registers, stack
// slots and immediates, each of a value class; the registers the
// generator uses; where a call's arguments and result go. Private to
// jit/baseline, as are the other headers here but codegen.hpp.
#pragma once
#include <asmjit/x86.h>

#include <cstdint>
#include <vector>

#include "runtime/engine.hpp"

namespace thorin::rt::baseline_gen {

using namespace asmjit;
using x86::Gp;

// A construct the generator does not compile: the function is refused.
// Where it was thrown is printed with THORIN_BASELINE_ASM=1.
struct Unsupported {
  int line = 0;
  const char* file = __builtin_FILE(); // (the file that throws)
};

template <class T> Imm addr(T* p) { return asmjit::imm(reinterpret_cast<intptr_t>(p)); }

// Intermediate values: caller-saved registers that are no argument
// register of a call's own making (rax: results, rdx: division).
inline const Gp kScratch[] = {x86::rcx, x86::rsi, x86::rdi, x86::r8, x86::r9, x86::r10, x86::r11};
// Homes of variables, pushed by the prologue when used.
inline const Gp kSaved[] = {x86::rbx, x86::rbp, x86::r12, x86::r13, x86::r14, x86::r15};
inline const Gp kArgs[] = {x86::rdi, x86::rsi, x86::rdx, x86::rcx, x86::r8, x86::r9};
constexpr size_t kNumScratch = sizeof(kScratch) / sizeof(kScratch[0]);
constexpr size_t kNumSaved = sizeof(kSaved) / sizeof(kSaved[0]);

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
inline Opnd regOpnd(const Gp& r, bool temp, MType cls = MType::I64) {
  Opnd o;
  o.kind = Opnd::Reg;
  o.reg = r;
  o.temp = temp;
  o.cls = cls;
  return o;
}
inline Opnd xmmOpnd(const x86::Xmm& r, bool temp) {
  Opnd o;
  o.kind = Opnd::Reg;
  o.xmm = r;
  o.temp = temp;
  o.cls = MType::F64;
  return o;
}
inline Opnd immOpnd(int64_t v, MType cls = MType::I64) {
  Opnd o;
  o.imm = v;
  o.cls = cls;
  return o;
}
inline Opnd slotOpnd(int32_t off, MType m) {
  Opnd o;
  o.kind = Opnd::Mem;
  o.off = off;
  o.cls = m;
  return o;
}

inline bool fits32(int64_t v) { return v == int64_t(int32_t(v)); }

// An intermediate value read as a variable (a test, an exit arm on new
// values): using it does not release it; its owner does, after.
inline Opnd asVariable(Opnd v) {
  v.temp = false;
  return v;
}

// Where the arguments of a call with these parameter classes go.
inline std::vector<Opnd> argLocations(const std::vector<MType>& params) {
  std::vector<Opnd> at;
  size_t gp = 0, fp = 0;
  for (MType m : params)
    at.push_back(m == MType::F64 ? xmmOpnd(x86::xmm(uint32_t(fp++)), false)
                                 : regOpnd(kArgs[gp++], false, m));
  return at;
}
// Where a value of class m is returned.
inline Opnd resultLocation(MType m) {
  return m == MType::F64 ? xmmOpnd(x86::xmm0, false) : regOpnd(x86::rax, false, m);
}

} // namespace thorin::rt::baseline_gen

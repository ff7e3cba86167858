// Moves between operands of any kind and class, and saves of what is live
// around calls (fn_gen.hpp).
#include "fn_gen.hpp"

namespace thorin::rt::baseline_gen {

// dst ← src, for any two operands of one class (memory to memory through
// rax).
void FnGen::move(const Opnd& dst, const Opnd& src) {
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

void FnGen::moveF(const Opnd& dst, const Opnd& src) {
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

void FnGen::save(const Saves& saves) {
  for (auto& [r, s] : saves)
    move(slotOpnd(s, r.cls), r);
}

void FnGen::restore(const Saves& saves, bool free) {
  for (auto& [r, s] : saves) {
    move(r, slotOpnd(s, r.cls));
    if (free) freeSlot(s);
  }
}

// dsts[i] ← vs[i] at once, dsts registers (a source may be another's
// destination; rax and xmm15 break cycles). F64 first: an F64 literal
// passes through rax.
void FnGen::parallelMove(const std::vector<Opnd>& dsts, std::vector<Opnd> vs) {
  size_t n = vs.size();
  std::vector<bool> done(n, false);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < n; ++i)
      done[i] = dsts[i].isF() != (pass == 0);
    parallelMovePass(dsts, vs, done);
  }
}

void FnGen::parallelMovePass(const std::vector<Opnd>& dsts, std::vector<Opnd>& vs,
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

Opnd FnGen::copyToTemp(const Opnd& v, const Gp* want) {
  Opnd r = temp(v.cls, want);
  move(r, v);
  return r;
}

// An operand an instruction takes: immediates of more than 32 bits in a
// register.
Opnd FnGen::fit(const Opnd& v) {
  return v.kind == Opnd::Imm && !v.isF() && !fits32(v.imm) ? copyToTemp(v) : v;
}

} // namespace thorin::rt::baseline_gen

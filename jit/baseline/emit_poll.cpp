// Polls (fn_gen.hpp): for Ctrl-C and stack overflow at a function's entry
// and at its loops' back edges — and where LLVM's worker has taken over
// the slot, the loop goes on there (on-stack replacement at the loop head).
#include "fn_gen.hpp"

#include "core/guard.hpp"
#include "runtime/abi.hpp"

namespace thorin::rt::baseline_gen {

// `cmp rsp, [gPollLimit]`; below it, the poll, out of line. Intermediate
// values of the loops around are saved there (the poll calls C++). The
// executable is linked at a fixed address below 2 GiB, so the limit is a
// 32-bit absolute operand (else its address is loaded into rax first):
// ackermann(3, 9) 118.6 → 112.1 M instructions, 3–4 % faster.
// At a back edge (`back`), the common case jumps to the loop's body.
void FnGen::pollCheck(Loop& l, bool back) {
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
  coldStart();
  Saves saves = liveSaves({}, true);
  cold_.push_back([this, stub, saves, params = l.params, acc = l.acc, go = l.go, exit = l.exit] {
    pollStub(stub, saves, params, acc, go, exit);
  });
}

// The poll; then back to the loop — or, when the slot holds LLVM's worker
// by now (the compile thread asked for this poll), the loop continues
// there: its value is acc ⊕ f(params).
void FnGen::pollStub(Label stub, const Saves& saves, const std::vector<Opnd>& params,
                     const Opnd& acc, Label go, Label exit) {
  a_.bind(stub);
  save(saves);
  a_.mov(x86::rax, addr(&thorin_rt_poll));
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
  // (homes are no argument registers: plain moves)
  std::vector<Opnd> at = argLocations(sig_.params);
  for (size_t i = 0; i < params.size(); ++i)
    move(at[i], params[i]);
  a_.call(x86::rax);
  if (plan_.accPrim() != UINT32_MAX) binary(plan_.accOp(), x86::rax, acc);
  // (the result is in its location: restoring does not touch rax, xmm0)
  restore(saves, false);
  a_.jmp(exit);
}

} // namespace thorin::rt::baseline_gen

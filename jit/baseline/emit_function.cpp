// A worker's frame (fn_gen.hpp): its prologue, its loop, its epilogue and
// the paths out of line; and the boxed entry that calls the root's worker.
#include "emit_cfi.hpp"
#include "fn_gen.hpp"
#include "runtime/abi.hpp"

namespace thorin::rt::baseline_gen {

FnGen::FnGen(ModuleGen& m, x86::Assembler& a, TopId id, const FrameNeeds* frame, uint32_t maxUnroll)
    : FrameAlloc(frame), m_(m), a_(a), self_(id), sig_(m.sig(id)), body_(m_.rt.erased(id).body->a),
      arity_(m_.rt.erased(id).arity), plan_(id, arity_, body_, sig_, maxUnroll) {
  if (plan_.unroll() == 0) pfacts_ = findEntryFacts(plan_, body_, sig_);
}

void FnGen::emit(BaselineFn& fn) {
  fn.start = a_.offset();
  fn.label = a_.newLabel();
  selfLabel_ = fn.label;
  mergeAt(fn.label);
  // The prologue: push the callee-saved registers the homes use, then
  // make room for the slots (rsp 16-aligned at calls).
  std::vector<Gp> pushed;
  std::vector<size_t> at;
  size_t adjust = 0;
  if (frame_) {
    for (uint32_t i = 0; i < frame_->saved; ++i) {
      a_.push(kSaved[i]);
      pushed.push_back(kSaved[i]);
      at.push_back(a_.offset() - fn.start);
    }
    adjust = 8 * size_t(frame_->slots + frame_->cold);
    if ((8 + 8 * pushed.size() + adjust) % 16) adjust += 8;
    if (adjust) {
      a_.sub(x86::rsp, adjust);
      at.push_back(a_.offset() - fn.start);
    }
  }
  fn.cfa = prologueCfa(pushed, adjust, at);
  Loop l;
  l.depth = 0;
  std::vector<Opnd> args = argLocations(sig_.params);
  for (uint32_t i = 0; i < arity_; ++i) {
    l.params.push_back(newHome(sig_.params[i]));
    move(l.params[i], args[i]);
  }
  loop(l);
  if (adjust) a_.add(x86::rsp, adjust);
  for (size_t i = pushed.size(); i-- > 0;)
    a_.pop(pushed[i]);
  a_.ret();
  for (size_t i = 0; i < cold_.size(); ++i) // (out of line: polls, errors, slow paths)
    cold_[i]();
  fn.end = a_.offset();
  if (outgrew()) throw Unsupported{__LINE__}; // (the second emission must fit the first's frame)
}

// The boxed entry: unboxes the arguments, calls the worker through its
// slot, boxes the result (an I64 as an immediate when it fits: r + 2^62 ≥
// 0; an F64 in a new box).
void entry(ModuleGen& m, x86::Assembler& a, TopId id, BaselineFn& fn) {
  const FnSig& sig = m.sig(id);
  uint32_t arity = uint32_t(sig.params.size());
  fn.start = a.offset();
  fn.label = a.newLabel();
  a.bind(fn.label);
  a.push(x86::rbx);
  std::vector<size_t> at{a.offset() - fn.start};
  a.sub(x86::rsp, 48); // (8 + 8 + 48: 16-aligned)
  at.push_back(a.offset() - fn.start);
  fn.cfa = prologueCfa({x86::rbx}, 48, at);
  a.mov(x86::rbx, x86::rsi);
  for (uint32_t i = 0; i < arity; ++i) {
    a.mov(x86::rdi, x86::ptr(x86::rbx, int32_t(8 * i)));
    if (sig.params[i] == MType::F64) { // (always boxed)
      a.mov(x86::rdi, x86::ptr(x86::rdi, 8));
    } else if (sig.params[i] == MType::I64) {
      Label slow = a.newLabel(), done = a.newLabel();
      a.test(x86::dil, 1);
      a.jz(slow);
      a.sar(x86::rdi, 1);
      a.jmp(done);
      a.bind(slow);
      a.mov(x86::rax, addr(&thorin_rt_toI64));
      a.call(x86::rax);
      a.mov(x86::rdi, x86::rax);
      a.bind(done);
    }
    a.mov(x86::qword_ptr(x86::rsp, int32_t(8 * i)), x86::rdi);
  }
  std::vector<Opnd> args = argLocations(sig.params);
  for (uint32_t i = 0; i < arity; ++i)
    if (args[i].isF())
      a.movsd(args[i].xmm, x86::qword_ptr(x86::rsp, int32_t(8 * i)));
    else
      a.mov(args[i].reg, x86::qword_ptr(x86::rsp, int32_t(8 * i)));
  a.mov(x86::rax, addr(m.slotOf(id)));
  a.call(x86::ptr(x86::rax));
  Label slow = a.newLabel(), done = a.newLabel();
  if (sig.result == MType::F64) {
    a.mov(x86::rax, addr(&thorin_rt_ofF64));
    a.call(x86::rax);
  } else if (sig.result == MType::I64) {
    a.mov(x86::rcx, asmjit::imm(int64_t(1) << 62));
    a.add(x86::rcx, x86::rax);
    a.js(slow);
    a.lea(x86::rax, x86::ptr(x86::rax, x86::rax, 0, 1));
  }
  a.bind(done);
  a.add(x86::rsp, 48);
  a.pop(x86::rbx);
  a.ret();
  a.bind(slow);
  a.mov(x86::rdi, x86::rax);
  a.mov(x86::rax, addr(&thorin_rt_ofI64));
  a.call(x86::rax);
  a.jmp(done);
  fn.end = a.offset();
}

} // namespace thorin::rt::baseline_gen

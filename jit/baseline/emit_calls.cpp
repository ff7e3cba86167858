// Calls (fn_gen.hpp): of workers through their slots, of functions
// without baseline code through the runtime, of C++ helpers and of
// primitives' run-time implementations (out of line, on words).
#include "fn_gen.hpp"

#include "runtime/abi.hpp"
#include "runtime/primitive.hpp"

namespace thorin::rt::baseline_gen {

// An application's value into the result location of its class (which
// it returns): a copy of the function (a nested loop) or a call.
MType FnGen::callInto(ETm* t) {
  if (t->a->tag != ETag::Global) throw Unsupported{__LINE__};
  TopId g = t->a->n;
  if (m_.rt.erased(g).arity != t->n) throw Unsupported{__LINE__};
  if (g == self_ && loops_.back()->depth < plan_.unroll()) {
    nested(t);
    return sig_.result;
  }
  if (g != self_ && !m_.direct(g)) {
    callRuntime(g, t);
    return MType::None;
  }
  return call(g, t);
}

// A call of a function without baseline code, through the runtime (its
// compiled entry, or the interpreter): arguments and result are words.
void FnGen::callRuntime(TopId g, ETm* t) {
  callOnWords(t, [&](int32_t base) {
    a_.mov(x86::edi, g);
    a_.lea(x86::rsi, x86::qword_ptr(x86::rsp, base));
    a_.mov(x86::rax, addr(&thorin_rt_call_global));
    a_.call(x86::rax);
  });
}

// A call of C++ that takes t's arguments as an array of words (in fresh
// slots at `base`): `call(base)` sets its other arguments and calls, with
// what is live saved around it. The result is in rax.
void FnGen::callOnWords(ETm* t, const std::function<void(int32_t)>& call) {
  std::vector<Opnd> ws = words(t);
  int32_t base = newSlots(t->n);
  for (uint32_t i = 0; i < t->n; ++i)
    move(slotOpnd(base + int32_t(8 * i), MType::None), ws[i]);
  releaseAll(ws);
  Saves saves = liveSaves({});
  save(saves);
  call(base);
  restore(saves);
  for (uint32_t i = 0; i < t->n; ++i)
    freeSlot(base + int32_t(8 * i));
}

// result ← fn(args…), C++ taking general arguments (words, I64, pointers
// as immediates); what is live is saved around it.
Opnd FnGen::callC(void* fn, const std::vector<Opnd>& args) {
  std::vector<Opnd> temps;
  for (auto& x : args)
    if (x.kind == Opnd::Reg && x.temp) temps.push_back(x);
  Saves saves = liveSaves(temps);
  save(saves);
  releaseAll(args);
  std::vector<Opnd> dsts;
  for (size_t i = 0; i < args.size(); ++i)
    dsts.push_back(regOpnd(kArgs[i], false));
  parallelMove(dsts, args);
  a_.mov(x86::rax, asmjit::imm(reinterpret_cast<intptr_t>(fn)));
  a_.call(x86::rax);
  restore(saves);
  Opnd r = temp(MType::None);
  move(r, regOpnd(x86::rax, false, MType::None));
  return r;
}

// A call through a slot; its value ends in the result location of the
// callee's result class, which it returns.
MType FnGen::call(TopId g, ETm* t) {
  std::atomic<void*>* slot = m_.slotOf(g);
  const FnSig sig = g == self_ ? sig_ : m_.sig(g);
  std::vector<Opnd> vs(t->n);
  // Arguments that call something first, when the others cannot fail: an
  // argument computed before a call would be saved around it.
  bool reorder = true;
  for (uint32_t i = 0; i < t->n; ++i)
    if (!callsAnything(t->args[i]) && !total(t->args[i])) reorder = false;
  std::vector<uint32_t> order;
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t i = 0; i < t->n; ++i)
      if (!reorder || callsAnything(t->args[i]) == (pass == 0))
        if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
  std::vector<Opnd> at = argLocations(sig.params);
  for (uint32_t i : order) {
    const Gp* want = at[i].isF() ? nullptr : &at[i].reg;
    vs[i] = as(eval(t->args[i], want), sig.params[i]);
  }
  std::vector<Opnd> temps;
  for (auto& v : vs)
    if (v.kind == Opnd::Reg && v.temp) temps.push_back(v);
  Saves saved = liveSaves(temps);
  save(saved);
  for (auto& v : vs)
    release(v);
  parallelMove(at, vs);
  if (g == self_) { // (its entry's poll moves on to LLVM's code when that is ready)
    a_.call(selfLabel_);
  } else {
    a_.mov(x86::rax, addr(slot));
    a_.call(x86::ptr(x86::rax));
  }
  restore(saved);
  return sig.result;
}

// Out of line at `from`: result ← fn(args…) (C++, words or I64 in
// general registers), with what is live saved; then back to `to`.
void FnGen::coldHelper(Label from, Label to, void* fn, std::vector<Opnd> args, Opnd result) {
  coldStart();
  Saves saves = liveSaves({result}, true);
  cold_.push_back([this, from, to, fn, args, result, saves] {
    a_.bind(from);
    save(saves);
    for (size_t i = 0; i < args.size(); ++i) // (args are registers or slots, not rdi…)
      move(regOpnd(kArgs[i], false), args[i]);
    a_.mov(x86::rax, asmjit::imm(reinterpret_cast<intptr_t>(fn)));
    a_.call(x86::rax);
    restore(saves, false);
    move(result, resultLocation(result.cls));
    a_.jmp(to);
  });
}

// prim(args at [rsp + base], span).
void FnGen::primFnCall(uint32_t prim, uint32_t span, int32_t base) {
  a_.lea(x86::rdi, x86::qword_ptr(x86::rsp, base));
  a_.mov(x86::esi, span);
  a_.mov(x86::rax, addr(primById(prim).fn));
  a_.call(x86::rax);
}

// Out of line: the words into the argument array, what is live saved,
// the call.
void FnGen::primCallCode(uint32_t prim, uint32_t span, const std::vector<Opnd>& words, int32_t base,
                         const Saves& saves) {
  for (size_t i = 0; i < words.size(); ++i)
    move(slotOpnd(base + int32_t(8 * i), MType::None), words[i]);
  save(saves);
  primFnCall(prim, span, base);
}

Opnd FnGen::primCall(ETm* t) {
  callOnWords(t, [&](int32_t base) { primFnCall(t->prim, t->span, base); });
  Opnd r = temp(MType::None);
  move(r, regOpnd(x86::rax, false, MType::None));
  return as(r, primById(t->prim).result);
}

void FnGen::coldPrim(ETm* t, const std::vector<Opnd>& words, const Opnd& result,
                     const PrimSlow& s) {
  coldStart();
  int32_t base = coldSlots(t->n);
  Saves saves = liveSaves({result}, true);
  uint32_t prim = t->prim, span = t->span;
  cold_.push_back([this, prim, span, words, base, saves, result, s] {
    a_.bind(s.from);
    primCallCode(prim, span, words, base, saves);
    if (s.discard) {
      restore(saves, false);
    } else if (s.branch) {
      restore(saves, false); // (not rax)
      a_.cmp(x86::rax, 3);
      a_.j(s.when ? x86::CondCode::kE : x86::CondCode::kNE, s.target);
    } else if (result.isF()) { // (a boxed F64)
      a_.movsd(result.xmm, x86::qword_ptr(x86::rax, 8));
    } else if (result.cls == MType::Bool) {
      a_.cmp(x86::rax, 3);
      a_.sete(result.reg.r8());
      a_.movzx(result.reg.r32(), result.reg.r8());
    } else if (result.cls == MType::I64) { // (a raw element's type: boxed when big)
      Label small = a_.newLabel();
      a_.mov(result.reg, x86::rax);
      a_.sar(result.reg, 1);
      a_.test(x86::al, 1);
      a_.jnz(small);
      a_.mov(x86::rdi, x86::rax);
      a_.mov(x86::rax, addr(&thorin_rt_toI64));
      a_.call(x86::rax);
      a_.mov(result.reg, x86::rax);
      a_.bind(small);
    } else {
      move(result, regOpnd(x86::rax, false, MType::None));
    }
    if (!s.branch && !s.discard) restore(saves, false); // (not the result: excepted)
    a_.jmp(s.to);
  });
}

} // namespace thorin::rt::baseline_gen

// Recursion unrolled (fn_gen.hpp): a call of the function itself that is
// no tail call is a copy of the function, a loop nested where it is.
#include "fn_gen.hpp"

namespace thorin::rt::baseline_gen {

// A self-call that is no loop: a copy of the function, a loop nested
// here; its value ends in rax (copies are made of functions on I64).
void FnGen::nested(ETm* call) {
  Loop l;
  l.depth = loops_.back()->depth + 1;
  // Each argument straight into its new home (no argument reads one).
  for (uint32_t i = 0; i < call->n; ++i) {
    l.params.push_back(newHome(MType::I64));
    ETm* x = call->args[i];
    l.from.push_back(x->tag == ETag::Var && x->n < env_.size() ? env_[env_.size() - 1 - x->n]
                                                               : Opnd{});
  }
  // A first test with a small exit arm is made on the arguments, before
  // they go to the homes: the exit (fib's leaves, half its calls) then
  // writes no home (and, the accumulator being the identity, reads none).
  int exitWhen = -1;
  if (body_->tag == ETag::If && simpleTest(body_->a)) {
    std::vector<Opnd> outer = std::exchange(env_, l.params); // (as loop() sees it)
    if (atEntry(l, body_->a) < 0) exitWhen = smallExit(body_->b) ? 1 : smallExit(body_->c) ? 0 : -1;
    env_ = std::move(outer);
  }
  Label skip = a_.newLabel();
  if (exitWhen >= 0) {
    std::vector<Opnd> args, vars;
    for (uint32_t i = 0; i < call->n; ++i) {
      args.push_back(as(eval(call->args[i]), MType::I64));
      vars.push_back(asVariable(args.back()));
    }
    std::vector<Opnd> outer = std::exchange(env_, vars);
    Label go = a_.newLabel();
    branch(body_->a, exitWhen != 1, go);
    ETm* exit = exitWhen == 1 ? body_->b : body_->c;
    if (!arithInto(exit, x86::rax)) {
      Opnd v = as(eval(exit), MType::I64);
      move(resultLocation(MType::I64), v);
      release(v);
    }
    a_.jmp(skip);
    env_ = std::move(outer);
    mergeAt(go);
    for (uint32_t i = 0; i < call->n; ++i) {
      move(l.params[i], args[i]);
      release(args[i]);
    }
    l.enterArm = 1 - exitWhen;
  } else {
    for (uint32_t i = 0; i < call->n; ++i) {
      if (l.params[i].kind == Opnd::Reg && arithInto(call->args[i], l.params[i].reg)) continue;
      Opnd v = as(eval(call->args[i]), MType::I64);
      move(l.params[i], v);
      release(v);
    }
  }
  loop(l);
  mergeAt(skip);
  for (auto& h : l.params)
    freeHome(h);
}

} // namespace thorin::rt::baseline_gen

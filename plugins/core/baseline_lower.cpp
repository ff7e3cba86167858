// Baseline lowerings of the core plugin's I64 and Bool axioms (asmjit), for
// the baseline tier (jit/baseline.cpp). Same semantics as the LLVM ones
// (lower.cpp): I64 wraps; division checks for zero and wraps INT64_MIN / -1.
#include "baseline_lower.hpp"
#include "core_plugin.hpp"

namespace thorin::plugins {
namespace {

using namespace asmjit;
using rt::BaselineCx;
using Gp = x86::Gp;

// out = a0 OP a1 (a two-operand instruction).
template <x86::Inst::Id Op> void binary(BaselineCx& c, const Gp& out, const Operand* a) {
  c.cc.mov(out, a[0].as<Gp>());
  c.cc.emit(Op, out, a[1]);
}
Gp reg(x86::Compiler& cc, const Operand& o) {
  if (o.isReg()) return o.as<Gp>();
  Gp r = cc.newInt64();
  cc.mov(r, o.as<Imm>());
  return r;
}

// if (y == 0) fail; y == -1: the wrapping negation (idiv would trap on
// INT64_MIN / -1), remainder 0; else idiv.
template <bool Mod> void div(BaselineCx& c, const Gp& out, const Operand* a) {
  x86::Compiler& cc = c.cc;
  Gp x = a[0].as<Gp>(), y = reg(cc, a[1]);
  Label nonzero = cc.newLabel(), general = cc.newLabel(), done = cc.newLabel();
  cc.test(y, y);
  cc.jnz(nonzero);
  c.fail(Mod ? "remainder by zero" : "division by zero");
  cc.bind(nonzero);
  cc.cmp(y, -1);
  cc.jne(general);
  if (Mod) {
    cc.xor_(out, out);
  } else {
    cc.mov(out, x);
    cc.neg(out);
  }
  cc.jmp(done);
  cc.bind(general);
  Gp lo = cc.newInt64(), hi = cc.newInt64();
  cc.mov(lo, x);
  cc.cqo(hi, lo);
  cc.idiv(hi, lo, y);
  cc.mov(out, Mod ? hi : lo);
  cc.bind(done);
}

} // namespace

void registerCoreBaselineLowerings() {
  using CC = x86::CondCode;
  auto reg = rt::registerBaselineLowering;
  reg("%core.i64.add", binary<x86::Inst::kIdAdd>);
  reg("%core.i64.sub", binary<x86::Inst::kIdSub>);
  reg("%core.i64.mul", binary<x86::Inst::kIdImul>);
  reg("%core.i64.div", div<false>);
  reg("%core.i64.mod", div<true>);
  auto cmp = rt::registerBaselineCompare;
  cmp("%core.i64.eq", CC::kE);
  cmp("%core.i64.ne", CC::kNE);
  cmp("%core.i64.lt", CC::kL);
  cmp("%core.i64.le", CC::kLE);
  cmp("%core.i64.gt", CC::kG);
  cmp("%core.i64.ge", CC::kGE);
  cmp("%core.bool.eq", CC::kE);
  cmp("%core.bool.ne", CC::kNE);
}

} // namespace thorin::plugins

// Baseline lowerings of the core plugin's I64 and Bool axioms (asmjit), for
// the baseline tier (jit/baseline.cpp). Same semantics as the LLVM ones
// (lower.cpp): I64 wraps; division checks for zero and wraps INT64_MIN / -1.
#include "baseline_lower.hpp"
#include "core_plugin.hpp"
#include "rt.hpp"

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

// Division and remainder call these. (An inline idiv, with its fixed
// registers rdx:rax, gave a wrong remainder in one program of the random
// differential test, not understood yet; idiv costs more than the call.)
int64_t divI64(int64_t x, int64_t y, uint32_t span) {
  if (y == 0) rt::fail("division by zero", span);
  return y == -1 ? int64_t(0 - uint64_t(x)) : x / y; // (INT64_MIN / -1 wraps)
}
int64_t modI64(int64_t x, int64_t y, uint32_t span) {
  if (y == 0) rt::fail("remainder by zero", span);
  return y == -1 ? 0 : x % y;
}

template <bool Mod> void div(BaselineCx& c, const Gp& out, const Operand* a) {
  x86::Compiler& cc = c.cc;
  Gp y = reg(cc, a[1]), span = cc.newUInt32();
  cc.mov(span, c.span);
  FuncSignatureBuilder sig(CallConvId::kHost);
  sig.setRetT<int64_t>();
  sig.addArgT<int64_t>();
  sig.addArgT<int64_t>();
  sig.addArgT<uint32_t>();
  InvokeNode* call;
  cc.invoke(&call, asmjit::imm(reinterpret_cast<intptr_t>(Mod ? &modI64 : &divI64)), sig);
  call->setArg(0, a[0].as<Gp>());
  call->setArg(1, y);
  call->setArg(2, span);
  call->setRet(0, out);
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
  rt::registerBaselineMonoid("%core.i64.add", 0); // (both wrap: still associative)
  rt::registerBaselineMonoid("%core.i64.mul", 1);
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

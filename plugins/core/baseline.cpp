// Baseline lowerings of the core plugin's I64, Bool and F64 axioms and of its
// fast paths on words (Nat, Idx, arrays), for the
// baseline tier (jit/baseline_gen.cpp). Same semantics as the LLVM ones
// (lower.cpp) and the interpreter's (runtime.cpp): I64 wraps; division and
// remainder by zero are run-time errors, INT64_MIN / -1 wraps.
#include <string>

#include "jit/baseline/baseline_lowering.hpp"
#include "core_plugin.hpp"
#include "runtime/heap.hpp"

namespace thorin::plugins {
namespace {

void divisionByZero(uint32_t span) { rt::fail("division by zero", span); }
void remainderByZero(uint32_t span) { rt::fail("remainder by zero", span); }

} // namespace

void registerCoreBaselineLowerings() {
  using CC = asmjit::x86::CondCode;
  using Op = rt::BaselineOp;
  auto reg = [](const std::string& axiom, Op op, CC cc = CC::kE,
                void (*byZero)(uint32_t) = nullptr) {
    rt::registerBaselineLowering(axiom, rt::BaselineLowering{op, cc, byZero});
  };
  reg("%core.i64.add", Op::Add);
  reg("%core.i64.sub", Op::Sub);
  reg("%core.i64.mul", Op::Mul);
  reg("%core.i64.div", Op::Div, CC::kE, divisionByZero);
  reg("%core.i64.mod", Op::Mod, CC::kE, remainderByZero);
  rt::registerBaselineMonoid("%core.i64.add", 0); // (both wrap: still associative)
  rt::registerBaselineMonoid("%core.i64.mul", 1);
  // Comparisons: signed on I64, the ordered predicate on F64 (kNE: unordered,
  // see BaselineOp::FCompare), unsigned on Nat immediates.
  struct Cmp {
    const char* name;
    CC i64, nat;
  };
  for (const Cmp& c : {Cmp{"eq", CC::kE, CC::kE}, Cmp{"ne", CC::kNE, CC::kNE},
                       Cmp{"lt", CC::kL, CC::kB}, Cmp{"le", CC::kLE, CC::kBE},
                       Cmp{"gt", CC::kG, CC::kA}, Cmp{"ge", CC::kGE, CC::kAE}}) {
    reg(std::string("%core.i64.") + c.name, Op::Compare, c.i64);
    reg(std::string("%core.f64.") + c.name, Op::FCompare, c.i64);
    reg(std::string("%core.nat.") + c.name, Op::NatCompare, c.nat);
  }
  reg("%core.bool.eq", Op::Compare, CC::kE);
  reg("%core.bool.ne", Op::Compare, CC::kNE);
  reg("%core.f64.add", Op::FAdd);
  reg("%core.f64.sub", Op::FSub);
  reg("%core.f64.mul", Op::FMul);
  reg("%core.f64.div", Op::FDiv);
  reg("%core.f64.sqrt", Op::FSqrt);
  reg("%core.conv.i64ToF64", Op::I64ToF64);
  reg("%core.nat.add", Op::NatAdd);
  reg("%core.nat.sub", Op::NatSub);
  reg("%core.nat.mul", Op::NatMul);
  reg("%core.nat.div", Op::NatDiv);
  reg("%core.nat.mod", Op::NatMod);
  reg("%core.conv.natToF64", Op::NatToF64);
  reg("%core.idx.of", Op::IdxOf);
  reg("%core.idx.toNat", Op::IdxToNat);
  reg("%core.arr.get", Op::ArrGet);
  reg("%core.arr.length", Op::ArrLength);
}

} // namespace thorin::plugins

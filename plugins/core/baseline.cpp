// Baseline lowerings of the core plugin's I64, Bool and F64 axioms and of its
// fast paths on words (Nat, Idx, arrays), for the
// baseline tier (jit/baseline/). Same semantics as the LLVM ones
// (llvm.cpp) and the interpreter's (prims.cpp): I64 wraps; division and
// remainder by zero are run-time errors, INT64_MIN / -1 wraps.
#include <string>

#include "core_axioms.hpp"
#include "jit/baseline/baseline_lowering.hpp"
#include "runtime/heap.hpp"

namespace thorin::plug::core {
namespace {

void divisionByZero(uint32_t span) { rt::fail("division by zero", span); }
void remainderByZero(uint32_t span) { rt::fail("remainder by zero", span); }

} // namespace

void baseline() {
  using CC = asmjit::x86::CondCode;
  using Op = rt::BaselineOp;
  auto reg = [](ax a, Op op, CC cc = CC::kE, void (*byZero)(uint32_t) = nullptr) {
    rt::registerBaselineLowering(id(a), rt::BaselineLowering{op, cc, byZero});
  };
  reg(ax::i64_add, Op::Add);
  reg(ax::i64_sub, Op::Sub);
  reg(ax::i64_mul, Op::Mul);
  reg(ax::i64_div, Op::Div, CC::kE, divisionByZero);
  reg(ax::i64_mod, Op::Mod, CC::kE, remainderByZero);
  // Comparisons: signed on I64, the ordered predicate on F64 (kNE: unordered,
  // see BaselineOp::FCompare), unsigned on Nat immediates.
  struct Cmp {
    ax i64, f64, nat;
    CC signedCC, unsignedCC;
  };
  for (const Cmp& c : {Cmp{ax::i64_eq, ax::f64_eq, ax::nat_eq, CC::kE, CC::kE},
                       Cmp{ax::i64_ne, ax::f64_ne, ax::nat_ne, CC::kNE, CC::kNE},
                       Cmp{ax::i64_lt, ax::f64_lt, ax::nat_lt, CC::kL, CC::kB},
                       Cmp{ax::i64_le, ax::f64_le, ax::nat_le, CC::kLE, CC::kBE},
                       Cmp{ax::i64_gt, ax::f64_gt, ax::nat_gt, CC::kG, CC::kA},
                       Cmp{ax::i64_ge, ax::f64_ge, ax::nat_ge, CC::kGE, CC::kAE}}) {
    reg(c.i64, Op::Compare, c.signedCC);
    reg(c.f64, Op::FCompare, c.signedCC);
    reg(c.nat, Op::NatCompare, c.unsignedCC);
  }
  reg(ax::bool_eq, Op::Compare, CC::kE);
  reg(ax::bool_ne, Op::Compare, CC::kNE);
  reg(ax::f64_add, Op::FAdd);
  reg(ax::f64_sub, Op::FSub);
  reg(ax::f64_mul, Op::FMul);
  reg(ax::f64_div, Op::FDiv);
  reg(ax::f64_sqrt, Op::FSqrt);
  reg(ax::conv_i64ToF64, Op::I64ToF64);
  reg(ax::nat_add, Op::NatAdd);
  reg(ax::nat_sub, Op::NatSub);
  reg(ax::nat_mul, Op::NatMul);
  reg(ax::nat_div, Op::NatDiv);
  reg(ax::nat_mod, Op::NatMod);
  reg(ax::conv_natToF64, Op::NatToF64);
  reg(ax::idx_of, Op::IdxOf);
  reg(ax::idx_toNat, Op::IdxToNat);
  reg(ax::arr_get, Op::ArrGet);
  reg(ax::arr_length, Op::ArrLength);
  reg(ax::arr_set, Op::ArrSet);
}

} // namespace thorin::plug::core

// Baseline lowerings of axioms: which machine operation the baseline tier
// (jit/baseline/ (codegen.cpp and the emit_*.cpp files)) emits for a machine-typed axiom,
// registered per axiom name by the plugin that owns it, as the LLVM lowerings are
// (jit/llvm/llvm_lowering.hpp). The plugin names the operation and its corner cases; the
// tier selects instructions and registers.
#pragma once
#include <asmjit/x86.h>

#include <cstdint>
#include <string_view>

#include "core/axiom.hpp"

namespace thorin::rt {

/// Operations on I64 (two's complement, wrapping) and Bool (0/1) values,
/// on F64, and fast paths on words (Nat and Idx immediates, arrays) whose
/// other cases call the primitive's run-time implementation.
enum class BaselineOp : uint8_t {
  Add,
  Sub,
  Mul,
  Div,     // truncating; x / -1 wraps (INT64_MIN / -1 = INT64_MIN)
  Mod,     // the remainder of Div (sign of x); x % -1 = 0
  Compare, // 0 or 1: `cmp a, b`, then condition `cc` holds
  // F64 (IEEE, as C): `cc` of FCompare is the ordered predicate (kL: <,
  // kE: ==), except kNE, which is unordered (NaN != NaN).
  FAdd,
  FSub,
  FMul,
  FDiv,
  FSqrt,
  FCompare,
  I64ToF64,
  // Words. Nat immediates are 2k+1 (k < 2^62), as are Idx values; the fast
  // path takes immediates, the primitive the rest (big Nats, errors).
  NatAdd,
  NatSub, // truncating at 0
  NatMul,
  NatDiv, // by zero: the primitive's error
  NatMod,
  NatCompare, // `cc` on the values (unsigned)
  NatToF64,
  IdxOf,     // {n} k: k when k < n
  IdxToNat,  // {n} i: i
  ArrGet,    // {A} {n} arr i: the representation A implies
  ArrLength, // {A} {n} arr
  ArrSet,    // {A} {n} arr i x: in place when unshared
};

struct BaselineLowering {
  BaselineOp op;
  asmjit::x86::CondCode cc = asmjit::x86::CondCode::kE; // Compare
  /// Div, Mod: reports a zero divisor (a located run-time error; does not
  /// return).
  void (*byZero)(uint32_t span) = nullptr;
};

void registerBaselineLowering(AxiomId axiom, BaselineLowering l);
const BaselineLowering* findBaselineLowering(AxiomId axiom);

/// An associative and commutative operation with a unit on I64 (its
/// algebraic facts, core/axiom.hpp: I64 `+` with 0, `*` with 1): a function
/// whose tail is `e ⊕ f(…)`, a call of itself, becomes a loop that
/// accumulates the `e`s (gcc's and LLVM's tail recursion elimination with an
/// accumulator).
bool findBaselineMonoid(AxiomId axiom, int64_t& identity);

} // namespace thorin::rt

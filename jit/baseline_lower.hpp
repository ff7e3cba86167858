// Baseline lowerings of axioms: how the baseline tier (jit/baseline.cpp)
// emits a machine-typed axiom with asmjit, registered per axiom name by the
// plugin that owns it, as the LLVM lowerings are (jit/lower.hpp).
#pragma once
#include <asmjit/x86.h>

#include <string_view>

namespace thorin::rt {

struct BaselineCx {
  asmjit::x86::Compiler& cc;
  uint32_t span; // for run-time errors (rt::fail)
};
/// Computes the axiom on `args` (I64 values, or Bool as 0/1) into `out`.
/// The first argument is a register; the others are registers or, for
/// literals that fit in 32 bits, immediates.
using BaselineLowering = void (*)(BaselineCx& cx, const asmjit::x86::Gp& out,
                                  const asmjit::Operand* args);

void registerBaselineLowering(std::string_view axiom, BaselineLowering l);
BaselineLowering findBaselineLowering(std::string_view axiom);

/// An associative operation with an identity (I64 `+` with 0, `*` with 1):
/// a function whose tail is `e ⊕ f(…)`, a call of itself, becomes a loop
/// that accumulates the `e`s (gcc's and LLVM's tail recursion elimination
/// with an accumulator). Associativity alone keeps the order of the operands.
void registerBaselineMonoid(std::string_view axiom, int64_t identity);
bool findBaselineMonoid(std::string_view axiom, int64_t& identity);

/// A comparison of two arguments: `cmp a, b` then condition `cc` holds
/// (a conditional branches on it directly; a value is 0 or 1).
void registerBaselineCompare(std::string_view axiom, asmjit::x86::CondCode cc);
bool findBaselineCompare(std::string_view axiom, asmjit::x86::CondCode& cc);

} // namespace thorin::rt

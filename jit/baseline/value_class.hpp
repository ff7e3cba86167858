// Value classes of the baseline tier: each value of an erased body is
// computed in a class — I64 or Bool (0/1) in a general register, F64 in an
// xmm register, or a word (MType::None: Nat and Idx immediates, pointers
// to arrays…) — and workers' signatures are classes. Pure analyses of
// erased terms: nothing here emits code.
#pragma once
#include <cstdint>
#include <vector>

#include "baseline_lowering.hpp"
#include "runtime/engine.hpp"

namespace thorin::rt::baseline_gen {

struct ModuleGen;

// A worker's signature: the class of each parameter and of the result
// (MType::None: a word). SysV's convention: words, I64 in general argument
// registers, F64 in xmm ones; the result in rax or xmm0 — as LLVM's worker
// for the same function, which may take over the slot.
struct FnSig {
  std::vector<MType> params;
  MType result = MType::None;
};

inline bool intOp(BaselineOp op) { return op <= BaselineOp::Compare; }
inline bool floatOp(BaselineOp op) { return op >= BaselineOp::FAdd && op <= BaselineOp::I64ToF64; }
// The machine type `get {A}` reads when A is a literal type.
MType elemHint(ETm* t);
// A Nat or Idx k as a word: the immediate 2k + 1.
inline int64_t wordOf(int64_t k) { return int64_t(uint64_t(k) << 1 | 1); }
// An I64 or Bool literal's value.
int64_t literal(ETm* t);
// The class of a literal's value: I64, Bool and F64 are machine values;
// Nat and Idx immediates, strings… are words.
MType literalClass(ETm* t);
// The class t's value is computed in (before any conversion). `env`: the
// classes of the variables in scope (the innermost last); `self`, `sig`:
// the function being generated; `mod` says which callees have workers.
MType valueClass(ETm* t, std::vector<MType>& env, ModuleGen& mod, TopId self, const FnSig& sig);

} // namespace thorin::rt::baseline_gen

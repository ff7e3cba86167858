// The builtin axioms core code must recognise, by role: the type of a
// numeric literal, the `Bool` of `if`, `+` on Nat in unification... (MimIR's
// `Axm::isa<core::nat::add>` in miniature). Core names no plugin: the plugin
// that provides builtin data says which of its axioms plays which role
// (plugins/core/normalizers.cpp), and core asks the axiom table for the id.
#pragma once
#include <cstdint>

namespace thorin {

enum class Builtin : uint8_t {
  Nat,     // arbitrary-precision naturals: untyped literals, `Idx n`'s n
  Bool,    // conditions of `if`, `&&`, `||`, filters; comparison results
  Unit,    // a program's `main : Unit` prints nothing
  I64,     // negative literals
  F64,     // literals with a point or an exponent
  String,  // string literals
  Idx,     // `Idx n`: index literals
  Array,   // array literals
  True,    // `c || x` is `if c then true else x`
  False,   // `c && x` is `if c then x else false`
  NatAdd,  // `n + k` in unification (n + 1 ≟ m + 1)
  NatElim, // its inversion in unification
  IdxOf,   // index literals: `idx.of {n} k`
  ArrGet,  // the specializer reads elements of known arrays
  ArrLength,
  IO,     // `IO A`: a program's `main : IO Unit` is run; `do` blocks
  IOPure, // `pure`, `bind`: what `do` blocks elaborate to
  IOBind,
  Count
};

/// The role's name, for messages ("Nat").
inline const char* builtinName(Builtin b) {
  static constexpr const char* kNames[] = {
      "Nat",  "Bool",  "Unit",     "I64",     "F64",    "String",  "Idx",       "Array",
      "true", "false", "+ on Nat", "natElim", "idx.of", "arr.get", "arr.length", "IO",
      "pure", "bind"};
  static_assert(sizeof kNames / sizeof *kNames == size_t(Builtin::Count));
  return kNames[size_t(b)];
}

} // namespace thorin

// In-place updates: which reads of a variable may leave a second reference
// to its value behind (Perceus's "dup", as one sticky bit).
//
// An array starts unshared: one reference. `set` updates an unshared array
// in place, and copies a shared one. It becomes shared (arrFlags,
// kArrShared) when a second reference to it may be used later:
//  - a read of a variable that may be followed by another use of the same
//    variable in the same activation marks the value (a Var without the
//    kNoShare flag, decided here on the erased body that the tiers run);
//  - storing it into an object marks it: a pair, an array, a closure's
//    environment (captured variables), a partial application, a neutral
//    value, a cached top-level value (the runtime's constructors, and the
//    tiers where they fill objects themselves).
// Reads that only look (the array of `get`, `length`, arithmetic) are
// borrowed: they mark nothing, even when the variable is used again.
#pragma once
#include "erase.hpp"
#include "heap.hpp"

namespace thorin::rt {

/// ETm::flags on a Var: reading it needs not mark its value shared. (Set by
/// markShares; a read without it marks, so a body never analysed is slower,
/// never wrong.)
constexpr uint8_t kNoShare = 1;
/// ETm::flags on a Lam: `captures` is known.
constexpr uint8_t kCapturesKnown = 2;

/// Sets kShares on the reads of variables in `body` (a top-level body, a
/// λ-group or a term to run) that are not their variable's last use, and
/// gives each λ its captured variables (ETm::captures, in `arena`).
void markShares(ETm* body, Arena& arena);

} // namespace thorin::rt

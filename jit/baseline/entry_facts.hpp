// Entry facts of the baseline tier: what a function's loop may assume of
// its parameters once its entry has checked them. Pure analysis of the
// erased body: the checks themselves are emitted by emit_facts.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "loop_plan.hpp"
#include "runtime/engine.hpp"
#include "value_class.hpp"

namespace thorin::rt::baseline_gen {

// A word parameter that Nat operations take is an immediate; an array
// parameter read by `get` at a literal element type and length, passed
// unchanged around the loop, has that representation and length. The
// function's loop is emitted twice: a version that knows these facts
// (checked at the entry, and for new values at back edges) and skips the
// checks they make, and the plain one, where it goes when they fail.
struct ParamFact {
  bool imm = false;   // an immediate (Nat)
  bool arr = false;   // an array of representation `rep` and `len` elements
  bool noArr = false; // (reads that disagree, or the parameter changes)
  int64_t below = 0;  // an index word below this (`Idx n` read from arrays of n)
  OTag rep = OTag::Arr;
  uint32_t len = 0;
  // An array (of words) whose elements are arrays read by `get` at a
  // literal element type and length: their shape, checked once per
  // array at the entry (arrElemsShaped; remembered in the array).
  uint64_t rows = 0;
  bool noRows = false;
};

// The facts of each parameter of the function's body (for the parameters
// of its loop, which has no copies).
std::vector<ParamFact> findEntryFacts(const LoopPlan& plan, ETm* body, const FnSig& sig);
// Is anything known of a parameter?
bool anyFact(const std::vector<ParamFact>& facts);

} // namespace thorin::rt::baseline_gen

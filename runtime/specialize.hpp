// The specializer: online partial evaluation of erased terms, steered by
// partial-evaluation filters, the way Impala/Thorin does it (Leißa's thesis,
// ch. 10–11; the MimIR paper, §3.3).
//
// A function or λ may carry a filter — `pow @(?n) : I64 → Nat → I64` — a
// Bool over its parameters, where `?x` holds when the argument x is
// statically known (a literal, a closed data structure or function). At a
// call whose filter evaluates to true, the callee is unfolded with the static
// arguments in place ("lambda mangling": the static parameters are dropped);
// inside, evaluation goes on where values are static — constants fold through
// the plugins' normalizers, conditionals on known conditions disappear,
// filtered calls unfold again — and residual code is left where they are not.
// Specializations are memoized by (function, static arguments): a recursive
// call with the same static arguments calls the specialization being built,
// which ties static recursion into a loop; a small non-recursive one is
// inlined. Fuel, a nesting limit and a code budget stop runaway unfolding
// with a warning naming the call; the call then stays unspecialized.
//
// Residual functions are globals of the runtime (ids from kSpecBase), run by
// the interpreter and compiled by the JIT like any hot function.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "erase.hpp"

namespace thorin::rt {

class Runtime;

class Specializer {
public:
  struct Limits {
    uint32_t fuel = 5000;      // unfoldings per specialization run
    uint32_t nesting = 400;    // specializations under construction at once
    uint32_t budget = 200000;  // residual code nodes per run
    uint32_t inlineSize = 400; // a non-recursive specialization up to this size is inlined
  };
  explicit Specializer(Runtime& rt);
  Specializer(Runtime& rt, Limits limits);
  ~Specializer();
  /// `t` — a definition's erased body (a λ: its parameters are dynamic) or a
  /// closed program — with the calls whose filter holds specialized. `used`
  /// gets the specializations the result calls.
  ETm* function(ETm* t, std::vector<TopId>& used);
  /// The residual code of `id` applied to `args` (nullptr: a dynamic
  /// argument, which becomes a parameter) — what `:residual` prints.
  ETm* residual(TopId id, const std::vector<ETm*>& args);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Prints erased or residual code (`:residual`).
std::string showETm(Runtime& rt, ETm* t);

} // namespace thorin::rt

// What the elaborator asks of the program around it, and nothing else: core/
// knows no runtime, no JIT and no plugin library. The runtime (runtime/)
// implements Runner; the plugin loader (plugins/loader.hpp) implements
// PluginHost; the executable gives both to the elaborator (Options).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "axiom.hpp"
#include "syntax.hpp"
#include "world.hpp"

namespace thorin {

/// Runs closed programs (`.eval`, `thorin run`): the runtime evaluator and
/// the JIT live outside core/ (runtime/, jit/) and plug in here.
class Runner {
public:
  virtual ~Runner() = default;
  /// Evaluates the closed, elaborated term `t : ty`; returns its printed value
  /// (a String as its bare text when `bare`, as a program's output).
  /// Throws Error (located at `where` or inside `t`) on a run-time error.
  virtual std::string run(World& w, Tm* t, Val* ty, Span where, bool bare = false) = 0;
  /// The definition `id` was shadowed by a new one: drop its compiled code.
  virtual void invalidate(World& w, TopId id) = 0;
  /// A new world: it asks this runner from now on (World::runner).
  virtual void attach(World& w) { w.runner = this; }
  /// `:residual`: the residual code of `id` applied to `args` (closed terms;
  /// nullptr for a dynamic argument) after specialization.
  virtual std::string residual(World& w, TopId id, const std::vector<Tm*>& args) = 0;
  /// The normal form of the closed term `t : ty` computed by running code,
  /// or nullptr to leave it to the evaluator (`normalize`).
  virtual Tm* normalize(World&, Arena&, Tm*, Val*) { return nullptr; }

  // What evaluation and unification ask of the world's runner:
  /// A closed call of a function on builtin data (all arguments literals),
  /// computed by running code (compiled once it is hot) instead of
  /// unfolding it step by step: a literal, or nullptr to unfold.
  virtual Val* closedCall(World&, TopId, Val* const*, uint32_t) { return nullptr; }
  /// Are the closed terms a and b (of the same type) convertible, decided by
  /// running them? true: yes; false: not known — the evaluator decides, and
  /// explains a failure.
  virtual bool convertByRunning(World&, Tm*, Tm*) { return false; }
  /// Top-level entries from `first` on are about to be rolled back (their
  /// ids will be reused): forget what was derived from them.
  virtual void onRollback(World&, TopId) {}
  /// The memory this runner holds for `w` that only a new world gives back
  /// (erased terms): a reload counts it when it decides on a fresh world.
  virtual size_t bytesUsed(const World&) const { return 0; }
};

/// What `.plugin NAME` needs: NAME found on the plugin path and its
/// library's code registered (once per process: code outlives worlds).
struct PluginLoad {
  std::string file;            // NAME.thorin, to elaborate into the world
  std::vector<AxiomId> axioms; // the axioms its library has code for
};

class PluginHost {
public:
  virtual ~PluginHost() = default;
  /// Finds and registers the plugin `name`. Throws Error (unlocated: the
  /// caller locates it at the directive) naming what was looked for and
  /// where when it cannot: no such plugin, a library without the
  /// descriptor, an ABI mismatch, a library that does not load.
  virtual PluginLoad load(std::string_view name) = 0;
};

} // namespace thorin

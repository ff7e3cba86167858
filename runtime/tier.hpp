// The one interface of a JIT tier: the baseline tier (jit/baseline/, code in
// microseconds) and the LLVM tier (jit/llvm/, optimized code, compiled in the
// background) both implement it. The engine (engine.hpp) decides what runs
// where; a tier only compiles, installs and removes code. The runtime
// includes no tier: the program that makes a Runtime gives it its tiers.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/term.hpp"
#include "heap.hpp"

namespace thorin::rt {

class Runtime;
struct ETm;

class Tier {
public:
  virtual ~Tier() = default;
  /// Compiles `id` (and what it needs) now; returns its entry, or nullptr
  /// (nothing compiled; a tier that cannot compile it at all says why in a
  /// one-line warning).
  virtual Code compile(Runtime& rt, TopId id) = 0;
  /// Starts compiling `id` on a background thread (the caller keeps
  /// running it as before). False if not started: `failed` says whether it
  /// never will be (after a warning), else it may be asked again later.
  /// `slot`: where baseline code calls id's worker; the compile thread
  /// stores the optimized worker there as soon as it is ready.
  virtual bool startCompile(Runtime& rt, TopId id, bool& failed,
                            std::atomic<void*>* slot = nullptr) {
    failed = false;
    (void)rt, (void)id, (void)slot;
    return false;
  }
  /// Has a background compilation finished since the last settle()? (One
  /// atomic load: asked at every interpreted call.)
  virtual bool anyFinished() const { return false; }
  /// Installs the finished background compilations (all started ones if
  /// `wait`), calling `installed` with each one's entry (nullptr: it failed,
  /// after a warning).
  virtual void settle(Runtime& rt, bool wait, const std::function<void(TopId, Code)>& installed) {
    (void)rt, (void)wait, (void)installed;
  }
  /// Removes the compiled code of `ids` (and, for a tier whose code calls
  /// other code directly, of whatever calls theirs).
  virtual void remove(Runtime& rt, const std::vector<TopId>& ids) = 0;
  /// Removes all of its code (the world was replaced: ids changed meaning).
  virtual void clear(Runtime& rt) { (void)rt; }
  /// Where calls of `id`'s worker go, for a tier whose callers go through
  /// slots (nullptr: `id` has no code here).
  virtual std::atomic<void*>* slot(TopId id) {
    (void)id;
    return nullptr;
  }
  /// Is `c` an entry of this tier's code?
  virtual bool owns(Code c) const {
    (void)c;
    return false;
  }
  /// The optimized IR of a compiled definition ("" if none): `:llvm`.
  virtual std::string ir(TopId id) {
    (void)id;
    return "";
  }
  /// Starts the tier's compiler in the background (`thorin run`: elaboration
  /// hides the latency). Its warm-up is skipped once `wanted` is set.
  virtual void prepare(const std::atomic<bool>* wanted = nullptr) { (void)wanted; }
  /// prepare() without the warm-up: the code is expected from the code cache.
  virtual void preload() { prepare(); }
  /// The erased λ whose compiled code `code` is (an inner λ of compiled
  /// code), or nullptr.
  virtual const ETm* lambdaOf(Code code) {
    (void)code;
    return nullptr;
  }
};

} // namespace thorin::rt

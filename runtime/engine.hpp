// The runtime: runs closed programs for `.eval`, `:eval` and `thorin run` on
// erased terms, in the interpreter (tier 0 for programs) or in code compiled
// by the JIT (tier 1) once a top-level function is hot. Implements core's
// Runner interface, so core/ stays free of the JIT.
#pragma once
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cell_table.hpp"
#include "core/toplevel.hpp"
#include "erase.hpp"
#include "gc.hpp"
#include "machine_stack.hpp"
#include "tier.hpp"

namespace thorin::rt {

enum class JitMode { Off, Lazy, Eager };

struct JitOptions {
  JitMode mode = JitMode::Lazy;
  // Calls before a function is compiled (--jit-threshold). Measured: from 64
  // to 1024 hot workloads run equally fast, while 2 compiles functions that
  // small scripts call twice (+30–40 ms); see bench/RESULTS.md.
  uint64_t threshold = 100;
  bool stats = false; // print one line per compiled function to stderr
  // Lazy mode: compile on a background thread while the interpreter goes on
  // (--jit-sync: on the calling thread, which waits; for reproducible tests).
  bool background = true;
  // At the end of each run, wait for the background compilations (the
  // REPL); otherwise they carry over to later runs.
  bool finishRuns = false;
  // Tier 1a: hot first-order functions get baseline code at once while LLVM
  // compiles (lazy mode, in the background). `--jit=baseline`: no LLVM.
  bool baseline = true;
  bool llvm = true;
  // Directory of LLVM's code kept between runs (jit/llvm/code_cache.hpp);
  // empty: none. Only `thorin run` sets it.
  std::string codeCache;
};

/// What the runtime knows about one top-level definition (or specialization).
struct Global {
  ETm* body = nullptr;   // erased definition, specialized (nullptr: not erased yet)
  ETm* source = nullptr; // erased definition as written (what specialization unfolds)
  uint32_t arity = 0;    // leading λs of the erased definition
  bool erasedDone = false;
  std::vector<TopId> specsUsed; // specializations `body` calls
  uint64_t calls = 0;
  // Per-run cache of a constant's value (or of the closure of a function).
  uint64_t epoch = 0;
  V value = 0;
  bool computing = false; // a constant whose value is being computed
  // Tier 1.
  Code compiled = nullptr;    // uniform entry (boxed arguments)
  bool tierUp = false;        // runs baseline code; LLVM's is still to be asked for
  bool compiling = false;     // being compiled in the background
  std::vector<TopId> callees; // top-level functions its body calls (once calleesKnown)
  bool calleesKnown = false;
  bool compileFailed = false;
  bool noSpeculate = false; // its speculation failed once (a Deopt): compiled without
  bool optimized = false;   // `compiled` is LLVM's code (not baseline code)
  double compileMs = 0;
  bool fromCodeCache = false; // its LLVM code was compiled by an earlier run
  int8_t tooLarge = -1;       // body over kMaxCompiledNodes (-1: not counted yet)
  // Does `body` make closures (which may keep its environment alive)?
  const ETm* capturesFor = nullptr; // the body it was found for
  bool captures = true;
  MachineSig sig; // decided at erasure: code generation never looks at types
};

/// Specializations are globals too, numbered from here (TopIds stay below).
constexpr TopId kSpecBase = 0x40000000;
inline bool isSpec(TopId id) { return id >= kSpecBase; }

/// A specialization: `origin` with some arguments static (jit/specialize.cpp).
struct SpecInfo {
  TopId origin = 0;
  bool lifted =
      false;        // a hot inner λ lifted out of origin (runtime/lift.cpp), not a specialization
  std::string args; // the arguments as written by :spec, `_` for dynamic ones
  std::string key;  // origin and static arguments (the memo key)
  std::vector<bool> isStatic; // per parameter of origin's λ group
  std::vector<TopId> deps;    // top-level definitions unfolded into it
  uint32_t size = 0;          // nodes of its residual code
  bool dropped = false;
};

/// Closures of interpreted λs (runtime/interp.cpp), and of lifted ones (runtime/lift.cpp).
V lamEntry(Closure* self, const V* args);
V liftedEntry(Closure* self, const V* args);

/// A hot λ's compiled copy: global `id` takes the λ's free variables (the
/// environment entries at `free`, ascending) before the λ's own parameters.
struct Lifted {
  TopId id;
  uint32_t gen;
  std::vector<uint32_t> free;
  /// Its specialization was dropped (a copy of SpecInfo::dropped, next to
  /// what every call of the λ reads).
  bool dropped = false;
};

class Runtime : public Runner {
public:
  Runtime(JitOptions o, std::ostream& err);
  ~Runtime() override;
  /// The process's runtime (the last one made): what closure entries,
  /// safepoints and the helpers compiled code calls work on.
  static Runtime* current();

  std::string run(World& w, Tm* t, Val* ty, Span where, bool bare = false) override;
  void invalidate(World& w, TopId id) override;
  /// Makes `w` the world the runtime's state (globals, compiled code, names)
  /// refers to: after `:load` replaced the world, nothing compiled for the
  /// old one applies (queries such as :jit must not look into it).
  void enter(World& w) { useWorld(w); }
  std::string residual(World& w, TopId id, const std::vector<Tm*>& args) override;
  /// Entries from `first` on are rolled back: drop what was derived from them.
  void forgetFrom(World& w, TopId first);
  /// Runner::closedCall: a call of a function on builtin data, on literals.
  Val* closedCall(World& w, TopId id, Val* const* args, uint32_t n) override;
  void onRollback(World& w, TopId first) override { forgetFrom(w, first); }
  bool convertByRunning(World& w, Tm* a, Tm* b) override { return convertible(w, a, b); }
  /// Erased terms (of every run in `w` so far; none for a world not entered yet).
  size_t bytesUsed(const World& w) const override { return &w == w_ ? arena_.used() : 0; }

  World& world() { return *w_; }
  Arena& arena() { return arena_; }
  // (Inline: every call of a compiled lifted λ and every interpreted call
  // looks its global up.)
  Global& global(TopId id) {
    if (isSpec(id)) return specs_[id - kSpecBase];
    if (id < globals.size()) [[likely]]
      return globals[id];
    return grownGlobal(id);
  }
  Global& grownGlobal(TopId id);
  /// `fib`, or `pow@(_ 3)` for a specialization.
  std::string nameOf(TopId id);
  /// Machine types along `id`'s type (a specialization: its origin's, without
  /// the static parameters).
  MachineSig machineSig(TopId id);
  MachineSig liftedSig(TopId id);
  /// Registers a specialization; its body is a closed λ (or a constant).
  TopId addSpec(SpecInfo info, ETm* body);
  SpecInfo& spec(TopId id) { return specInfo_[id - kSpecBase]; }
  size_t specCount() const { return specInfo_.size(); }
  TopId* findSpec(const std::string& key);
  /// Is this erased term worth specializing (does it call a function with a
  /// filter, or contain a λ with one)?
  bool mentionsFilter(ETm* t);
  /// The erased definition of a top-level entry (erasing it on first use).
  Global& erased(TopId id);
  /// Is its erased body too large for LLVM (whose time grows faster than
  /// the code: a 10,000-branch conditional took 11 s)? It stays interpreted.
  bool tooLargeToCompile(TopId id);
  /// The value of a top-level entry in the current run.
  V globalValue(TopId id);
  /// A postulate's value: a function fails when called; data (a number, a
  /// string, an array, a pair) is a run-time error at once; anything else
  /// (a proof that is not a function) is erased.
  V postulateValue(TopId id);
  /// Calls top-level function `id` with exactly its arity of arguments.
  V callGlobal(TopId id, const V* args);
  /// Counts a call of `id` (compiling it when hot). If it is compiled, runs
  /// it into `result` and returns null; otherwise returns the environment of
  /// its parameters, for its body to be interpreted.
  struct IEnv* enterGlobal(TopId id, const V* args, V* result);
  /// Counts a call; compiles the function when it becomes hot. Installs
  /// what background compilations have finished.
  void noteCall(TopId id);
  /// Compiles `id` now (after installing all background compilations).
  bool compile(TopId id);
  /// Installs finished background compilations; all of them if `wait`
  /// (before compiled code is removed, and at the end of each run).
  void settleJit(bool wait);
  /// After a Deopt: `d.owner` is compiled without speculation from now on,
  /// and all compiled code is dropped (it may contain copies of the owner's);
  /// the caller runs again.
  void deoptimize(const Deopt& d);
  /// Runs `f`, again after each deoptimization (each definition deoptimizes
  /// at most once, so this ends).
  template <class F> auto retryingDeopts(F&& f) {
    for (;;) {
      try {
        return f();
      } catch (Deopt& d) {
        deoptimize(d);
      }
    }
  }

  /// A closure of the interpreted λ `lam` (environment `env`) is called:
  /// counts the call and, once the λ is hot, runs its compiled lifted copy
  /// instead (true: `r` is the result). See runtime/lift.cpp.
  bool callLifted(Closure* self, const V* args, V& r);
  const Lifted* liftedOf(ETm* lam);
  Code liftedCode(const Lifted& l, LamState& s);
  /// Interprets `lam`'s body on `args` in `env` (a closure of it called).
  V enterLam(ETm* lam, struct IEnv* env, const V* args);

  /// `frame`: the top-level function whose frame `env` is, when this call
  /// owns it (its cells are reused by the frame's tail calls).
  V eval(ETm* t, struct IEnv* env, TopId frame = kNoFrame);
  static constexpr TopId kNoFrame = ~TopId(0);
  /// The erased λ a closure runs (its arity and parameters' names), or
  /// nullptr when unknown.
  const ETm* lambdaOf(const Closure* c);
  /// The normal form of a closed term of type `ty`, computed by running it
  /// (interpreted or compiled) with neutral values for bound variables and
  /// read back (runtime/readback.cpp); nullptr when the term is outside what
  /// this handles (then the evaluator of core/ normalizes it).
  Tm* normalize(World& w, Arena& out, Tm* t, Val* ty) override;
  /// Runner::convertByRunning (readback.cpp).
  bool convertible(World& w, Tm* a, Tm* b);

private:
  /// The frame shared by normal forms and conversions by running code
  /// (runtime/readback.cpp): `terms` erased and checked, one heap run within
  /// `time` and the heap and stack budgets, `run` given the erased terms.
  /// false: left to the evaluator, said with --jit-stats as
  /// "jit: <what> left to the evaluator (why)"; true: "jit: <what> <done>".
  bool byRunningCode(World& w, const char* what, const char* done, std::chrono::milliseconds time,
                     const std::vector<Tm*>& terms,
                     const std::function<void(const std::vector<ETm*>&)>& run);

public:
  JitOptions opts;
  /// Tier 1b, optimized code (jit/llvm/), null with --jit=off; tier 1a,
  /// baseline code while LLVM compiles (jit/baseline/), or null. Given by
  /// the program that makes the runtime (the runtime includes no tier).
  std::unique_ptr<Tier> backend;
  std::unique_ptr<Tier> baseline;
  /// Does this configuration use a baseline tier? (Lazy mode, in the
  /// background or without LLVM: with --jit-sync LLVM's code is ready at once.)
  bool wantsBaseline() const;
  /// Installs the baseline tier (before the first run).
  void setBaseline(std::unique_ptr<Tier> t);
  std::ostream& err;
  std::vector<Global> globals;

private:
  CellTable cells_;

public:
  /// Bumped by each run, reload and installation of code (the cells say
  /// which epoch their value and entry belong to).
  uint64_t& epoch = cells_.epoch();
  /// `id`'s cell (made on first use, on the thread that runs programs):
  /// definitions at even indices, specializations at odd ones.
  GlobalCell& cell(TopId id) {
    return cells_.at(isSpec(id) ? 2 * size_t(id - kSpecBase) + 1 : 2 * size_t(id));
  }
  /// The values cached in `globals` in this run: roots for the collector
  /// (Global::value lives in memory it does not read).
  gc::RootedVector<V> keptValues;
  /// A run starts (the collector scans this thread's stack) or ends.
  void runStarts() { gc::attachThread(); }
  void runEnds() {
    resetHeap();
    keptValues.clear();
    kont_.release();
    vals_.release();
  }
  bool hadError = false; // a run-time error happened (exit status 2)
  /// Effects run (thorin run, the REPL); false for `thorin check`: an IO
  /// action given to `.eval` is then shown as such, not run.
  bool runsEffects = true;
  /// `exit n` ends the process (thorin run) instead of the run (the REPL,
  /// --watch): called with n after output is flushed.
  void (*exitProcess)(int status) = nullptr;
  /// May compiled code speculate (and deoptimize)? Not once an IO program
  /// has run: a deoptimization restarts a run, and a run of effects cannot
  /// start again (the continuations it holds would be stale code).
  bool speculation() const { return speculation_.load(std::memory_order_relaxed); }
  /// A program is running (read by the file watcher's thread).
  std::atomic<bool> runningProgram{false};

private:
  std::string show(V v, Val* ty);
  void showInto(std::string& out, V v, Val* ty);
  void showData(std::string& out, V v, Val* ty);
  bool showAtom_ = false; // showData: the value is an argument (parenthesize it)
  void requestCompile(TopId id);
  void installCompiled(TopId id, Code c);
  /// Gives `id` baseline code if it can have it; true if it runs it now.
  bool installBaseline(TopId id);
  /// Compiles with LLVM, now, the functions that run baseline code and
  /// still wait for LLVM to start (the REPL: `:jit` then shows a settled state).
  void finishTierUps();
  std::chrono::steady_clock::time_point baselineSince_{}; // the first baseline code
  bool tierUpWake_ = false;                               // a safepoint scheduled for tier-ups
  /// Removes compiled code: `ids` and what was compiled against them, and
  /// all baseline code (its slots may point to removed code).
  void removeCode(const std::vector<TopId>& ids);
  /// The globals and specializations that have compiled code.
  std::vector<TopId> compiledIds() const;
  size_t jobs_ = 0;          // background compilations not yet installed
  bool compiledAny_ = false; // (the first compilation is not in the background)
  std::atomic<bool> speculation_{true};
  /// From now on no code speculates: code that may is dropped.
  void stopSpeculating();
  /// Runs the IO action `v` (effects.hpp), its result shown by `ty` = IO A.
  std::string runEffects(V v, Val* ty, bool bare);
  /// Asks LLVM for the functions that run baseline code, once that has
  /// gone on for kTierUpDelay (called at safepoints, and at interpreted calls
  /// of such functions).

public:
  void tierUp();
  /// Has LLVM's tier compiled anything (or linked it from the code cache)?
  bool optimizedAny() const { return compiledAny_; }

private:
  /// Settles the JIT when a run ends, however it ends.
  struct SettleAtEnd {
    Runtime& rt;
    ~SettleAtEnd() {
      try {
        if (rt.opts.finishRuns) {
          rt.settleJit(true);
          rt.finishTierUps();
        }
      } catch (...) {
      }
    }
  };
  void dropSpecs(const std::vector<TopId>& ids);
  /// Lifts the hot λ `lam` (closed over `env`) into a specialization-like
  /// global taking its free variables first, and asks for it to be compiled
  /// — `early`: only if it gets baseline code (else when it is hotter).
  void lift(ETm* lam, struct IEnv* env, bool early);
  TopId originOf(const ETm* lam);
  // The definition each erased λ is in (originOf), for the bodies indexed
  // so far: scanning every body per lifted λ made lifting quadratic.
  std::unordered_map<const ETm*, TopId> originByLam_;
  std::unordered_set<const ETm*> originIndexed_;
  std::deque<Lifted> lifted_;
  uint32_t liftGen_ = 1; // bumped when specializations are dropped: lifted copies are stale
  std::deque<Global> specs_;
  /// Each definition and specialization (lifted λs among them).
  template <class F> void forEachId(F f) {
    for (TopId id = 0; id < globals.size(); ++id)
      f(id);
    for (size_t i = 0; i < specs_.size(); ++i)
      f(kSpecBase + TopId(i));
  }
  std::deque<SpecInfo> specInfo_;
  std::unordered_map<std::string, TopId> specByKey_;
  std::unordered_map<Code, TopId> entryOwner_; // compiled entries → their definition
  void useWorld(World& w);
  bool running_ = false; // a run is under way (its heap must not be reset)
  /// One run on the heap: a new epoch while it lasts, the heap dropped after.
  struct HeapRun {
    explicit HeapRun(Runtime& r) : rt(r) {
      ++rt.epoch;
      rt.running_ = true;
      rt.runStarts();
    }
    ~HeapRun() {
      rt.running_ = false;
      rt.runEnds();
    }
    HeapRun(const HeapRun&) = delete;
    Runtime& rt;
  };
  World* w_ = nullptr;
  Arena arena_{1 << 16}; // erased terms
  /// The interpreter's stacks (eval): continuations, and the values of
  /// arguments gathered so far. Roots for the collector.
  struct Kont {
    ETm* t;
    struct IEnv* env;
    uint32_t kind;
    uint32_t i;
    uint64_t pad = 0; // (32 bytes: the stack's size is a shift, not a division)
  };
  MachineStack<Kont> kont_;
  MachineStack<V> vals_;
  struct Machine;
  enum class Phase { Eval, Ret, Args };
  Phase evalTerm(Machine& m);
  Phase resume(Machine& m);
  Phase evalArgs(Machine& m);
  Phase call(Machine& m);
  bool directCall(ETm* t);
  V construct(ETm* t, const V* at);
  static V fieldOf(ETm* t, V v);
};

struct IEnv {
  IEnv* prev;
  V v;
};

} // namespace thorin::rt

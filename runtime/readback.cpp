// Normal forms by running code (`:n`, `.nf`, `[nftime]`), as Coq's
// vm_compute does with accumulators: the term is erased and run by the
// runtime — the interpreter, and compiled code once functions are hot — with
// bound variables as neutral values (rt::NeuObj) that application and
// projection extend. The result is read back into a core term: a function is
// applied to fresh variables and its result read back under the λs.
//
// Only the λ-calculus part is handled: a term (or a definition it reaches)
// that uses a primitive, a literal, an `if` or an array, or a function with
// machine-typed parameters, would meet a neutral value where a machine value
// is expected; such terms, and results that contain erased types, are left to
// the evaluator of core/ (normalize() returns nullptr). The read-back term is
// the evaluator's normal form: λs keep their own parameter names (from the
// erased λ), implicitness comes from the type, and variables are the same
// de Bruijn indices.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/eval.hpp"
#include "core/guard.hpp"
#include "engine.hpp"
#include "share.hpp"

namespace thorin::rt {
namespace {

// Outside what running code can normalize: the evaluator takes over.
struct Bail {
  const char* why;
};

// The run is strict where the evaluator is lazy (an unused argument that
// loops, a huge value nobody looks at): it gets a deadline, a heap cap and a
// smaller stack, past which the evaluator takes over. A watchdog thread (one,
// started on first use, armed per run) trips the poll limit at the deadline,
// so that compiled loops notice too.
class Watchdog {
public:
  static Watchdog& get() {
    static Watchdog* w = new Watchdog; // (never destroyed: its thread outlives main's return)
    return *w;
  }
  void arm(std::chrono::steady_clock::time_point deadline) {
    std::lock_guard<std::mutex> lock(m_);
    deadline_ = deadline;
    armed_ = true;
    cv_.notify_one();
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(m_);
    armed_ = false;
    gBudgetTripped.store(false);
  }

private:
  Watchdog() {
    std::thread([this] {
      std::unique_lock<std::mutex> lock(m_);
      while (true) {
        if (!armed_) {
          cv_.wait(lock);
        } else if (cv_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ &&
                   std::chrono::steady_clock::now() >= deadline_) {
          gBudgetTripped.store(true);
          gPollLimit = reinterpret_cast<char*>(~uintptr_t(0));
          armed_ = false;
        }
      }
    }).detach();
  }
  std::mutex m_;
  std::condition_variable cv_;
  bool armed_ = false;
  std::chrono::steady_clock::time_point deadline_;
};

class Budget {
public:
  Budget(std::chrono::milliseconds time, size_t heapBytes, size_t stackBytes) {
    setHeapCap(heapBytes);
    // A smaller stack too: a runaway recursion must fail fast, and unwinding
    // gigabytes of frames would take longer than the evaluator needs.
    char probe;
    savedStackLimit_ = gStackLimit;
    uintptr_t sp = reinterpret_cast<uintptr_t>(&probe),
              limit = reinterpret_cast<uintptr_t>(gStackLimit);
    if (sp - limit > stackBytes) gStackLimit = reinterpret_cast<char*>(sp - stackBytes);
    if (!gInterrupt.load()) gPollLimit = gStackLimit;
    Watchdog::get().arm(std::chrono::steady_clock::now() + time);
  }
  ~Budget() {
    Watchdog::get().disarm();
    setHeapCap(0);
    gStackLimit = savedStackLimit_;
    if (!gInterrupt.load()) gPollLimit = gStackLimit;
  }
  Budget(const Budget&) = delete;

private:
  char* savedStackLimit_;
};
constexpr std::chrono::milliseconds kTimeBudget{10000};
// (The normal form of a depth-23 Church tree needs ~500 MB of neutral
// applications: the cap must leave real terms room, and still stop a runaway
// value within seconds.)
constexpr size_t kHeapBudget = size_t(1536) << 20;
constexpr size_t kStackBudget = size_t(16) << 20;
// A conversion by running code has already cost the evaluator its budget of
// steps; past this, the evaluator decides after all (a strict run may
// compute a huge normal form the evaluator never needs to see).
constexpr std::chrono::milliseconds kConvertTimeBudget{4000};

class Purity {
public:
  explicit Purity(Runtime& rt) : rt_(rt) {}
  const char* why = nullptr; // what makes the term impure
  bool term(const ETm* t) {
    guard();
    switch (t->tag) {
    case ETag::Prim:
    case ETag::PrimPap:
    case ETag::If:
    case ETag::Lit:
    case ETag::Arr:
    case ETag::Known: why = "the term uses builtin data"; return false;
    case ETag::Con:
    case ETag::Field:
    case ETag::Case: why = "the term uses data types"; return false;
    case ETag::Global: return global(t->n);
    case ETag::Lam: return term(t->a); // (its filter is never run)
    default: break;
    }
    bool ok = true;
    forEachChild(const_cast<ETm*>(t), 0, [&](ETm* c, uint32_t) { ok = ok && term(c); });
    return ok;
  }

private:
  bool global(TopId id) {
    if (!seen_.insert(id).second) return true; // (recursion: checked once)
    Global& g = isSpec(id) ? rt_.global(id) : rt_.erased(id);
    if (!g.body) { // a postulate: no code to run
      why = "the term uses a postulate";
      return false;
    }
    // A worker would unbox a neutral argument as a machine value.
    if (!isSpec(id)) {
      MachineSig sig = rt_.machineSig(id);
      bool machine = sig.result != MType::None;
      for (MType m : sig.params)
        machine |= m != MType::None;
      if (machine) {
        why = "the term uses builtin data";
        return false;
      }
    }
    ETm* body = g.body;
    for (TopId s : std::vector<TopId>(g.specsUsed))
      if (!global(s)) return false;
    return term(body);
  }
  Runtime& rt_;
  std::unordered_set<TopId> seen_;
};

class Readback {
public:
  Readback(Runtime& rt, World& w, Arena& out) : rt_(rt), w_(w), out_(out) {}

  /// The normal form of run-time value `v` of type `ty`, under `l` binders.
  /// The last argument of an application is read in a loop, not by
  /// recursion: `s (s (s …))` a million deep takes no stack.
  Tm* read(V v, Val* ty, Lvl l) {
    Tm* result = nullptr;
    Tm** slot = &result;
    while (hasHeader(v) && obj(v)->tag == OTag::Neutral &&
           (neuKind(obj(v)) == NeuKind::App || neuKind(obj(v)) == NeuKind::VarApp)) {
      guard();
      auto* o = static_cast<NeuObj*>(obj(v));
      Val* fty;
      Tm* t = application(o, l, fty);
      *slot = t;
      slot = &t->b;
      v = neuArg(o);
      ty = fty->a;
    }
    *slot = readOne(v, ty, l);
    return result;
  }

private:
  Tm* readOne(V v, Val* ty, Lvl l) {
    guard();
    if (!hasHeader(v)) throw Bail{"data the read-back does not know"};
    Obj* o = obj(v);
    if (o->tag == OTag::Neutral) return neutral(v, l).first;
    ty = forceAll(w_, ty);
    if (o->tag == OTag::Closure || o->tag == OTag::Pap) return function(v, ty, l);
    if (o->tag == OTag::Pair) {
      if (ty->tag != VTag::Sigma) throw Bail{"a pair whose type is not a Σ"};
      auto* p = static_cast<PairObj*>(o);
      Tm* t = mkTm(out_, TTag::Pair);
      t->a = read(p->a, ty->a, l);
      t->b = read(p->b, instantiate(ty, t->a, l), l);
      return t;
    }
    throw Bail{o->tag == OTag::Erased ? "types in the result" : "data the read-back does not know"};
  }

  // A closure of arity k, or a partial application with k parameters left:
  // applied to k fresh variables, read back under k λs.
  Tm* function(V f, Val* ty, Lvl l) {
    uint32_t given = 0;
    V fn = f;
    while (obj(fn)->tag == OTag::Pap) {
      auto* p = static_cast<Pap*>(obj(fn));
      given += p->n;
      fn = p->fn;
    }
    if (isImm(fn) || obj(fn)->tag != OTag::Closure)
      throw Bail{"a function the read-back does not know"};
    auto* c = static_cast<Closure*>(obj(fn));
    const ETm* lam = rt_.lambdaOf(c);
    if (!lam || lam->n != c->arity || given >= c->arity || !lam->names)
      throw Bail{"a function whose parameters are unknown"};
    uint32_t k = c->arity - given;
    // (On the stack, which the collector scans; a long list in a RootedVector.)
    V small[16];
    gc::RootedVector<V> big(k > 16 ? k : 0);
    V* vars = k > 16 ? big.data() : small;
    std::vector<Icit> icits(k);
    for (uint32_t i = 0; i < k; ++i) {
      ty = forceAll(w_, ty);
      if (ty->tag != VTag::Pi) throw Bail{"a function whose type is not a Π"};
      icits[i] = ty->icit;
      types_.resize(l + i + 1);
      types_[l + i] = ty->a;
      vars[i] = mkNeuVar(l + i);
      ty = apply(w_, ty, w_.var(l + i));
    }
    Tm* body = read(rt::apply(f, k, vars), ty, l + k);
    for (uint32_t i = k; i-- > 0;) {
      Tm* t = mkTm(out_, TTag::Lam);
      t->name = lam->names[given + i];
      t->icit = icits[i];
      t->a = body;
      body = t;
    }
    return body;
  }

  // The application neutral `o` without its argument (t->b is to be filled),
  // and the type of its function part (a Π).
  Tm* application(NeuObj* o, Lvl l, Val*& fty) {
    auto [f, ft] =
        neuKind(o) == NeuKind::VarApp ? variable(neuVarAppLevel(o), l) : neutral(o->a, l);
    fty = forceAll(w_, ft);
    if (fty->tag != VTag::Pi) throw Bail{"an application of a non-function"};
    Tm* t = mkTm(out_, TTag::App);
    t->a = f;
    t->icit = fty->icit;
    return t;
  }

  // The variable of level x: its term and its type.
  std::pair<Tm*, Val*> variable(Lvl x, Lvl l) {
    if (x >= l || x >= types_.size()) throw Bail{"a variable out of scope"};
    Tm* t = mkTm(out_, TTag::Var);
    t->n = l - x - 1;
    return {t, types_[x]};
  }

  // A neutral value: its term and its type.
  std::pair<Tm*, Val*> neutral(V v, Lvl l) {
    guard();
    auto* o = static_cast<NeuObj*>(obj(v));
    switch (neuKind(o)) {
    case NeuKind::Var: return variable(Lvl(o->a), l);
    case NeuKind::App:
    case NeuKind::VarApp: {
      Val* fty;
      Tm* t = application(o, l, fty);
      t->b = read(neuArg(o), fty->a, l);
      return {t, instantiate(fty, t->b, l)};
    }
    case NeuKind::Proj1:
    case NeuKind::Proj2: {
      auto [p, pty] = neutral(o->a, l);
      pty = forceAll(w_, pty);
      if (pty->tag != VTag::Sigma) throw Bail{"a projection of a non-Σ"};
      Tm* t1 = mkTm(out_, TTag::Proj1);
      t1->a = p;
      if (neuKind(o) == NeuKind::Proj1) return {t1, pty->a};
      Tm* t2 = mkTm(out_, TTag::Proj2);
      t2->a = p;
      return {t2, instantiate(pty, t1, l)};
    }
    }
    throw Bail{"an unknown neutral value"};
  }

  // A Π or Σ codomain at the value of `arg` (a read-back term under l
  // binders); evaluated only when the codomain depends on it.
  Val* instantiate(Val* binder, Tm* arg, Lvl l) {
    if (!dependsOnVar0(binder->body)) { // the same for every argument: once per binder
      if (binder == lastBinder_) return lastCodomain_; // (`s (s (s …))`: always the same)
      Val*& c = codomains_[binder];
      if (!c) c = apply(w_, binder, vUnused());
      lastBinder_ = binder;
      lastCodomain_ = c;
      return c;
    }
    while (envs_.size() <= l)
      envs_.push_back(envs_.empty() ? nullptr
                                    : extend(w_, envs_.back(), w_.var(Lvl(envs_.size() - 1))));
    return apply(w_, binder, eval(w_, envs_[l], arg));
  }

  Runtime& rt_;
  World& w_;
  Arena& out_;
  std::vector<Val*> types_;                  // of the bound variables, by level
  std::vector<Env*> envs_;                   // envs_[l]: the variables of levels < l, as values
  std::unordered_map<Val*, Val*> codomains_; // non-dependent Π/Σ → its codomain
  Val* lastBinder_ = nullptr;
  Val* lastCodomain_ = nullptr;
};

// Compares two run-time values as normal forms: neutral values structurally,
// functions (and a function against a neutral, by η) applied to a fresh
// variable, pairs by components. Answers only "equal" (true) or "not known"
// (Bail): anything else — literals, erased types, a pair against a neutral,
// values that differ — is left to the evaluator, which explains a failure.
// Iterative: `s (s (s …))` ten million deep takes no stack.
bool sameNormalForm(V a, V b) {
  struct Item {
    V a, b;
    uint32_t lvl;
  };
  gc::RootedVector<Item> work{{a, b, 0}};
  gc::RootedVector<V> vars; // the fresh variable of each level, shared by both sides
  auto isFun = [](V v) {
    return hasHeader(v) && (obj(v)->tag == OTag::Closure || obj(v)->tag == OTag::Pap);
  };
  while (!work.empty()) {
    guard();
    Item it = work.back();
    work.pop_back();
    if (!hasHeader(it.a) || !hasHeader(it.b)) throw Bail{"data"};
    Obj *x = obj(it.a), *y = obj(it.b);
    // (Before the identity test: every erased term is the same object, yet
    // `f Nat` and `f Bool` differ.)
    if (x->tag == OTag::Erased || y->tag == OTag::Erased) throw Bail{"types in the normal form"};
    if (it.a == it.b) continue;
    if (isFun(it.a) || isFun(it.b)) {
      if (!isFun(it.a) && x->tag != OTag::Neutral) throw Bail{"a function against data"};
      if (!isFun(it.b) && y->tag != OTag::Neutral) throw Bail{"a function against data"};
      while (vars.size() <= it.lvl)
        vars.push_back(mkNeuVar(uint32_t(vars.size())));
      V v = vars[it.lvl];
      work.push_back({apply1(it.a, v), apply1(it.b, v), it.lvl + 1});
      continue;
    }
    if (x->tag == OTag::Pair && y->tag == OTag::Pair) {
      auto *p = static_cast<PairObj*>(x), *q = static_cast<PairObj*>(y);
      work.push_back({p->b, q->b, it.lvl});
      work.push_back({p->a, q->a, it.lvl});
      continue;
    }
    if (x->tag != OTag::Neutral || y->tag != OTag::Neutral) throw Bail{"data"};
    auto *n = static_cast<NeuObj*>(x), *m = static_cast<NeuObj*>(y);
    if (n->n != m->n) throw Bail{"different normal forms"};
    switch (neuKind(n)) {
    case NeuKind::Var:
      if (n->a != m->a) throw Bail{"different normal forms"};
      break;
    case NeuKind::App:
      // (The argument last: a chain of applications stays one item deep.
      // The same function — `s` of `s (s …)` — needs no item at all.)
      work.push_back({n->b, m->b, it.lvl});
      if (n->a != m->a) work.push_back({n->a, m->a, it.lvl});
      break;
    case NeuKind::VarApp: { // (the same n: the same variable)
      // Down a chain `s (s (s …))` in a loop, without the work list.
      V x1 = n->a, y1 = m->a;
      while (x1 != y1 && hasHeader(x1) && hasHeader(y1) && obj(x1)->tag == OTag::Neutral &&
             obj(y1)->tag == OTag::Neutral && neuKind(obj(x1)) == NeuKind::VarApp &&
             obj(x1)->n == obj(y1)->n) {
        x1 = static_cast<NeuObj*>(obj(x1))->a;
        y1 = static_cast<NeuObj*>(obj(y1))->a;
      }
      work.push_back({x1, y1, it.lvl});
      break;
    }
    case NeuKind::Proj1:
    case NeuKind::Proj2: work.push_back({n->a, m->a, it.lvl}); break;
    }
  }
  return true;
}

} // namespace

bool Runtime::byRunningCode(World& w, const char* what, const char* done,
                            std::chrono::milliseconds time, const std::vector<Tm*>& terms,
                            const std::function<void(const std::vector<ETm*>&)>& run) {
  // --jit=off keeps the evaluator (and is what the differential tests compare with).
  if (running_ || opts.mode == JitMode::Off)
    return false; // (running_: a type printed during a run)
  useWorld(w);
  Arena query(1 << 12); // (the query's erased terms live as long as this call)
  Eraser er(w, query);
  std::vector<ETm*> erased;
  auto leave = [&](std::string_view why) {
    if (opts.stats) err << "jit: " << what << " left to the evaluator (" << why << ")\n";
    return false;
  };
  try {
    for (Tm* t : terms) {
      erased.push_back(er.erase(t));
      markShares(erased.back(), query);
    }
  } catch (Error&) {
    return leave("it reaches a goal"); // (core/goals.cpp)
  }
  // (Erasing a definition with filters specializes it, which may warn.)
  if (w.hasFilters) return leave("the program uses partial-evaluation filters");
  try {
    Purity pure(*this);
    for (ETm* e : erased)
      if (!pure.term(e)) return leave(pure.why);
  } catch (DepthExceeded&) {
    return leave("the term is too deep");
  } catch (Error&) {
    return leave("it reaches a goal"); // (a definition it calls: core/goals.cpp)
  }
  HeapRun heap(*this);
  SettleAtEnd settle{*this};
  Budget budget(time, kHeapBudget, kStackBudget);
  try {
    run(erased);
    if (opts.stats) err << "jit: " << what << " " << done << "\n";
    return true;
  } catch (Bail& b) {
    return leave(b.why);
  } catch (Error&) {
    return leave("a run-time error");
  } catch (DepthExceeded&) {
    return leave("the run recursed too deeply");
  } catch (BudgetExceeded&) {
    return leave("the run went past its time or memory budget");
  } catch (Deopt& d) { // (λ-terms use no primitives: not expected)
    deoptimize(d);
    return leave("compiled code deoptimized");
  }
}

Tm* Runtime::normalize(World& w, Arena& out, Tm* t, Val* ty) {
  Tm* nf = nullptr;
  byRunningCode(w, "normal form", "by running code", kTimeBudget, {t},
                [&](const std::vector<ETm*>& e) {
                  nf = Readback(*this, w, out).read(eval(e[0], nullptr), ty, 0);
                });
  return nf;
}

bool Runtime::convertible(World& w, Tm* a, Tm* b) {
  return byRunningCode(w, "conversion", "decided by running code", kConvertTimeBudget, {a, b},
                       [&](const std::vector<ETm*>& e) {
                         sameNormalForm(eval(e[0], nullptr), eval(e[1], nullptr));
                       });
}

} // namespace thorin::rt

#include "engine.hpp"
#include "cse.hpp"
#include "effects.hpp"
#include "share.hpp"

#include <fmt/format.h>

#include <chrono>
#include <ostream>

#include "core/axiom.hpp"
#include "core/diagnostic.hpp"
#include "core/eval.hpp"
#include "core/guard.hpp"
#include "core/literal.hpp"
#include "specialize.hpp"

namespace thorin::rt {

namespace {
// Baseline code runs this long before LLVM is asked for its code. LLVM's
// loading and first compilation take ~15 ms of the other core and 2–4 ms of
// this one (page faults, TLB shootdowns, tearing it down at exit), and its
// code runs at best about twice as fast. Expecting a program to run about
// as long again as it has run, LLVM pays when 0.5 × (T − 15 ms) > ~3 ms:
// from T ≈ 20 ms. Code on F64 and words was asked for after 5 ms while its
// baseline code checked every row's header and Nat sum; since it does not
// (facts at loop entry, shape memos, `idx` checked once), 20 ms for all is
// better — fastest of 8 alternating runs, 5 ms against 20: matmul 256 18.8
// / 17.4 ms, brainfuck 1.37 / 1.08 s, an F64 loop of 3·10⁷ steps 254 / 194
// ms, a Nat loop 62 / 64 ms, twelve matmuls 195 / 179 ms.
constexpr auto kTierUpDelay = std::chrono::milliseconds(20);
void tierUpAtSafepoint() {
  if (Runtime* rt = Runtime::current()) rt->tierUp();
}
Runtime* gCurrent = nullptr;
} // namespace

Runtime* Runtime::current() { return gCurrent; }

Runtime::Runtime(JitOptions o, std::ostream& e) : opts(o), err(e) { gCurrent = this; }

bool Runtime::wantsBaseline() const {
  // (With --jit-sync the optimized code is ready at once: nothing to bridge.)
  return opts.mode == JitMode::Lazy && opts.baseline && (opts.background || !opts.llvm);
}

void Runtime::setBaseline(std::unique_ptr<Tier> t) {
  baseline = std::move(t);
  if (baseline && opts.llvm) gSafepointHook = tierUpAtSafepoint;
}
Runtime::~Runtime() {
  if (gCurrent == this) {
    gCurrent = nullptr;
    gSafepointHook = nullptr;
  }
  // The backend first: its compile thread may still be installing LLVM code
  // in a slot of the baseline tier (found by fuzzing `thorin check` in the
  // sanitizer build, which returns from main instead of exiting at once).
  backend.reset();
}

Global& Runtime::grownGlobal(TopId id) {
  if (id >= globals.size()) globals.resize(w_->tops.size() > id ? w_->tops.size() : id + 1);
  return globals[id];
}

Global& Runtime::erased(TopId id) {
  Global& g = global(id);
  if (g.erasedDone) return g;
  g.erasedDone = true;
  const TopEntry& e = w_->tops[id];
  Eraser er(*w_, arena_);
  g.sig = er.signature(id);
  if (!e.def) return g; // a postulate: erased at run time
  ETm* body;
  try {
    body = er.erase(e.def);
  } catch (Error&) { // (it reaches a goal: erased again, and refused again, at its next use)
    global(id).erasedDone = false;
    throw;
  }
  Global& g2 = global(id);
  g2.source = g2.body = body;
  g2.arity = body->tag == ETag::Lam ? body->n : 0;
  // Calls whose filter holds are specialized (the source stays for unfolding).
  if (mentionsFilter(body)) {
    std::vector<TopId> used;
    ETm* spec = Specializer(*this).function(body, used);
    Global& g3 = global(id);
    g3.body = shareCommonSubterms(arena_, spec);
    g3.specsUsed = std::move(used);
    markShares(g3.body, arena_);
    return g3;
  }
  g2.body = shareCommonSubterms(arena_, body);
  markShares(g2.body, arena_);
  return g2;
}

bool Runtime::mentionsFilter(ETm* t) {
  if (!w_->hasFilters) return false; // (most programs: nothing to look for)
  if (t->tag == ETag::Lam && t->b) return true;
  if (t->tag == ETag::App && t->a->tag == ETag::Global && !isSpec(t->a->n)) {
    Global& g = erased(t->a->n);
    if (g.source && g.source->tag == ETag::Lam && g.source->b) return true;
  }
  bool found = false;
  forEachChild(t, 0, [&](ETm* c, uint32_t) { found = found || mentionsFilter(c); });
  return found;
}

std::string Runtime::nameOf(TopId id) {
  if (!isSpec(id)) return std::string(str(w_->tops[id].name));
  const SpecInfo& s = spec(id);
  if (s.lifted) // (`main.λ`: a hot λ inside main)
    return s.origin == kNoFrame ? fmt::format("λ{}", s.args)
                                : fmt::format("{}.λ{}", str(w_->tops[s.origin].name), s.args);
  return fmt::format("{}@({})", str(w_->tops[s.origin].name), s.args);
}

MachineSig Runtime::machineSig(TopId id) {
  MachineSig sig;
  if (isSpec(id)) {
    const SpecInfo& s = spec(id);
    if (s.lifted) return liftedSig(id);
    MachineSig o = machineSig(s.origin);
    if (!o.known || o.params.size() != s.isStatic.size()) return sig;
    for (size_t i = 0; i < o.params.size(); ++i)
      if (!s.isStatic[i]) {
        sig.params.push_back(o.params[i]);
        sig.shapes.push_back(o.shapes[i]);
      }
    sig.result = o.result;
    sig.resultShape = o.resultShape;
    sig.known = true;
    return sig;
  }
  return erased(id).sig;
}

// The class of t's value when it is evident: a saturated call of a function
// with an I64 or F64 result, a primitive's, a literal's, or that of both
// branches. None otherwise (a word).
static MType evidentClass(Runtime& rt, ETm* t) {
  switch (t->tag) {
  case ETag::Lit:
    return LitKind(t->n) == LitKind::F64   ? MType::F64
           : LitKind(t->n) == LitKind::I64 ? MType::I64
                                           : MType::None;
  case ETag::Prim: {
    const Prim& p = primById(t->prim);
    return p.result != MType::None ? p.result : p.value;
  }
  case ETag::Let: return evidentClass(rt, t->b);
  case ETag::If: {
    MType m = evidentClass(rt, t->b);
    return m == evidentClass(rt, t->c) ? m : MType::None;
  }
  case ETag::Case: { // (impossible alternatives, erased, do not count)
    MType m = MType::None;
    bool first = true;
    for (uint32_t i = 0; i < t->n; ++i) {
      if (t->args[i]->tag == ETag::Erased) continue;
      MType mi = evidentClass(rt, t->args[i]);
      if (!first && mi != m) return MType::None;
      m = mi;
      first = false;
    }
    return m;
  }
  case ETag::App:
    if (t->a->tag == ETag::Global && !isSpec(t->a->n) && rt.erased(t->a->n).arity == t->n) {
      MachineSig s = rt.machineSig(t->a->n);
      return s.known ? s.result : MType::None;
    }
    return MType::None;
  default: return MType::None;
  }
}

// A lifted λ takes words (its free variables' types are not known); its
// result is an I64 or F64 when its body's evidently is (a build's element
// `λ j. dot …`): its worker then returns the machine number, which a build
// into a raw array stores without a box (buildRaw). Otherwise unknown:
// words in and out.
MachineSig Runtime::liftedSig(TopId id) {
  MachineSig sig;
  Global& g = global(id);
  if (!g.body || g.body->tag != ETag::Lam) return sig;
  MType m = evidentClass(*this, g.body->a);
  if (m != MType::I64 && m != MType::F64) return sig;
  sig.params.assign(g.body->n, MType::None);
  sig.shapes.assign(g.body->n, Shape{});
  sig.result = m;
  sig.resultShape.leaf = m;
  sig.known = true;
  return sig;
}

TopId Runtime::addSpec(SpecInfo info, ETm* body) {
  TopId id = kSpecBase + TopId(specs_.size());
  Global g;
  g.erasedDone = true;
  g.source = g.body = body;
  g.arity = body->tag == ETag::Lam ? body->n : 0;
  markShares(body, arena_);
  specs_.push_back(std::move(g));
  specByKey_[info.key] = id;
  specInfo_.push_back(std::move(info));
  return id;
}

TopId* Runtime::findSpec(const std::string& key) {
  auto it = specByKey_.find(key);
  return it == specByKey_.end() ? nullptr : &it->second;
}

// Drops the specializations that unfolded any of `ids`, their code, and the
// specialized bodies that call them (erased again when next needed).
void Runtime::dropSpecs(const std::vector<TopId>& ids) {
  settleJit(true);
  std::vector<TopId> gone;
  for (size_t i = 0; i < specInfo_.size(); ++i) {
    SpecInfo& s = specInfo_[i];
    if (s.dropped) continue;
    for (TopId d : s.deps)
      if (std::find(ids.begin(), ids.end(), d) != ids.end()) {
        s.dropped = true;
        specByKey_.erase(s.key);
        gone.push_back(kSpecBase + TopId(i));
        break;
      }
  }
  if (gone.empty()) return; // (lifted λs among them: their λs find out at their next call)
  for (Lifted& l : lifted_)
    if (std::find(gone.begin(), gone.end(), l.id) != gone.end()) l.dropped = true;
  std::vector<TopId> code;
  auto uses = [&](Global& g) {
    for (TopId u : g.specsUsed)
      if (std::find(gone.begin(), gone.end(), u) != gone.end()) return true;
    return false;
  };
  auto reset = [&](TopId id, Global& g) {
    if (g.compiled) code.push_back(id);
    g = Global{};
  };
  for (TopId id : gone)
    reset(id, specs_[id - kSpecBase]);
  for (TopId id = 0; id < globals.size(); ++id)
    if (uses(globals[id])) reset(id, globals[id]);
  for (size_t i = 0; i < specs_.size(); ++i)
    if (uses(specs_[i])) reset(kSpecBase + TopId(i), specs_[i]);
  if (!code.empty()) removeCode(code);
}

void Runtime::noteCall(TopId id) {
  if (jobs_ && backend->anyFinished()) [[unlikely]]
    settleJit(false);
  Global& g = erased(id);
  if (++g.calls >= opts.threshold && opts.mode == JitMode::Lazy && !g.compiled && !g.compiling &&
      !g.compileFailed)
    requestCompile(id);
}

// The top-level functions `t` calls directly.
static void directCallees(ETm* t, std::vector<TopId>& out) {
  if (t->tag == ETag::App && t->a->tag == ETag::Global &&
      std::find(out.begin(), out.end(), t->a->n) == out.end())
    out.push_back(t->a->n);
  forEachChild(t, 0, [&](ETm* c, uint32_t) { directCallees(c, out); });
}

// Erased nodes in a body above which it is not compiled (a 2,000-branch
// conditional, ~10,000 nodes, takes LLVM ~0.4 s).
constexpr size_t kMaxCompiledNodes = 10000;

bool Runtime::tooLargeToCompile(TopId id) {
  Global& g = erased(id);
  if (g.tooLarge < 0) {
    size_t n = g.body ? countNodes(g.body, kMaxCompiledNodes) : 0;
    g.tooLarge = n > kMaxCompiledNodes ? 1 : 0;
    if (g.tooLarge && opts.stats)
      err << fmt::format("jit: {} is too large to compile (over {} nodes); it stays interpreted\n",
                         nameOf(id), kMaxCompiledNodes);
  }
  return g.tooLarge == 1;
}

void Runtime::requestCompile(TopId id) {
  Global& g0 = erased(id);
  if ((!backend && !baseline) || g0.arity == 0) return;
  if (tooLargeToCompile(id)) {
    global(id).compileFailed = true;
    return;
  }
  bool running = installBaseline(id); // (baseline code runs while LLVM compiles)
  Global& g = global(id);
  if (!backend) {
    if (!running) g.compileFailed = true;
    return;
  }
  g.tierUp = false;
  if (running && std::chrono::steady_clock::now() - baselineSince_ < kTierUpDelay) {
    g.tierUp = true; // (asked again at a safepoint)
    return;
  }
  // The first compilation waits: while nothing is compiled, the interpreter
  // (some 50× slower) gains little beside it, and the compiler would share
  // the machine with it. Later ones (a driver loop whose callees run
  // compiled already) go to the background.
  if (!opts.background || (!compiledAny_ && !running)) {
    compile(id);
    return;
  }
  // A callee being compiled first: wait for it (at a later call), so that
  // this code calls the callee's code directly, not through the runtime.
  if (!g.calleesKnown) {
    directCallees(g.body, g.callees);
    g.calleesKnown = true;
  }
  for (TopId c : global(id).callees)
    if (c != id && global(c).compiling) {
      global(id).tierUp = running;
      return;
    }
  bool failed = false;
  if (backend->startCompile(*this, id, failed, baseline ? baseline->slot(id) : nullptr)) {
    global(id).compiling = true;
    ++jobs_;
  } else if (failed) {
    global(id).compileFailed = true;
  } else { // LLVM is still starting: asked again at a later call
    global(id).tierUp = running;
  }
}

bool Runtime::installBaseline(TopId id) {
  Global& g = global(id);
  if (g.compiled) return baseline && baseline->owns(g.compiled);
  if (!baseline) return false;
  auto t0 = std::chrono::steady_clock::now();
  Code c = baseline->compile(*this, id);
  if (!c) return false;
  if (backend) {
    auto now = std::chrono::steady_clock::now();
    if (baselineSince_ == std::chrono::steady_clock::time_point{}) baselineSince_ = now;
    // A safepoint once the delay has passed, if the program still runs
    // (once past, requestCompile asks LLVM at once).
    auto at = baselineSince_ + kTierUpDelay;
    if (!tierUpWake_ && at > now)
      requestSafepointAfter(std::chrono::duration_cast<std::chrono::microseconds>(at - now));
    tierUpWake_ = true;
  }
  Global& h = global(id);
  h.compiled = c;
  h.optimized = false;
  h.compileMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  entryOwner_[c] = id;
  h.epoch = 0; // its value (a closure) is rebuilt with the compiled entry
  cell(id).valueEpoch = 0;
  if (opts.stats)
    err << fmt::format("jit: baseline code for {} in {:.2f} ms\n", nameOf(id), h.compileMs);
  return true;
}

void Runtime::tierUp() {
  // (Also installs what finished: LLVM code that took over from a loop in
  // baseline code is reported and used by the interpreter from now on.)
  if (jobs_) settleJit(false);
  forEachId([&](TopId id) {
    if (global(id).tierUp) requestCompile(id);
  });
}

void Runtime::finishTierUps() {
  if (!backend) return;
  forEachId([&](TopId id) {
    if (global(id).tierUp) {
      global(id).tierUp = false;
      installCompiled(id, backend->compile(*this, id));
    }
  });
}

void Runtime::removeCode(const std::vector<TopId>& ids) {
  ++epoch; // (cells may hold entries of the dropped code: GlobalCell)
  if (baseline) baseline->remove(*this, ids);
  if (backend && !ids.empty()) backend->remove(*this, ids); // (it tells codeDropped)
}

void Runtime::settleJit(bool wait) {
  if (!jobs_ || !backend) return;
  backend->settle(*this, wait, [&](TopId id, Code c) {
    --jobs_;
    installCompiled(id, c);
  });
}

void Runtime::installCompiled(TopId id, Code c) {
  Global& g = global(id);
  g.compiling = false;
  if (!c) {
    g.compileFailed = true;
    return;
  }
  g.compiled = c;
  g.optimized = true;
  compiledAny_ = true;
  entryOwner_[c] = id;
  g.epoch = 0; // its value (a closure) is rebuilt with the compiled entry
  cell(id).valueEpoch = 0;
  if (opts.stats)
    err << fmt::format("jit: compiled {} in {:.2f} ms{}\n", nameOf(id), g.compileMs,
                       g.fromCodeCache ? " (from the code cache)" : "");
}

bool Runtime::compile(TopId id) {
  settleJit(true); // (one compilation at a time: LLVM's target machine is shared)
  Global& g = erased(id);
  if (g.compiled || g.compiling || g.compileFailed || !backend || g.arity == 0)
    return g.compiled != nullptr;
  if (tooLargeToCompile(id)) {
    global(id).compileFailed = true;
    return false;
  }
  installCompiled(id, backend->compile(*this, id));
  return global(id).compiled != nullptr;
}

void Runtime::deoptimize(const Deopt& d) {
  settleJit(true);
  Global& g = global(d.owner);
  if (g.noSpeculate) // (its code was compiled without speculation: cannot happen)
    throw Error{fmt::format("internal error: {} deoptimized twice", nameOf(d.owner)), 0};
  g.noSpeculate = true;
  if (opts.stats)
    err << fmt::format("jit: {} met {}: recompiling it without speculation, running again\n",
                       nameOf(d.owner), deoptReasonText(d.reason));
  if (std::vector<TopId> all = compiledIds(); !all.empty()) removeCode(all);
  ++epoch; // (cached values may hold closures of the dropped code)
}

void Runtime::invalidate(World& w, TopId id) {
  if (&w != w_ || id >= globals.size()) return;
  settleJit(true);
  dropSpecs({id});
  if (globals[id].compiled || (baseline && baseline->slot(id)))
    removeCode({id}); // (and its dependents)
  globals[id] = Global{};
}

void Runtime::forgetFrom(World& w, TopId first) {
  if (&w != w_ || first >= globals.size()) return;
  settleJit(true);
  std::vector<TopId> gone, all;
  for (TopId id = first; id < globals.size(); ++id) {
    all.push_back(id);
    if (globals[id].compiled || (baseline && baseline->slot(id))) gone.push_back(id);
  }
  dropSpecs(all);
  if (!gone.empty()) removeCode(gone);
  globals.resize(first);
}

static Builtin roleOf(World& w, Val* v);

namespace {
// Why a constant without a definition cannot run: a postulate, or (until
// data types run: docs/inductive-design.md) a constructor or data type.
std::string noValue(World& w, Runtime& rt, TopId id, const char* what) {
  const TopEntry& te = w.tops[id];
  if (te.conOf >= 0 || te.data)
    return fmt::format("`{}` is a {} of a data type: data types do not run yet (only "
                       "elaboration knows them so far)",
                       rt.nameOf(id), te.data ? "type" : "constructor");
  return fmt::format("`{}` is a postulate (`.ax`): {}", rt.nameOf(id), what);
}
// A postulated function: calling it is a run-time error.
V postulateEntry(Closure* self, const V*) {
  Runtime& rt = *Runtime::current();
  throw Error{noValue(rt.world(), rt, TopId(self->free[0]), "it cannot be called at run time"), 0};
}
} // namespace

V Runtime::postulateValue(TopId id) {
  World& w = *w_;
  Val* ty = forceAll(w, w.topType(id));
  uint32_t arity = 0;
  for (; ty->tag == VTag::Pi; ++arity)
    ty = forceAll(w, apply(w, ty, vUnused()));
  if (arity > 0) { // (passed along, it is harmless; called, it has no result)
    V c = mkClosure(postulateEntry, arity, 1);
    static_cast<Closure*>(obj(c))->free[0] = id;
    return c;
  }
  bool data = ty->tag == VTag::Sigma;
  switch (roleOf(w, ty)) {
  case Builtin::Nat:
  case Builtin::I64:
  case Builtin::F64:
  case Builtin::Bool:
  case Builtin::String:
  case Builtin::Array:
  case Builtin::Idx:
  case Builtin::Unit: data = true; break;
  default: break;
  }
  if (data) // (located at the run that needs it)
    throw Error{noValue(w, *this, id, "it has no value to run"), 0};
  return rt::erased();
}

void Runtime::stopSpeculating() {
  if (!speculation()) return;
  settleJit(true); // (no compilation in flight reads the flag meanwhile)
  speculation_ = false;
  if (std::vector<TopId> all = compiledIds(); !all.empty()) removeCode(all);
}

std::string Runtime::runEffects(V v, Val* ty, bool bare) {
  World& w = *w_;
  if (!runsEffects) return "(an IO action: thorin check does not run it)";
  Val* res = forceAll(w, ty)->sp->arg; // IO res
  try {
    v = runAction(*this, v);
  } catch (ProgramExit& e) {
    flushOutput();
    if (exitProcess) exitProcess(e.status);
    if (e.status != 0) throw Error{fmt::format("the program exited with status {}", e.status), 0};
    return ""; // (exit 0 ends the run quietly)
  }
  flushOutput();
  if (roleOf(w, res) == Builtin::Unit) return "";
  bool text = bare && roleOf(w, res) == Builtin::String;
  return text ? std::string(toStr(v)) : show(v, res);
}

// The builtin role of a type's head axiom (Builtin::Count: none).
static Builtin roleOf(World& w, Val* v) {
  v = forceAll(w, v);
  if (v->tag != VTag::Top || !w.tops[v->n].axiom) return Builtin::Count;
  return AxiomTable::get().role(w.tops[v->n].axiom->id);
}

// Prints a run-time value by its (elaboration-time) type.
std::string Runtime::show(V v, Val* ty) {
  std::string out;
  showInto(out, v, ty);
  return out;
}

// (Into one buffer: nested arrays or pairs a hundred thousand deep print in
// linear time; guard(): deeper than the stack allows is a located error.)
void Runtime::showInto(std::string& out, V v, Val* ty) {
  guard();
  World& w = *w_;
  Val* f = forceAll(w, ty);
  switch (Builtin role = roleOf(w, f)) {
  case Builtin::Nat: return void(out += showNat(v));
  case Builtin::I64: return void(out += std::to_string(toI64(v)));
  case Builtin::F64: return void(out += showF64(toF64(v)));
  case Builtin::Bool: return void(out += immVal(v) ? "true" : "false");
  case Builtin::Unit: return void(out += "tt");
  case Builtin::Idx: return void(out += showNat(v)); // (the Nat representation)
  case Builtin::String: return void(out += quoteString(toStr(v)));
  default:
    if (role == Builtin::Array && f->sp && f->sp->len == 2) {
      auto* a = static_cast<ArrObj*>(obj(v));
      out += "[";
      showAtom_ = false; // (an element is no constructor's argument: `just [just 1]`)
      for (uint32_t i = 0; i < a->n; ++i) {
        if (i) out += ", ";
        showInto(out, arrElem(a, i), f->sp->arg);
      }
      return void(out += "]");
    }
  }
  if (f->tag == VTag::Sigma) { // (a, b, c) = (a, (b, c))
    out += "(";
    showAtom_ = false;
    while (f->tag == VTag::Sigma) {
      auto* p = static_cast<PairObj*>(obj(v));
      showInto(out, p->a, f->a);
      out += ", ";
      // The rest's type may depend on the first component: instantiate it
      // with an unknown (only its head matters for printing).
      f = forceAll(w, apply(w, f, vUnused()));
      v = p->b;
    }
    showInto(out, v, f);
    return void(out += ")");
  }
  if (f->tag == VTag::Top && w.tops[f->n].data) return showData(out, v, f);
  if (f->tag == VTag::Pi) return void(out += "<function>");
  if (f->tag == VTag::U) return void(out += "<type>");
  out += "<value>";
}

// A value of a data type (rt::ConObj or a compact cell, or the immediate of
// a constructor without fields) as the constructor applied to its explicit fields,
// `cons 1 (cons 2 nil)`.
void Runtime::showData(std::string& out, V v, Val* ty) {
  World& w = *w_;
  const DataInfo& d = *w.tops[ty->n].data;
  if (d.nCons == 0 || conIndex(v) >= d.nCons) return void(out += "<value>");
  TopId con = d.cons[conIndex(v)];
  // The constructor's type at the value's parameters: its fields' types.
  Val* cty = w.topType(con);
  std::vector<Val*> params;
  for (Spine* s = ty->sp; s; s = s->prev)
    params.insert(params.begin(), s->arg);
  for (uint32_t j = 0; j < d.params && j < params.size(); ++j)
    cty = apply(w, forceAll(w, cty), params[j]);
  std::vector<std::pair<Val*, Icit>> fields;
  for (Val* f = forceAll(w, cty); f->tag == VTag::Pi; f = forceAll(w, cty)) {
    fields.push_back({f->a, f->icit});
    cty = apply(w, f, vUnused());
  }
  std::vector<bool> stored = storedFields(w, con);
  bool nested = showAtom_;
  showAtom_ = false;
  bool any = false;
  for (auto& fi : fields)
    any |= fi.second == Icit::Expl;
  if (nested && any) out += "(";
  out += nameOf(con);
  for (size_t j = 0, at = 0; j < fields.size() && j < stored.size(); ++j) {
    if (!stored[j]) {
      if (fields[j].second == Icit::Expl) out += " _";
      continue;
    }
    V fv = conFields(v)[at++];
    if (fields[j].second == Icit::Impl) continue;
    out += " ";
    showAtom_ = true; // (a field that is itself data and has fields: parenthesized)
    showInto(out, fv, fields[j].first);
    showAtom_ = false;
  }
  if (nested && any) out += ")";
}

std::vector<TopId> Runtime::compiledIds() const {
  std::vector<TopId> all;
  for (TopId id = 0; id < globals.size(); ++id)
    if (globals[id].compiled) all.push_back(id);
  for (size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].compiled) all.push_back(kSpecBase + TopId(i));
  return all;
}

void Runtime::useWorld(World& w) {
  if (&w != w_) { // a new world (a reload): nothing compiled for the old one applies
    settleJit(true);
    if (std::vector<TopId> all = compiledIds(); !all.empty()) removeCode(all);
    if (baseline) baseline->clear(*this); // (its slots are keyed by the old world's ids)
    globals.clear();
    entryOwner_.clear();
    specs_.clear();
    specInfo_.clear();
    specByKey_.clear();
    // Nothing refers to the old world's erased terms now (its code and
    // globals are gone): without this, each run's erasure stayed for good.
    lifted_.clear();
    originByLam_.clear();
    originIndexed_.clear();
    arena_.clear();
    ++liftGen_;
    w_ = &w;
  }
  globals.resize(std::max<size_t>(globals.size(), w.tops.size()));
}

std::string Runtime::residual(World& w, TopId id, const std::vector<Tm*>& args) {
  useWorld(w);
  Eraser er(w, arena_);
  std::vector<ETm*> es;
  ETm* r;
  try {
    for (Tm* t : args)
      es.push_back(t ? er.erase(t) : nullptr);
    r = Specializer(*this).residual(id, es);
  } catch (Error& e) { // (a goal: core/goals.cpp)
    return "(no code: " + e.msg + ")";
  }
  return r ? showETm(*this, r) : "(no code: a postulate)";
}

static V wordOfLit(const Val* v) {
  switch (LitKind(v->n)) {
  case LitKind::Nat: return ofNat(v->bits);
  case LitKind::BigNat: return ofNatMpz(static_cast<const BigNat*>(v->big)->z);
  case LitKind::I64: return ofI64(int64_t(v->bits));
  case LitKind::F64: return ofF64(litF64(v));
  case LitKind::Str: return ofStr(litStr(v->big));
  default: return imm(int64_t(v->bits));
  }
}

Val* Runtime::closedCall(World& w, TopId id, Val* const* args, uint32_t n) {
  if (running_) return nullptr; // (a type printed during a run)
  useWorld(w);
  Global* gp;
  try {
    gp = &erased(id);
  } catch (Error&) { // (it reaches a goal: core/goals.cpp; the evaluator goes on)
    return nullptr;
  }
  Global& g = *gp;
  if (g.arity != n) return nullptr;
  // The result's builtin type.
  Val* ty = forceAll(w, w.topType(id));
  for (uint32_t i = 0; i < n && ty->tag == VTag::Pi; ++i)
    ty = forceAll(w, apply(w, ty, vUnused()));
  Builtin res = roleOf(w, ty);
  if (res == Builtin::Count) return nullptr;
  HeapRun run(*this);
  SettleAtEnd settle{*this};
  V words[8];
  for (uint32_t i = 0; i < n; ++i)
    words[i] = wordOfLit(args[i]);
  V r;
  try {
    r = retryingDeopts([&] {
      ++epoch;
      return callGlobal(id, words);
    });
  } catch (Error&) {
    return nullptr; // stuck in the evaluator, as the normalizers are
  }
  if (res == Builtin::Nat) {
    if (isImm(r)) return vLit(w, LitKind::Nat, uint64_t(immVal(r)));
    mpz_t z;
    mpz_init(z);
    toNatMpz(r, z);
    Val* v = vNat(w, z);
    mpz_clear(z);
    return v;
  }
  if (res == Builtin::I64) return vLit(w, LitKind::I64, uint64_t(toI64(r)));
  if (res == Builtin::F64) return vF64(w, toF64(r));
  if (res == Builtin::Bool) return vBool(w, immVal(r) != 0);
  if (res == Builtin::String) return vStr(w, toStr(r));
  return nullptr;
}

std::string Runtime::run(World& w, Tm* t, Val* ty, Span where, bool bare) {
  auto start = std::chrono::steady_clock::now();
  useWorld(w);
  running_ = true;
  runningProgram = true;
  struct NotRunning {
    Runtime& r;
    ~NotRunning() {
      r.running_ = false;
      r.runningProgram = false;
    }
  } notRunning{*this};
  SettleAtEnd settle{*this};
  runStarts();
  struct Reset {
    Runtime& r;
    ~Reset() { r.runEnds(); }
  } reset{*this};
  Eraser er(w, arena_);
  ETm* e = er.erase(t);
  if (mentionsFilter(e)) {
    std::vector<TopId> used;
    e = Specializer(*this).function(e, used);
  }
  markShares(e, arena_);
  bool io = roleOf(w, ty) == Builtin::IO;
  if (io && runsEffects) stopSpeculating();
  try {
    V v = retryingDeopts([&] {
      if (opts.mode == JitMode::Eager && backend)
        for (TopId id = 0; id < w.tops.size(); ++id)
          if (!w.tops[id].prelude && !w.tops[id].retired && w.tops[id].def) try {
              compile(id);
            } catch (Error&) { // (it reaches a goal: an error only if this run needs it)
            }
      ++epoch;
      return eval(e, nullptr);
    });
    std::string shown;
    if (io) {
      shown = runEffects(v, ty, bare);
    } else {
      bool text = bare && roleOf(w, ty) == Builtin::String;
      shown = text ? std::string(toStr(v)) : show(v, ty);
    }
    // From erasure to the printed value, compilation included: the run alone,
    // without start-up and elaboration (bench/run eval reports it).
    if (opts.stats)
      err << fmt::format(
          "jit: evaluated in {:.2f} ms\n",
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    return shown;
  } catch (Error& err) {
    hadError = true;
    flushOutput(); // (the program's output, then the error)
    Span s = err.span && err.span <= w.spans.size() ? w.spans[err.span - 1] : where;
    throw thorin::Error(Diagnostic{s, err.msg, {}});
  } catch (DepthExceeded&) {
    hadError = true;
    throw thorin::Error(Diagnostic{where,
                                   "the program recursed too deeply (stack exhausted)",
                                   {"THORIN_STACK_MB raises the limit"}});
  } catch (Interrupted&) {
    hadError = true;
    flushOutput();
    throw;
  } catch (std::bad_alloc&) { // (a run-time error: located at the expression, exit status 2)
    hadError = true;
    flushOutput();
    size_t limit = memoryLimit();
    if (!limit) throw thorin::Error(Diagnostic{where, "out of memory", {}});
    throw thorin::Error(
        Diagnostic{where,
                   fmt::format("out of memory (thorin's limit: {} MB)", limit >> 20),
                   {"THORIN_MEMORY_MB raises the limit (0: none)"}});
  }
}

} // namespace thorin::rt

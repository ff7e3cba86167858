#include "runtime.hpp"

#include <fmt/format.h>

#include <ostream>

#include "axiom.hpp"
#include "diagnostic.hpp"
#include "eval.hpp"
#include "guard.hpp"
#include "literal.hpp"

namespace thorin::rt {

Runtime::Runtime(JitOptions o, std::ostream& e) : opts(o), err(e) {}
Runtime::~Runtime() = default;

Global& Runtime::global(TopId id) {
  if (id >= globals.size()) globals.resize(w_->tops.size() > id ? w_->tops.size() : id + 1);
  return globals[id];
}

Global& Runtime::erased(TopId id) {
  Global& g = global(id);
  if (g.erasedDone) return g;
  g.erasedDone = true;
  const TopEntry& e = w_->tops[id];
  if (!e.def) return g; // a postulate: erased at run time
  Eraser er(*w_, arena_);
  ETm* body = er.erase(e.def);
  Global& g2 = global(id);
  g2.body = body;
  g2.arity = body->tag == ETag::Lam ? body->n : 0;
  return g2;
}

void Runtime::noteCall(TopId id) {
  Global& g = globals[id];
  if (++g.calls == opts.threshold && opts.mode == JitMode::Lazy) compile(id);
}

bool Runtime::compile(TopId id) {
  Global& g = erased(id);
  if (g.compiled || g.compileFailed || !backend || g.arity == 0) return g.compiled != nullptr;
  Code c = backend->compile(*this, id);
  Global& g2 = global(id);
  if (!c) {
    g2.compileFailed = true;
    return false;
  }
  g2.compiled = c;
  g2.epoch = 0; // its value (a closure) is rebuilt with the compiled entry
  if (opts.stats)
    err << fmt::format("jit: compiled {} in {:.2f} ms\n", str(w_->tops[id].name), g2.compileMs);
  return true;
}

void Runtime::invalidate(World& w, TopId id) {
  if (&w != w_ || id >= globals.size()) return;
  if (globals[id].compiled && backend) backend->remove({id}); // (and its dependents)
  globals[id] = Global{};
}

void Runtime::forgetFrom(World& w, TopId first) {
  if (&w != w_ || first >= globals.size()) return;
  std::vector<TopId> gone;
  for (TopId id = first; id < globals.size(); ++id)
    if (globals[id].compiled) gone.push_back(id);
  if (backend && !gone.empty()) backend->remove(gone);
  globals.resize(first);
}

static const std::string* axiomName(World& w, Val* v) {
  v = forceAll(w, v);
  if (v->tag != VTag::Top || !w.tops[v->n].axiom) return nullptr;
  return &w.tops[v->n].axiom->name;
}

// Prints a run-time value by its (elaboration-time) type.
std::string Runtime::show(V v, Val* ty) {
  World& w = *w_;
  Val* f = forceAll(w, ty);
  if (const std::string* n = axiomName(w, f)) {
    if (*n == "%core.Nat") return showNat(v);
    if (*n == "%core.I64") return std::to_string(toI64(v));
    if (*n == "%core.F64") return showF64(toF64(v));
    if (*n == "%core.Bool") return immVal(v) ? "true" : "false";
    if (*n == "%core.Unit") return "tt";
    if (*n == "%core.Idx") return std::to_string(immVal(v));
    if (*n == "%core.String") return quoteString(toStr(v));
    if (*n == "%core.Array" && f->sp && f->sp->len == 2) {
      auto* a = static_cast<ArrObj*>(obj(v));
      std::string s = "[";
      for (uint32_t i = 0; i < a->n; ++i) {
        if (i) s += ", ";
        s += show(a->elems[i], f->sp->arg);
      }
      return s + "]";
    }
  }
  if (f->tag == VTag::Sigma) { // (a, b, c) = (a, (b, c))
    std::string s = "(";
    while (f->tag == VTag::Sigma) {
      auto* p = static_cast<PairObj*>(obj(v));
      s += show(p->a, f->a) + ", ";
      // The rest's type may depend on the first component: instantiate it
      // with an unknown (only its head matters for printing).
      f = forceAll(w, apply(w, f, vUnused()));
      v = p->b;
    }
    return s + show(v, f) + ")";
  }
  if (f->tag == VTag::Pi) return "<function>";
  if (f->tag == VTag::U) return "<type>";
  return "<value>";
}

void Runtime::useWorld(World& w) {
  if (&w != w_) { // a new world (a reload): nothing compiled for the old one applies
    if (backend) {
      std::vector<TopId> all;
      for (TopId id = 0; id < globals.size(); ++id)
        if (globals[id].compiled) all.push_back(id);
      backend->remove(all);
    }
    globals.clear();
    w_ = &w;
  }
  globals.resize(std::max<size_t>(globals.size(), w.tops.size()));
}

static const std::string* axiomName(World& w, Val* v);

static Val* closedCallHook(World& w, TopId id, Val* const* args, uint32_t n, void* ctx) {
  return static_cast<Runtime*>(ctx)->closedCall(w, id, args, n);
}

void Runtime::attach(World& w) {
  w.closedCall = closedCallHook;
  w.closedCallCtx = this;
  w.onRollback = [](World& w, TopId first, void* ctx) {
    static_cast<Runtime*>(ctx)->forgetFrom(w, first);
  };
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
  Global& g = erased(id);
  if (g.arity != n) return nullptr;
  // The result's builtin type.
  Val* ty = forceAll(w, w.topType(id));
  for (uint32_t i = 0; i < n && ty->tag == VTag::Pi; ++i)
    ty = forceAll(w, apply(w, ty, vUnused()));
  const std::string* res = axiomName(w, ty);
  if (!res) return nullptr;
  ++epoch;
  running_ = true;
  struct Done {
    bool& r;
    ~Done() {
      r = false;
      resetHeap();
    }
  } done{running_};
  V words[8];
  for (uint32_t i = 0; i < n; ++i)
    words[i] = wordOfLit(args[i]);
  V r;
  try {
    r = callGlobal(id, words);
  } catch (Error&) {
    return nullptr; // stuck in the evaluator, as the normalizers are
  }
  if (*res == "%core.Nat") {
    if (isImm(r)) return vLit(w, LitKind::Nat, uint64_t(immVal(r)));
    mpz_t z;
    mpz_init(z);
    toNatMpz(r, z);
    Val* v = vNat(w, z);
    mpz_clear(z);
    return v;
  }
  if (*res == "%core.I64") return vLit(w, LitKind::I64, uint64_t(toI64(r)));
  if (*res == "%core.F64") return vF64(w, toF64(r));
  if (*res == "%core.Bool") return vBool(w, immVal(r) != 0);
  if (*res == "%core.String") return vStr(w, toStr(r));
  return nullptr;
}

std::string Runtime::run(World& w, Tm* t, Val* ty, Span where, bool bare) {
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
  if (opts.mode == JitMode::Eager && backend)
    for (TopId id = 0; id < w.tops.size(); ++id)
      if (!w.tops[id].prelude && !w.tops[id].retired && w.tops[id].def) compile(id);
  ++epoch;
  struct Reset {
    ~Reset() { resetHeap(); }
  } reset;
  Eraser er(w, arena_);
  ETm* e = er.erase(t);
  try {
    V v = eval(e, nullptr);
    if (bare) {
      const std::string* n = axiomName(w, ty);
      if (n && *n == "%core.String") return std::string(toStr(v));
    }
    return show(v, ty);
  } catch (Error& err) {
    hadError = true;
    Span s = err.span && err.span <= w.spans.size() ? w.spans[err.span - 1] : where;
    throw thorin::Error(Diagnostic{s, err.msg, {}});
  } catch (DepthExceeded&) {
    hadError = true;
    throw thorin::Error(Diagnostic{where, "the program recursed too deeply (stack exhausted)",
                                   {"THORIN_STACK_MB raises the limit"}});
  } catch (Interrupted&) {
    hadError = true;
    throw;
  }
}

} // namespace thorin::rt

#include "specialize.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <ostream>
#include <unordered_map>

#include <fmt/format.h>

#include "core/axiom.hpp"
#include "core/eval.hpp"
#include "core/guard.hpp"
#include "core/literal.hpp"
#include "core/syntax.hpp"
#include "engine.hpp"
#include "share.hpp"

namespace thorin::rt {

namespace {

struct PV;
struct PEnv {
  PEnv* prev;
  PV* v;
};

// A partially evaluated value: known (a literal, a function, a structure of
// partial values) or dynamic (residual code that computes it).
struct PV {
  // App: a primitive whose axiom says its applications to known arguments
  // are known values (Axiom::staticValue: regex patterns), on known ones.
  enum Kind : uint8_t { Dyn, Lit, Erased, Global, Clo, Pair, Arr, Con, App } kind;
  ETm* t = nullptr; // Dyn: residual code (its variables are levels); Lit: the literal; Clo: the λ
  uint32_t at = 0;  // Dyn: the binder depth the code was built at
  TopId id = 0;     // Global
  PEnv* env = nullptr; // Clo
  PV* a = nullptr;     // Pair
  PV* b = nullptr;
  PV** elems = nullptr; // Arr, Con (its fields), App (its arguments)
  uint32_t n = 0;
  const ETm* con = nullptr; // Con: the constructor node (its index and name); App: the Prim
};

PV* lookup(PEnv* e, uint32_t ix) {
  while (ix--)
    e = e->prev;
  return e->v;
}

bool trivial(const ETm* t) {
  return t->tag == ETag::Var || t->tag == ETag::Lit || t->tag == ETag::Global ||
         t->tag == ETag::Erased;
}

// Might evaluating `t` unfold a call (and so emit residual lets)?
bool mayEmit(const ETm* t) {
  if (t->tag == ETag::App) return true;
  // (Erasure β-reduces solved metas into lets of variables: those bind nothing.)
  if (t->tag == ETag::Let && !trivial(t->a)) return true;
  bool found = false;
  forEachChild(const_cast<ETm*>(t), 0, [&](ETm* c, uint32_t) { found = found || mayEmit(c); });
  return found;
}

} // namespace

struct Specializer::Impl {
  Runtime& rt;
  Limits lim;
  Arena& out; // residual code lives as long as the runtime's erased terms
  Arena tmp{64 * 1024};
  uint32_t depth = 0;     // residual binders around the code being built
  std::vector<ETm*> lets; // pending residual lets of the current scope, by level
  uint32_t fuel;
  uint32_t size = 0;
  bool exhausted = false;
  bool inFilter = false;
  uint32_t filterNesting = 0;
  struct Building {
    std::string key;
    TopId fn = 0; // allocated when a recursive call needs it
  };
  std::vector<Building*> stack;
  struct Memo {
    PV* value = nullptr; // a closed result: the call is this value
    ETm* body = nullptr; // inlinable residual code (levels; parameters 0..m-1)
    uint32_t m = 0;
    TopId fn = 0; // otherwise: the residual function
  };
  std::unordered_map<std::string, Memo> memo;
  std::unordered_map<TopId, PV*> constants;
  std::vector<TopId> deps;
  std::vector<TopId>* used = nullptr;
  PV* erasedPV;
  PV* erasedTypes[4] = {}; // erased machine types, by MType

  PV* erasedOf(uint32_t m) {
    if (m >= 4) return erasedPV;
    if (!erasedTypes[m]) {
      erasedTypes[m] = mk(PV::Erased);
      erasedTypes[m]->n = m;
    }
    return erasedTypes[m];
  }

  Impl(Runtime& r, Limits l) : rt(r), lim(l), out(r.arena()), fuel(l.fuel) {
    erasedPV = mk(PV::Erased);
  }

  // --- construction -------------------------------------------------------
  PV* mk(PV::Kind k) {
    PV* v = tmp.make<PV>();
    v->kind = k;
    return v;
  }
  PV* dyn(ETm* code) {
    PV* v = mk(PV::Dyn);
    v->t = code;
    v->at = depth;
    return v;
  }
  ETm* node(ETag tag) {
    ETm* e = out.make<ETm>();
    e->tag = tag;
    return e;
  }
  ETm* var(uint32_t level) {
    ETm* e = node(ETag::Var);
    e->n = level;
    return e;
  }
  PV* lit(ETm* t) {
    PV* v = mk(PV::Lit);
    v->t = t;
    return v;
  }
  PV* litOf(LitKind k, uint64_t bits) {
    ETm* e = node(ETag::Lit);
    e->n = uint32_t(k);
    e->bits = bits;
    return lit(e);
  }
  PV* global(TopId id) {
    if (!isSpec(id)) {
      Global& g = rt.erased(id);
      if (g.source && g.arity == 0) return constant(id);
      if (!g.source) return dyn(globalNode(id)); // a postulate
    }
    PV* v = mk(PV::Global);
    v->id = id;
    return v;
  }
  ETm* globalNode(TopId id) {
    ETm* e = node(ETag::Global);
    e->n = id;
    return e;
  }

  // A top-level constant is known if its definition evaluates to a known value.
  PV* constant(TopId id) {
    if (auto it = constants.find(id); it != constants.end()) return it->second;
    constants[id] = dyn(globalNode(id)); // (while in progress, and if it is not known)
    uint32_t d = depth;
    std::vector<ETm*> saved;
    saved.swap(lets);
    depth = 0;
    PV* v = pe(rt.global(id).source, nullptr);
    bool known = closed(v) && lets.empty();
    lets.swap(saved);
    depth = d;
    if (known) {
      constants[id] = v;
      deps.push_back(id);
    }
    return constants[id];
  }

  // --- levels --------------------------------------------------------------
  // Residual code names variables by level while it is built; it may be
  // placed under more binders than it was built under (relocate), and is
  // turned into de Bruijn indices at the end (toIndices).
  ETm* mapLevels(ETm* t, const std::function<ETm*(uint32_t)>& f) {
    if (t->tag == ETag::Var) return f(t->n);
    if (trivial(t)) return t;
    ETm* c = out.make<ETm>(*t);
    if (t->args) {
      c->args = out.array<ETm*>(t->n);
      std::copy(t->args, t->args + t->n, c->args);
    }
    forEachChild(c, 0, [&](ETm*& ch, uint32_t) { ch = mapLevels(ch, f); });
    return c;
  }
  ETm* relocate(ETm* t, uint32_t from, uint32_t to) {
    if (from == to || trivial(t)) return t;
    return mapLevels(t, [&](uint32_t l) { return var(l >= from ? l + (to - from) : l); });
  }
  ETm* toIndices(ETm* t, uint32_t d) {
    if (t->tag == ETag::Var) {
      ETm* e = node(ETag::Var);
      e->n = d - t->n - 1;
      return e;
    }
    if (t->tag == ETag::Lit || t->tag == ETag::Global || t->tag == ETag::Erased) return t;
    ETm* c = out.make<ETm>(*t);
    if (t->args) {
      c->args = out.array<ETm*>(t->n);
      std::copy(t->args, t->args + t->n, c->args);
    }
    forEachChild(c, d, [&](ETm*& ch, uint32_t dd) { ch = toIndices(ch, dd); });
    return c;
  }

  // --- scopes and sharing --------------------------------------------------
  // Dynamic code bound to a variable is let-bound once (not duplicated).
  PV* share(PV* v) {
    if (v->kind != PV::Dyn || trivial(v->t)) return v;
    lets.push_back(relocate(v->t, v->at, depth));
    return dyn(var(depth++));
  }
  // A dynamic argument of a specialization, bound once: a structure with
  // dynamic parts too (`rect s s`), which its residual code would otherwise
  // build again at each use of the parameter.
  PV* bindWhole(PV* v) {
    if (v->kind == PV::Dyn || closed(v)) return share(v);
    if (v->kind != PV::Pair && v->kind != PV::Arr && v->kind != PV::Con) return v;
    lets.push_back(resid(v));
    return dyn(var(depth++));
  }
  // Code whose lets must stay inside it (a branch, a λ body, a function).
  template <class F> ETm* scope(F&& body) {
    size_t mark = lets.size();
    uint32_t d0 = depth;
    ETm* code = resid(body());
    for (size_t i = lets.size(); i-- > mark;) {
      ETm* l = node(ETag::Let);
      l->a = lets[i];
      l->b = code;
      code = l;
    }
    lets.resize(mark);
    depth = d0;
    return code;
  }

  // The residual code of a partial value, at the current depth.
  ETm* resid(PV* v) {
    switch (v->kind) {
    case PV::Dyn: return relocate(v->t, v->at, depth);
    case PV::Lit: return v->t;
    case PV::Erased: {
      ETm* e = node(ETag::Erased);
      e->n = v->n; // (a machine type, see ETm)
      return e;
    }
    case PV::Global: return globalNode(v->id);
    case PV::Pair: {
      ETm* e = node(ETag::Pair);
      e->a = resid(v->a);
      e->b = resid(v->b);
      return e;
    }
    case PV::Arr:
    case PV::Con: {
      ETm* e = node(v->kind == PV::Arr ? ETag::Arr : ETag::Con);
      if (v->con) {
        e->prim = v->con->prim;
        e->bits = v->con->bits;
        e->flags = v->con->flags & kConCell;
      }
      e->n = v->n;
      e->args = out.array<ETm*>(v->n);
      for (uint32_t i = 0; i < v->n; ++i)
        e->args[i] = resid(v->elems[i]);
      return e;
    }
    case PV::App: { // (computed again where it is used: cheap by its axiom's word)
      ETm* e = node(ETag::Prim);
      e->prim = v->con->prim;
      e->span = v->con->span;
      e->n = v->n;
      e->args = out.array<ETm*>(v->n);
      for (uint32_t i = 0; i < v->n; ++i)
        e->args[i] = resid(v->elems[i]);
      return e;
    }
    case PV::Clo: { // a residual λ (its filter is spent)
      ETm* lam = v->t;
      PEnv* env = v->env;
      uint32_t base = depth;
      for (uint32_t i = 0; i < lam->n; ++i)
        env = push(env, dyn(var(base + i)));
      depth += lam->n;
      ETm* body = scope([&] { return pe(lam->a, env); });
      depth = base;
      ETm* e = node(ETag::Lam);
      e->n = lam->n;
      e->names = lam->names;
      e->a = body;
      return e;
    }
    }
    return node(ETag::Erased);
  }

  PEnv* push(PEnv* e, PV* v) { return tmp.make<PEnv>(PEnv{e, v}); }

  // --- what is known -------------------------------------------------------
  // Which variables of its environment a closure uses (by index).
  std::vector<bool> captured(PV* v) {
    size_t n = 0;
    for (PEnv* e = v->env; e; e = e->prev)
      ++n;
    std::vector<bool> fv(n, false);
    freeVars(v->t->a, v->t->n, fv);
    if (v->t->b) freeVars(v->t->b, v->t->n, fv);
    return fv;
  }
  bool closed(PV* v) {
    switch (v->kind) {
    case PV::Dyn: return false;
    case PV::Pair: return closed(v->a) && closed(v->b);
    case PV::Con:
    case PV::Arr:
    case PV::App:
      for (uint32_t i = 0; i < v->n; ++i)
        if (!closed(v->elems[i])) return false;
      return true;
    case PV::Clo: {
      std::vector<bool> fv = captured(v);
      PEnv* e = v->env;
      for (uint32_t i = 0; e && i < fv.size(); ++i, e = e->prev)
        if (fv[i] && !closed(e->v)) return false;
      return true;
    }
    default: return true;
    }
  }
  // A key for a closed value (and its printed form).
  std::string key(PV* v) {
    switch (v->kind) {
    case PV::Lit:
      if (LitKind(v->t->n) == LitKind::Str || LitKind(v->t->n) == LitKind::BigNat)
        return showLit(LitKind(v->t->n), v->t->bits, v->t->big);
      return fmt::format("{}:{}", v->t->n, v->t->bits);
    case PV::Erased: return v->n ? fmt::format("*{}", v->n) : "*"; // (machine types differ in code)
    case PV::Global: return fmt::format("g{}", v->id);
    case PV::Pair: return "(" + key(v->a) + "," + key(v->b) + ")";
    case PV::App: {
      std::string s = fmt::format("p{}(", v->con->prim);
      for (uint32_t i = 0; i < v->n; ++i)
        s += (i ? "," : "") + key(v->elems[i]);
      return s + ")";
    }
    case PV::Arr:
    case PV::Con: {
      std::string s = v->con ? fmt::format("c{}[", v->con->bits) : "[";
      for (uint32_t i = 0; i < v->n; ++i)
        s += (i ? "," : "") + key(v->elems[i]);
      return s + "]";
    }
    case PV::Clo: {
      std::string s = fmt::format("λ{}", static_cast<const void*>(v->t));
      std::vector<bool> fv = captured(v);
      PEnv* e = v->env;
      for (uint32_t i = 0; e && i < fv.size(); ++i, e = e->prev)
        if (fv[i]) s += fmt::format(" {}={}", i, key(e->v));
      return s;
    }
    case PV::Dyn: return "_";
    }
    return "?";
  }
  std::string shown(PV* v) {
    switch (v->kind) {
    case PV::Lit: return showLit(LitKind(v->t->n), v->t->bits, v->t->big);
    case PV::Erased: return "*";
    case PV::Global: return rt.nameOf(v->id);
    case PV::Pair: return "(" + shown(v->a) + ", " + shown(v->b) + ")";
    case PV::Arr: {
      std::string s = "[";
      for (uint32_t i = 0; i < v->n; ++i)
        s += (i ? ", " : "") + shown(v->elems[i]);
      return s + "]";
    }
    case PV::Con: {
      std::string s = rt.nameOf(TopId(v->con->bits));
      if (v->n == 0) return s;
      s = "(" + s;
      for (uint32_t i = 0; i < v->n; ++i)
        s += " " + shown(v->elems[i]);
      return s + ")";
    }
    case PV::App: {
      std::string s = "(" + AxiomTable::get()[primById(v->con->prim).axiom].name;
      for (uint32_t i = 0; i < v->n; ++i)
        s += " " + shown(v->elems[i]);
      return s + ")";
    }
    case PV::Clo: return "λ";
    case PV::Dyn: return "_";
    }
    return "?";
  }

  // --- evaluation ----------------------------------------------------------
  PV* pe(ETm* t, PEnv* env) {
    guard();
    switch (t->tag) {
    case ETag::Var: return lookup(env, t->n);
    case ETag::Global: return global(t->n);
    case ETag::Lit: return lit(t);
    case ETag::Erased: return t->n ? erasedOf(t->n) : erasedPV;
    case ETag::Known: return litOf(LitKind::Bool, inFilter && closed(lookup(env, t->n)) ? 1 : 0);
    case ETag::Lam: {
      PV* v = mk(PV::Clo);
      v->t = t;
      v->env = env;
      return v;
    }
    case ETag::App: {
      PV* f = pe(t->a, env);
      if (t->n && mayEmit(t->args[0])) f = share(f);
      std::vector<PV*> args = peArgs(t->args, t->n, env);
      return apply(f, args);
    }
    case ETag::Prim: return prim(t, peArgs(t->args, t->n, env));
    case ETag::PrimPap: {
      std::vector<PV*> args = peArgs(t->args, t->n, env);
      ETm* e = node(ETag::PrimPap);
      *e = *t;
      e->args = out.array<ETm*>(t->n);
      for (uint32_t i = 0; i < t->n; ++i)
        e->args[i] = resid(args[i]);
      return dyn(e);
    }
    case ETag::Let: {
      PV* v = share(pe(t->a, env));
      return pe(t->b, push(env, v));
    }
    case ETag::If: {
      PV* c = pe(t->a, env);
      if (c->kind == PV::Lit) return pe(c->t->bits ? t->b : t->c, env);
      ETm* e = node(ETag::If);
      e->a = resid(c);
      e->b = scope([&] { return pe(t->b, env); });
      e->c = scope([&] { return pe(t->c, env); });
      return dyn(e);
    }
    case ETag::Pair: {
      PV* v = mk(PV::Pair);
      v->a = share(pe(t->a, env));
      v->b = share(pe(t->b, env));
      return v;
    }
    case ETag::Proj1:
    case ETag::Proj2: {
      PV* p = pe(t->a, env);
      if (p->kind == PV::Pair) return t->tag == ETag::Proj1 ? p->a : p->b;
      ETm* e = node(t->tag);
      e->a = resid(p);
      return dyn(e);
    }
    case ETag::Arr:
    case ETag::Con: { // (a known data value: its cases and fields fold)
      PV* v = mk(t->tag == ETag::Arr ? PV::Arr : PV::Con);
      if (t->tag == ETag::Con) v->con = t;
      v->n = t->n;
      v->elems = tmp.array<PV*>(t->n);
      for (uint32_t i = 0; i < t->n; ++i)
        v->elems[i] = share(pe(t->args[i], env));
      return v;
    }
    case ETag::Field: {
      PV* d = pe(t->a, env);
      if (d->kind == PV::Con && t->n < d->n) return d->elems[t->n];
      ETm* e = node(ETag::Field);
      e->n = t->n;
      e->a = resid(d);
      return dyn(e);
    }
    case ETag::Case: {
      PV* d = pe(t->a, env);
      if (d->kind == PV::Con && d->con->prim < t->n) return pe(t->args[d->con->prim], env);
      ETm* e = node(ETag::Case);
      e->n = t->n;
      e->bits = t->bits;
      e->a = resid(d);
      e->args = out.array<ETm*>(t->n);
      for (uint32_t i = 0; i < t->n; ++i)
        e->args[i] = scope([&] { return pe(t->args[i], env); });
      return dyn(e);
    }
    }
    return erasedPV;
  }

  // Arguments left to right; an argument that may emit lets first shares the
  // ones before it, so that they are still computed first.
  std::vector<PV*> peArgs(ETm** args, uint32_t n, PEnv* env) {
    std::vector<PV*> vs;
    for (uint32_t i = 0; i < n; ++i) {
      if (i > 0 && mayEmit(args[i]))
        for (auto& v : vs)
          v = share(v);
      vs.push_back(pe(args[i], env));
    }
    return vs;
  }

  /// `whose`: the function the filter belongs to (for the warning; -1: a λ).
  bool holds(ETm* filter, PEnv* env, PV* const* args, uint32_t k, int64_t whose) {
    if (exhausted) return false;
    if (filter->tag == ETag::Lit) return filter->bits != 0; // `@`
    // A filter that calls filtered functions evaluates their filters too: a
    // filter that needs itself would never finish.
    if (filterNesting >= 32) {
      exhausted = true;
      std::string name = whose < 0 ? "a λ" : rt.nameOf(TopId(whose));
      rt.err << fmt::format("warning: specialization stopped: the filter of {} depends on itself "
                            "(it calls {}); the calls stay unspecialized\n",
                            name, name);
      return false;
    }
    ++filterNesting;
    struct Out {
      uint32_t& n;
      ~Out() { --n; }
    } out{filterNesting};
    for (uint32_t i = 0; i < k; ++i)
      env = push(env, args[i]);
    size_t mark = lets.size();
    uint32_t d = depth;
    bool saved = inFilter;
    inFilter = true;
    PV* r = pe(filter, env);
    inFilter = saved;
    lets.resize(mark); // (a filter's own residual code is dropped)
    depth = d;
    return r->kind == PV::Lit && r->t->bits != 0;
  }

  bool spend(const std::function<std::string()>& call, const char* why) {
    if (exhausted) return false;
    if (fuel > 0 && stack.size() < lim.nesting && size < lim.budget) {
      --fuel;
      return true;
    }
    exhausted = true;
    rt.err << fmt::format(
        "warning: specialization stopped at `{}` ({}); the call stays unspecialized\n", call(),
        fuel == 0                     ? why
        : stack.size() >= lim.nesting ? "too many nested unfoldings"
                                      : "the code grew too big");
    return false;
  }

  PV* apply(PV* f, std::vector<PV*>& args) {
    while (!args.empty()) {
      if (f->kind == PV::Clo && f->t->b && args.size() >= f->t->n &&
          holds(f->t->b, f->env, args.data(), f->t->n, -1)) {
        uint32_t k = f->t->n;
        if (!spend([&] { return "λ"; }, "out of fuel")) break;
        PEnv* env = f->env;
        for (uint32_t i = 0; i < k; ++i)
          env = push(env, share(args[i]));
        args.erase(args.begin(), args.begin() + k);
        f = pe(f->t->a, env);
        continue;
      }
      if (f->kind == PV::Global && !isSpec(f->id)) {
        Global& g = rt.erased(f->id);
        ETm* src = g.source;
        if (src && src->tag == ETag::Lam && src->b && args.size() >= src->n &&
            holds(src->b, nullptr, args.data(), src->n, int64_t(f->id))) {
          uint32_t k = src->n;
          std::vector<PV*> mine(args.begin(), args.begin() + k);
          PV* r = specialize(f->id, src, mine);
          if (!r) break;
          args.erase(args.begin(), args.begin() + k);
          f = r;
          continue;
        }
      }
      break;
    }
    if (args.empty()) return f;
    ETm* e = node(ETag::App);
    e->a = resid(f);
    e->n = uint32_t(args.size());
    e->args = out.array<ETm*>(args.size());
    for (size_t i = 0; i < args.size(); ++i)
      e->args[i] = resid(args[i]);
    return dyn(e);
  }

  // `id` (whose λ group is `src`) applied to `args`, its filter holding.
  PV* specialize(TopId id, ETm* src, std::vector<PV*>& args) {
    uint32_t k = src->n;
    std::vector<bool> isStatic(k);
    std::string memoKey = fmt::format("{}", id), printed;
    for (uint32_t i = 0; i < k; ++i) {
      isStatic[i] = closed(args[i]);
      memoKey += " " + (isStatic[i] ? key(args[i]) : std::string("_"));
      printed += (i ? " " : "") + (isStatic[i] ? shown(args[i]) : std::string("_"));
    }
    std::vector<PV*> dynArgs;
    for (uint32_t i = 0; i < k; ++i)
      if (!isStatic[i]) dynArgs.push_back(bindWhole(args[i]));
    auto callFn = [&](TopId fn) -> PV* {
      used->push_back(fn);
      if (dynArgs.empty()) return dyn(globalNode(fn));
      ETm* e = node(ETag::App);
      e->a = globalNode(fn);
      e->n = uint32_t(dynArgs.size());
      e->args = out.array<ETm*>(dynArgs.size());
      for (size_t i = 0; i < dynArgs.size(); ++i)
        e->args[i] = resid(dynArgs[i]);
      return dyn(e);
    };
    // A recursive call with the same static arguments: the loop closes.
    for (Building* b : stack)
      if (b->key == memoKey) {
        if (!b->fn) b->fn = rt.addSpec(info(id, printed, memoKey, isStatic), node(ETag::Erased));
        return callFn(b->fn);
      }
    if (auto it = memo.find(memoKey); it != memo.end()) {
      if (it->second.value) return it->second.value;
      if (it->second.body) return dyn(instantiate(it->second.body, it->second.m, dynArgs));
      return callFn(it->second.fn);
    }
    if (TopId* fn = rt.findSpec(memoKey)) { // made by an earlier run
      for (TopId d : rt.spec(*fn).deps)
        deps.push_back(d);
      return callFn(*fn);
    }
    if (!spend([&] { return fmt::format("{} {}", rt.nameOf(id), printed); }, "out of fuel"))
      return nullptr;
    deps.push_back(id);

    // Build it as a function of its dynamic parameters, in a fresh scope.
    Building b{memoKey};
    stack.push_back(&b);
    std::vector<ETm*> savedLets;
    savedLets.swap(lets);
    uint32_t savedDepth = depth;
    depth = 0;
    PEnv* env = nullptr;
    uint32_t m = 0;
    for (uint32_t i = 0; i < k; ++i)
      env = push(env, isStatic[i] ? args[i] : dyn(var(m++)));
    depth = m;
    PV* result = nullptr;
    ETm* body = scope([&] { return result = pe(src->a, env); });
    stack.pop_back();
    lets.swap(savedLets);
    depth = savedDepth;
    uint32_t sz = uint32_t(countNodes(body));
    size += sz;

    Memo& me = memo[memoKey];
    if (!b.fn && closed(result)) { // everything was known
      me.value = result;
      return result;
    }
    if (!b.fn && sz <= lim.inlineSize) {
      me.body = body;
      me.m = m;
      return dyn(instantiate(body, m, dynArgs));
    }
    ETm* fnBody = toIndices(body, m);
    if (m > 0) {
      ETm* lam = node(ETag::Lam);
      lam->n = m;
      Name* names = out.array<Name>(m);
      for (uint32_t i = 0, j = 0; i < k; ++i)
        if (!isStatic[i]) names[j++] = src->names ? src->names[i] : Name{};
      lam->names = names;
      lam->a = fnBody;
      fnBody = lam;
    }
    TopId fn = b.fn;
    if (fn) {
      Global& g = rt.global(fn);
      g.source = g.body = fnBody;
      g.arity = m;
      markShares(fnBody, rt.arena());
    } else {
      fn = rt.addSpec(info(id, printed, memoKey, isStatic), fnBody);
    }
    SpecInfo& si = rt.spec(fn);
    si.size = sz;
    si.deps = deps;
    me.fn = fn;
    return callFn(fn);
  }

  SpecInfo info(TopId id, const std::string& printed, const std::string& key,
                const std::vector<bool>& isStatic) {
    SpecInfo s;
    s.origin = id;
    s.args = printed;
    s.key = key;
    s.isStatic = isStatic;
    s.deps = deps;
    return s;
  }

  // An inlined specialization: its parameters are the (shared) arguments.
  ETm* instantiate(ETm* body, uint32_t m, const std::vector<PV*>& dynArgs) {
    std::vector<ETm*> codes;
    for (PV* a : dynArgs)
      codes.push_back(resid(a));
    uint32_t d = depth;
    return mapLevels(body, [&](uint32_t l) { return l < m ? codes[l] : var(l - m + d); });
  }

  // --- primitives ----------------------------------------------------------
  PV* prim(ETm* t, std::vector<PV*> args) {
    const Prim& p = primById(t->prim);
    auto isLit = [](PV* v) { return v->kind == PV::Lit; };
    const AxiomTable& axioms = AxiomTable::get();
    if (axioms.is(p.axiom, Builtin::ArrGet) && args.size() == p.arity &&
        args[p.arity - 2]->kind == PV::Arr && isLit(args[p.arity - 1])) {
      PV* a = args[p.arity - 2];
      uint64_t i = args[p.arity - 1]->t->bits;
      if (i < a->n) return a->elems[i];
    }
    if (axioms.is(p.axiom, Builtin::ArrLength) && args.size() == p.arity &&
        args[p.arity - 1]->kind == PV::Arr)
      return litOf(LitKind::Nat, args[p.arity - 1]->n);
    if (PV* v = fold(p, args)) return v;
    if (PV* v = identity(axioms[p.axiom].facts, args)) return v;
    if (axioms[p.axiom].staticValue && args.size() == t->n &&
        std::all_of(args.begin(), args.end(), [&](PV* a) { return closed(a); })) {
      PV* v = mk(PV::App);
      v->con = t;
      v->n = t->n;
      v->elems = tmp.array<PV*>(t->n);
      std::copy(args.begin(), args.end(), v->elems);
      return v;
    }
    ETm* e = node(ETag::Prim);
    e->prim = t->prim;
    e->span = t->span;
    e->n = t->n;
    e->args = out.array<ETm*>(t->n);
    for (uint32_t i = 0; i < t->n; ++i)
      e->args[i] = resid(args[i]);
    return dyn(e);
  }

  // Constant folding by the plugin's normalizer (as elaboration does).
  PV* fold(const Prim& p, const std::vector<PV*>& args) {
    const Axiom* ax = &AxiomTable::get()[p.axiom];
    if (!ax->norm || args.size() != ax->arity) return nullptr;
    World& w = rt.world();
    std::vector<Val*> vs;
    bool any = false;
    for (PV* a : args) {
      if (a->kind == PV::Erased) {
        vs.push_back(vUnused());
        continue;
      }
      if (a->kind != PV::Lit) return nullptr;
      LitKind k = LitKind(a->t->n);
      Val* v = vLit(w, k, a->t->bits);
      if (k == LitKind::Str || k == LitKind::BigNat) v->big = a->t->big; // (interned: never freed)
      vs.push_back(v);
      any = true;
    }
    if (!any) return nullptr;
    Val* r = ax->norm(w, vs.data());
    if (!r || r->tag != VTag::Lit) return nullptr;
    LitKind k = LitKind(r->n);
    // (A new string lives in the World's arena, which a failed entry rolls
    // back under the specialization cache; big naturals are interned for good.)
    if (k == LitKind::Str) return nullptr;
    if (k == LitKind::BigNat) {
      PV* l = litOf(k, 0);
      l->t->big = r->big;
      return l;
    }
    return litOf(k, r->bits);
  }

  // x ⊕ u = u ⊕ x = x for the operation's unit u (the plugin's algebraic
  // facts: x * 1, x + 0 on integers, x * 1.0 on floats).
  PV* identity(const AlgebraicFacts& facts, const std::vector<PV*>& args) {
    if (args.size() != 2 || !facts.unit) return nullptr;
    auto isUnit = [&](PV* v) { return v->kind == PV::Lit && v->t->bits == *facts.unit; };
    if (isUnit(args[1])) return args[0];
    if (isUnit(args[0])) return args[1];
    return nullptr;
  }

  // --- entry points --------------------------------------------------------
  ETm* function(ETm* t) {
    if (t->tag == ETag::Lam) {
      PEnv* env = nullptr;
      for (uint32_t i = 0; i < t->n; ++i)
        env = push(env, dyn(var(i)));
      depth = t->n;
      ETm* body = scope([&] { return pe(t->a, env); });
      ETm* lam = node(ETag::Lam);
      lam->n = t->n;
      lam->names = t->names;
      lam->a = toIndices(body, t->n);
      return lam;
    }
    depth = 0;
    return toIndices(scope([&] { return pe(t, nullptr); }), 0);
  }
};

Specializer::Specializer(Runtime& rt) : Specializer(rt, Limits{}) {}
Specializer::Specializer(Runtime& rt, Limits limits) : impl_(std::make_unique<Impl>(rt, limits)) {}
Specializer::~Specializer() = default;

ETm* Specializer::function(ETm* t, std::vector<TopId>& used) {
  impl_->used = &used;
  try {
    return impl_->function(t);
  } catch (DepthExceeded&) {
    impl_->rt.err << "warning: specialization recursed too deeply; the code stays unspecialized\n";
    used.clear();
    return t;
  }
}

ETm* Specializer::residual(TopId id, const std::vector<ETm*>& args) {
  std::vector<TopId> used;
  Impl& s = *impl_;
  s.used = &used;
  Global& g = s.rt.erased(id);
  ETm* src = g.source;
  if (!src) return nullptr;
  // λ p₁…p_d. f a₁…a_n with the `_` arguments as parameters.
  uint32_t d = 0;
  for (ETm* a : args)
    if (!a) ++d;
  s.depth = d;
  std::vector<PV*> pvs;
  uint32_t next = 0;
  for (ETm* a : args)
    pvs.push_back(a ? s.pe(a, nullptr) : s.dyn(s.var(next++)));
  // NAME itself is unfolded, filter or not (the calls inside follow their filters).
  ETm* body = s.scope([&] {
    if (src->tag == ETag::Lam && pvs.size() >= src->n) {
      std::vector<PV*> mine(pvs.begin(), pvs.begin() + src->n);
      if (PV* r = s.specialize(id, src, mine)) {
        std::vector<PV*> rest(pvs.begin() + src->n, pvs.end());
        return s.apply(r, rest);
      }
    }
    return s.apply(s.global(id), pvs);
  });
  ETm* code = s.toIndices(body, d);
  if (d == 0) return code;
  ETm* lam = s.node(ETag::Lam);
  lam->n = d;
  Name* names = s.out.array<Name>(d);
  for (uint32_t i = 0, j = 0; i < args.size() && j < d; ++i)
    if (!args[i])
      names[j++] = src->tag == ETag::Lam && src->names && i < src->n ? src->names[i] : Name{};
  lam->names = names;
  lam->a = code;
  return lam;
}

// --- printing ----------------------------------------------------------------

namespace {

struct EPrinter {
  Runtime& rt;
  std::vector<std::string> names;
  std::string out;
  uint32_t fresh = 0;

  std::string name(Name n) {
    std::string base = n && str(n) != "_" ? std::string(str(n)) : "x";
    std::string s = base;
    for (uint32_t k = 1; std::find(names.begin(), names.end(), s) != names.end(); ++k)
      s = base + std::to_string(k);
    return s;
  }
  static std::string opName(AxiomId axiom) { return AxiomTable::get()[axiom].op; }
  // A primitive by the name users write (`idx` for %core.idx.of).
  std::string primName(AxiomId ax) {
    const std::string& axiom = AxiomTable::get()[ax].name;
    World& w = rt.world();
    int32_t id = w.lookupTop(intern(axiom));
    if (id >= 0 && w.tops[id].alias >= 0) return std::string(str(w.tops[w.tops[id].alias].name));
    return axiom.substr(axiom.rfind('.') + 1);
  }
  // Precedences: 0 let/λ/if, 1.. operators, 10 application, 11 atom.
  void print(ETm* t, int prec) {
    switch (t->tag) {
    case ETag::Var:
      out += t->n < names.size() ? names[names.size() - 1 - t->n] : fmt::format("#{}", t->n);
      break;
    case ETag::Global: out += rt.nameOf(t->n); break;
    case ETag::Lit: out += showLit(LitKind(t->n), t->bits, t->big); break;
    case ETag::Erased: out += "_"; break;
    case ETag::Known: out += "?"; break;
    case ETag::Lam: {
      if (prec > 0) out += "(";
      out += "λ";
      for (uint32_t i = 0; i < t->n; ++i) {
        std::string x = name(t->names ? t->names[i] : Name{});
        names.push_back(x);
        out += " " + x;
      }
      out += ". ";
      print(t->a, 0);
      names.resize(names.size() - t->n);
      if (prec > 0) out += ")";
      break;
    }
    case ETag::Let: {
      if (prec > 0) out += "(";
      std::string x = fmt::format("v{}", fresh++);
      out += "let " + x + " = ";
      print(t->a, 0);
      out += "; ";
      names.push_back(x);
      print(t->b, 0);
      names.pop_back();
      if (prec > 0) out += ")";
      break;
    }
    case ETag::If:
      if (prec > 0) out += "(";
      out += "if ";
      print(t->a, 0);
      out += " then ";
      print(t->b, 0);
      out += " else ";
      print(t->c, 0);
      if (prec > 0) out += ")";
      break;
    case ETag::App:
    case ETag::Prim:
    case ETag::PrimPap: {
      std::string op = t->tag == ETag::Prim ? opName(primById(t->prim).axiom) : "";
      std::vector<ETm*> args;
      for (uint32_t i = 0; i < t->n; ++i)
        if (t->args[i]->tag != ETag::Erased) args.push_back(t->args[i]);
      if (!op.empty() && args.size() == 2) {
        int p = operatorPrecedence(op);
        if (prec > p) out += "(";
        print(args[0], p);
        out += " " + op + " ";
        print(args[1], p + 1);
        if (prec > p) out += ")";
        break;
      }
      if (prec > 9) out += "(";
      if (t->tag == ETag::App) {
        print(t->a, 10);
      } else {
        out += primName(primById(t->prim).axiom);
      }
      for (ETm* a : args) {
        out += " ";
        print(a, 10);
      }
      if (prec > 9) out += ")";
      break;
    }
    case ETag::Pair:
      out += "(";
      print(t->a, 0);
      out += ", ";
      print(t->b, 0);
      out += ")";
      break;
    case ETag::Proj1:
    case ETag::Proj2:
      print(t->a, 10);
      out += t->tag == ETag::Proj1 ? ".1" : ".2";
      break;
    case ETag::Arr:
      out += "[";
      for (uint32_t i = 0; i < t->n; ++i) {
        if (i) out += ", ";
        print(t->args[i], 0);
      }
      out += "]";
      break;
    case ETag::Con:
      if (prec > 9 && t->n) out += "(";
      out += rt.nameOf(TopId(t->bits));
      for (uint32_t i = 0; i < t->n; ++i) {
        out += " ";
        print(t->args[i], 10);
      }
      if (prec > 9 && t->n) out += ")";
      break;
    case ETag::Field:
      print(t->a, 10);
      out += fmt::format(".#{}", t->n);
      break;
    case ETag::Case: {
      if (prec > 0) out += "(";
      out += "case ";
      print(t->a, 0);
      out += " of { ";
      const DataInfo* d = rt.world().tops[TopId(t->bits)].data;
      for (uint32_t i = 0; i < t->n; ++i) {
        if (i) out += "; ";
        out += d && i < d->nCons ? rt.nameOf(d->cons[i]) : fmt::format("#{}", i);
        out += " → ";
        print(t->args[i], 0);
      }
      out += " }";
      if (prec > 0) out += ")";
      break;
    }
    }
  }
};

} // namespace

std::string showETm(Runtime& rt, ETm* t) {
  EPrinter p{rt, {}, {}};
  p.print(t, 0);
  return p.out;
}

} // namespace thorin::rt

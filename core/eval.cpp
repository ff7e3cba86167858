#include "eval.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

#include "axiom.hpp"
#include "guard.hpp"
#include "literal.hpp"
#include "per_thread.hpp"
#include "runner.hpp"

namespace thorin {

static Val makeConst(VTag t) {
  Val v;
  v.tag = t;
  return v;
}
static Val gU = makeConst(VTag::U);
static Val gIrrelevant = makeConst(VTag::Irrelevant);
Val* vUniverse() { return &gU; }
Val* vUnused() { return &gIrrelevant; }

Val* mkVal(World& w, VTag tag) {
  Val* v = w.scratch.make<Val>();
  v->tag = tag;
  v->gen = w.gen;
  return v;
}

// `head` applied to more eliminations. For glued heads the new node keeps a
// pointer to `head` (in `b`), so that unfolding it can start from head's own
// cached unfolding instead of unfolding the definition again (the sharing
// that call-by-need gives smalltt).
static Val* neutral(World& w, Val* head, Spine* sp) {
  Val* v = mkVal(w, head->tag);
  v->n = head->n;
  v->sp = sp;
  v->axiom = head->axiom;
  v->topFacts = head->topFacts;
  if (head->tag != VTag::Rigid) v->b = head;
  return v;
}

// An axiom applied to exactly its arity: run its normalizer on the forced
// arguments. nullptr: stuck (the application stays neutral).
static Val* normalizeAxiom(World& w, Val* v) {
  const Axiom* ax = w.tops[v->n].axiom;
  if (!v->sp || v->sp->len != ax->arity) return nullptr;
  constexpr size_t kMax = 8;
  Val* args[kMax];
  Val* given[kMax];
  if (ax->arity > kMax) return nullptr;
  uint32_t i = ax->arity;
  bool final = true; // no argument can change any more (then neither can the result)
  for (Spine* s = v->sp; s; s = s->prev) {
    if (s->kind != Elim::App) return nullptr;
    Val* a = forceAll(w, s->arg);
    final &= a->tag != VTag::Flex && !(a->tag == VTag::Top && a->axiom == 1);
    args[--i] = a;
    given[i] = s->arg;
  }
  Val* r = ax->norm(w, args);
  // An identity (`x + 0 ▷ x`) gives the argument as written, still folded
  // (`g y`, not g's unfolding): messages and normal forms keep the names.
  for (uint32_t k = 0; r && k < ax->arity; ++k)
    if (r == args[k]) return given[k];
  // Stuck for good: do not run the normalizer again (forcing a term that uses
  // this value twice per level would otherwise take exponential time).
  if (!r && final) v->axiom = 2;
  return r;
}

// At construction, an axiom application folds at once only if no argument
// needs unfolding (a definition, a call, another pending axiom application):
// otherwise it stays as it is until something forces it, so that an operator
// on an unused value (`let y = loop 0 * 2; 0`) does not run the loop, as lazy
// evaluation would not.
static Val* axiomApp(World& w, Val* v) {
  if (v->axiom != 1 || !v->sp) [[likely]]
    return v;
  for (Spine* s = v->sp; s; s = s->prev)
    if (s->kind == Elim::App) {
      Val* a = force(w, s->arg);
      if (a->tag == VTag::Top && (a->axiom == 1 || (!a->axiom && w.tops[a->n].def))) return v;
    }
  if (Val* r = normalizeAxiom(w, v)) return r;
  return v;
}

Val* natOffset(World& w, Val* v, uint64_t& k) {
  if (v->tag != VTag::Top || !v->axiom ||
      !AxiomTable::get().is(w.tops[v->n].axiom->id, Builtin::NatAdd))
    return nullptr;
  Spine* sp = v->sp;
  if (!sp || sp->len != 2 || sp->kind != Elim::App || sp->prev->kind != Elim::App) return nullptr;
  Val* x = forceAll(w, sp->prev->arg);
  Val* c = forceAll(w, sp->arg);
  auto small = [](Val* y) { return y->tag == VTag::Lit && LitKind(y->n) == LitKind::Nat; };
  if (!small(c)) std::swap(x, c);
  if (!small(c)) return nullptr;
  k = c->bits;
  return x;
}

static Val* envAt(Env* e, Ix i) {
  while (i--)
    e = e->prev;
  return e->v;
}

static Spine* snoc(World& w, Spine* sp, Elim k, Val* arg, Icit i) {
  return w.scratch.make<Spine>(sp, arg, k, i, sp ? sp->len + 1 : 1);
}

Val* apply(World& w, Val* c, Val* arg) { return eval(w, extend(w, c->env, arg), c->body); }

Val* vApp(World& w, Val* f, Val* a, Icit i) {
  switch (f->tag) {
  case VTag::Lam: return apply(w, f, a);
  case VTag::Rigid:
  case VTag::Flex:
  case VTag::Top: return axiomApp(w, neutral(w, f, snoc(w, f->sp, Elim::App, a, i)));
  case VTag::Irrelevant: return f;
  default: throw std::logic_error("vApp: not a function");
  }
}

Val* vAppNormal(World& w, Val* f, Val* a, Icit i) {
  Val* v = neutral(w, f, snoc(w, f->sp, Elim::App, a, i));
  if (v->tag == VTag::Top && v->axiom) v->axiom = 2; // (stuck for good: normal already)
  return v;
}

Val* vProj1(World& w, Val* v) {
  switch (v->tag) {
  case VTag::Pair: return v->a;
  case VTag::Rigid:
  case VTag::Flex:
  case VTag::Top: return neutral(w, v, snoc(w, v->sp, Elim::Proj1, nullptr, Icit::Expl));
  case VTag::Irrelevant: return v;
  default: throw std::logic_error("vProj1: not a pair");
  }
}

Val* vProj2(World& w, Val* v) {
  switch (v->tag) {
  case VTag::Pair: return v->b;
  case VTag::Rigid:
  case VTag::Flex:
  case VTag::Top: return neutral(w, v, snoc(w, v->sp, Elim::Proj2, nullptr, Icit::Expl));
  case VTag::Irrelevant: return v;
  default: throw std::logic_error("vProj2: not a pair");
  }
}

Val* vIf(World& w, Val* c, Val* thunk) {
  Tm* t = thunk->body;
  c = forceAll(w, c);
  if (c->tag == VTag::Lit) return eval(w, thunk->env, c->bits ? t->b : t->c);
  if (c->tag == VTag::Irrelevant) return c;
  Val* head = c;
  if (c->tag == VTag::Top || c->tag == VTag::Flex || c->tag == VTag::Rigid)
    return neutral(w, head, snoc(w, c->sp, Elim::If, thunk, Icit::Expl));
  throw std::logic_error("vIf: not a Bool");
}

// The alternative of case term t for constructor `con` (or its default), or null.
static const CaseAlt* altFor(Tm* t, TopId con) {
  const CaseAlt* dflt = nullptr;
  for (uint32_t i = 0; i < t->n; ++i) {
    if (t->alts[i].con == con) return &t->alts[i];
    if (t->alts[i].con == kDefaultAlt) dflt = &t->alts[i];
  }
  return dflt;
}

Val* vCase(World& w, Val* s, Val* thunk) {
  Tm* t = thunk->body;
  s = forceAll(w, s);
  if (s->tag == VTag::Top && w.tops[s->n].conOf >= 0) {
    const CaseAlt* alt = altFor(t, s->n);
    if (!alt) throw std::logic_error("vCase: no alternative");
    Env* env = thunk->env;
    if (alt->arity > 0) { // the constructor's last `arity` arguments (its fields)
      std::vector<Val*> fields;
      for (Spine* sp = s->sp; sp && fields.size() < alt->arity; sp = sp->prev)
        fields.push_back(sp->arg);
      for (size_t i = fields.size(); i-- > 0;)
        env = extend(w, env, fields[i]);
    }
    return eval(w, env, alt->body);
  }
  if (s->tag == VTag::Irrelevant) return s;
  if (s->tag == VTag::Top || s->tag == VTag::Flex || s->tag == VTag::Rigid)
    return neutral(w, s, snoc(w, s->sp, Elim::Case, thunk, Icit::Expl));
  throw std::logic_error("vCase: not a value of a data type");
}

static Val* elim(World& w, Val* f, Spine* s) {
  switch (s->kind) {
  case Elim::App: return vApp(w, f, s->arg, s->icit);
  case Elim::Proj1: return vProj1(w, f);
  case Elim::Proj2: return vProj2(w, f);
  case Elim::If: return vIf(w, f, s->arg);
  case Elim::Case: return vCase(w, f, s->arg);
  }
  return f;
}

// `sp` extended by n applications, the j-th argument (with its icit) given
// by arg(j). The cells in one allocation: the arena's pointer is read and
// written once, not once per argument.
template <class Arg> static Spine* appendApps(World& w, Spine* sp, size_t n, Arg arg) {
  Spine* cells = w.scratch.array<Spine>(n);
  uint32_t len = sp ? sp->len : 0;
  for (size_t j = 0; j < n; ++j) {
    auto [v, icit] = arg(j);
    cells[j] = Spine{sp, v, Elim::App, icit, ++len};
    sp = cells + j;
  }
  return sp;
}

// Applies f to several arguments at once: a curried λ consumes them without
// allocating the intermediate closures, a neutral gets one node for all.
static Val* vApps(World& w, Val* f, Val* const* args, const Icit* icits, size_t n) {
  size_t i = 0;
  while (i < n) {
    switch (f->tag) {
    case VTag::Lam: {
      Env* env = extend(w, f->env, args[i++]);
      Tm* body = f->body;
      while (i < n && body->tag == TTag::Lam) {
        env = extend(w, env, args[i++]);
        body = body->a;
      }
      f = eval(w, env, body);
      break;
    }
    case VTag::Rigid:
    case VTag::Flex:
    case VTag::Top: {
      Spine* sp = f->sp;
      if (f->axiom) [[unlikely]] { // one argument at a time: it may fire midway
        f = vApp(w, f, args[i], icits[i]);
        ++i;
        break;
      }
      return neutral(w, f, appendApps(w, sp, n - i, [&](size_t j) {
                       return std::pair{args[i + j], icits[i + j]};
                     }));
    }
    case VTag::Irrelevant: return f;
    default: throw std::logic_error("vApp: not a function");
    }
  }
  return f;
}

Val* vAppSpine(World& w, Val* f, Spine* sp, Spine* stop) {
  if (sp == stop) return f;
  guard();
  // Gather the run of applications at the end of the spine, apply them at once.
  constexpr size_t kMax = 16;
  Val* args[kMax];
  Icit icits[kMax];
  size_t n = 0;
  Spine* s = sp;
  while (s != stop && s->kind == Elim::App && n < kMax) {
    ++n;
    s = s->prev;
  }
  if (n == 0) return elim(w, vAppSpine(w, f, sp->prev, stop), sp);
  Spine* t = sp;
  for (size_t i = n; i-- > 0; t = t->prev) {
    args[i] = t->arg;
    icits[i] = t->icit;
  }
  return vApps(w, vAppSpine(w, f, s, stop), args, icits, n);
}

// Is `id` a function whose parameters and result are builtin data (Nat, I64,
// F64, Bool, String)? Then a call on literals can run on the runtime.
static uint32_t closedArity(World& w, TopId id) {
  TopEntry& e = w.tops[id];
  if (e.closedCallable == 0) return 0;
  if (e.closedCallable == 1) { // known: its arity is its type's (all explicit Π)
    uint32_t arity = 0;
    for (Tm* ty = e.type; ty->tag == TTag::Pi; ty = ty->b)
      ++arity;
    return arity;
  }
  auto builtinData = [&](Tm* t) {
    Val* v = forceAll(w, eval(w, nullptr, t));
    if (v->tag != VTag::Top || v->sp || !w.tops[v->n].axiom) return false;
    AxiomId id = w.tops[v->n].axiom->id;
    const AxiomTable& axioms = AxiomTable::get();
    return axioms.is(id, Builtin::Nat) || axioms.is(id, Builtin::I64) ||
           axioms.is(id, Builtin::F64) || axioms.is(id, Builtin::Bool) ||
           axioms.is(id, Builtin::String);
  };
  uint32_t arity = 0;
  Tm* ty = e.type;
  bool ok = e.def != nullptr && !e.axiom;
  for (; ok && ty->tag == TTag::Pi; ty = ty->b, ++arity)
    ok = ty->icit == Icit::Expl && !dependsOnVar0(ty->b) && builtinData(ty->a);
  ok = ok && arity > 0 && builtinData(ty);
  e.closedCallable = ok ? 1 : 0;
  return ok ? arity : 0;
}

static Val* tryClosedCall(World& w, Val* v) {
  uint32_t arity = closedArity(w, v->n);
  if (!arity || v->sp->len != arity) return nullptr;
  Val* args[8];
  if (arity > 8) return nullptr;
  uint32_t i = arity;
  for (Spine* s = v->sp; s; s = s->prev) {
    if (s->kind != Elim::App) return nullptr;
    Val* a = forceAll(w, s->arg);
    if (a->tag != VTag::Lit) return nullptr;
    args[--i] = a;
  }
  return w.runner->closedCall(w, v->n, args, arity);
}

// Records a fact about v's definition on v and on the definition's head, from
// which later applications copy it.
static void learn(World& w, Val* v, TopFact f) {
  // (Also on the partial applications v was built on: applications built on
  // them later copy their facts.)
  for (Val* p = v; p; p = p->b) {
    p->topFacts |= f;
    if (p->tag != VTag::Top) break;
  }
  w.topHead(v->n)->topFacts |= f;
}

// Is u the very call v again (`r n = r n`): the same definition on the same
// arguments? Then unfolding v makes no progress and would never end.
static bool sameCall(Val* v, Val* u) {
  if (!u || u->tag != VTag::Top || u->n != v->n) return false;
  Spine *a = v->sp, *b = u->sp;
  for (; a && b; a = a->prev, b = b->prev)
    if (a->kind != b->kind || a->arg != b->arg) return false;
  return !a && !b;
}

// ---------------------------------------------------------------------------
// Weak head normal forms for forceAll

// Can whnf evaluation unfold f's definition in place? A plain definition: not
// an axiom (its normalizer runs on whole applications), not recursive (its
// unfolding need not end, and conversion keeps it folded), not a function the
// runtime may run on literals.
static bool plainTop(World& w, Val* f) {
  if (f->axiom) return false;
  if (!(f->topFacts & kTopNotRecursive)) {
    // (recursiveTop learns kTopNotRecursive when it holds)
    recursiveTop(w, f);
    if (!(f->topFacts & kTopNotRecursive)) return false; // recursive, or no definition yet
  }
  if (w.runner && !(f->topFacts & kTopNotClosedCallable)) {
    if (closedArity(w, f->n)) return false;
    learn(w, f, kTopNotClosedCallable);
  }
  return true;
}

// The pending arguments of whnfApply, shared by nested calls (addressed by
// index: the buffer may move when it grows). An entry is a value with its
// icit in the low bit (values are 8-aligned).
namespace {
struct ArgStack {
  uintptr_t* items = nullptr;
  size_t top = 0, cap = 0;
  ~ArgStack() { std::free(items); }
  void push(Val* v, Icit i) {
    if (top == cap) [[unlikely]]
      grow();
    items[top++] = reinterpret_cast<uintptr_t>(v) | uintptr_t(i);
  }
  [[gnu::noinline]] void grow() {
    // (Out of memory leaves the stack as it was: the session goes on.)
    size_t more = cap ? 2 * cap : 1024;
    auto* a = static_cast<uintptr_t*>(std::realloc(items, more * sizeof(uintptr_t)));
    if (!a) throw std::bad_alloc();
    items = a;
    cap = more;
  }
  static Val* val(uintptr_t x) { return reinterpret_cast<Val*>(x & ~uintptr_t(1)); }
  static Icit icit(uintptr_t x) { return Icit(x & 1); }
};
} // namespace

// f applied to the stack's entries above `base`, the one on top first.
static Val* applyStacked(World& w, Val* f, ArgStack& st, size_t base) {
  size_t i = st.top;
  if (i == base || f->tag == VTag::Irrelevant) return f;
  if ((f->tag == VTag::Rigid || f->tag == VTag::Flex || f->tag == VTag::Top) && !f->axiom) {
    return neutral(w, f, appendApps(w, f->sp, i - base, [&](size_t j) {
                     uintptr_t x = st.items[i - 1 - j];
                     return std::pair{ArgStack::val(x), ArgStack::icit(x)};
                   }));
  }
  while (i-- > base) {
    uintptr_t x = st.items[i]; // (vApp may push: read before)
    f = vApp(w, f, ArgStack::val(x), ArgStack::icit(x));
  }
  return f;
}

// `f` applied to the eliminations of `sp` newer than `stop` (all applications),
// evaluated to weak head normal form with plain definitions unfolded: what
// forceAll(vAppSpine(f, sp, stop)) gives, without building the glued
// applications that forcing would unfold at once (`mul a b N s z` unfolds to
// `a N (b N s) z`, whose head `a` unfolds again…). A Krivine machine: pending
// arguments on a stack, the next one on top. Values that others share (a
// definition's head, a partial application from the environment) still
// cache their own unfolding, so sharing is as with glued evaluation. Where a
// head cannot be unfolded here (a variable, a recursive definition, an axiom)
// the application is built as usual and returned for forceAll to go on.
static Val* whnfApply(World& w, Val* f, Spine* sp, Spine* stop) {
  ArgStack& st = perThread<ArgStack>();
  struct Frame {
    ArgStack& st;
    size_t base;
    ~Frame() { st.top = base; }
  } frame{st, st.top};
  const size_t base = frame.base;
  for (Spine* s = sp; s != stop; s = s->prev) {
    // Only applications (the common case) are run here; else the general
    // vAppSpine (forceAll goes on from its result).
    if (s->kind != Elim::App) [[unlikely]] {
      st.top = base;
      return vAppSpine(w, f, sp, stop);
    }
    st.push(s->arg, s->icit);
  }
  Env* env = nullptr;
  Tm* t = nullptr; // non-null: evaluate t in env (then apply); null: apply f
  while (true) {
    guard();
    if (t) {
      if (t->tag == TTag::App) {
        // Push the arguments (last first, so the first ends on top), evaluated
        // as usual; continue with the head.
        constexpr size_t kShort = 16;
        constexpr Ix kDeep = 32;
        size_t n = 0, pushed = st.top;
        Tm* h = t;
        for (; h->tag == TTag::App; h = h->a, ++n) {
          Tm* a = h->b;
          if (n == kShort || (a->tag == TTag::Var && a->n >= kDeep)) [[unlikely]]
            break; // (see evalLongApp)
          st.push(a->tag == TTag::Var ? envAt(env, a->n) : eval(w, env, a), h->icit);
        }
        if (h->tag == TTag::App) [[unlikely]] { // (those pushed are dropped)
          st.top = pushed;
          f = eval(w, env, t);
        } else {
          f = h->tag == TTag::Var ? envAt(env, h->n) : eval(w, env, h);
        }
      } else if (t->tag == TTag::Var) {
        f = envAt(env, t->n);
      } else if (t->tag == TTag::Let) {
        env = extend(w, env, eval(w, env, t->b));
        t = t->c;
        continue;
      } else {
        f = eval(w, env, t);
      }
      t = nullptr;
    }
    switch (f->tag) {
    case VTag::Lam: {
      if (st.top == base) return f;
      // As many arguments as there are λs to take them: their environment
      // cells in one allocation.
      size_t k = 1;
      t = f->body;
      for (; k < st.top - base && t->tag == TTag::Lam; ++k)
        t = t->a;
      Env* cells = w.scratch.array<Env>(k);
      env = f->env;
      for (Env* c = cells; c != cells + k; ++c) {
        *c = Env{env, ArgStack::val(st.items[--st.top])};
        env = c;
      }
      continue;
    }
    case VTag::Top:
      if (plainTop(w, f)) {
        Val* b = forceAll(w, f);
        if (b != f) {
          f = b;
          continue;
        }
      }
      break;
    case VTag::Flex:
      if (Val* b = force(w, f); b != f) {
        f = b;
        continue;
      }
      break;
    default: break;
    }
    // A head that does not unfold here: apply the rest as usual.
    return applyStacked(w, f, st, base);
  }
}

static Val* unfoldTop(World& w, Val* v);

Val* unfold(World& w, Val* v) {
  if (v->tag == VTag::Top) {
    Val* u = unfoldTop(w, v);
    return sameCall(v, u) ? nullptr : u;
  }
  if (v->tag == VTag::Flex) {
    if (!w.metas[v->n].solution) return nullptr;
    if (Val* p = v->b) return vAppSpine(w, force(w, p), v->sp, p->sp);
    return vAppSpine(w, w.metaSolution(v->n), v->sp);
  }
  return nullptr;
}

static Val* unfoldTop(World& w, Val* v) {
  if (v->axiom) // an argument may have been solved since (2: stuck for good)
    return v->axiom == 1 ? normalizeAxiom(w, v) : nullptr;
  if (w.runner && v->sp && !(v->topFacts & kTopNotClosedCallable)) {
    if (Val* r = tryClosedCall(w, v)) return r;
    if (w.tops[v->n].closedCallable == 0) learn(w, v, kTopNotClosedCallable);
  }
  if (Val* p = v->b) {
    Val* base = forceAll(w, p);
    return base == p ? nullptr : whnfApply(w, base, v->sp, p->sp);
  }
  Val* d = w.topDef(v->n);
  // `T : U = T` is its own unfolding: it does not unfold (a recursive
  // definition that never reaches a value stops at the depth guard).
  if (d && d->tag == VTag::Top && d->n == v->n && !d->sp) return nullptr;
  guard();
  // Apply the spine to the definition's own (cached) unfolding, skipping the
  // glued intermediate `f sp` node that would be unfolded right away.
  return d ? whnfApply(w, forceAll(w, d), v->sp, nullptr) : nullptr;
}

static inline void cache(World& w, Val* v, Val* u) {
  v->a = u;
  // Only values older than the nursery can outlive a collection with a
  // dangling cache; remember those.
  if (w.nursery && v->gen != w.gen) [[unlikely]]
    w.cacheLog.push_back(v);
}

Val* forceHead(World& w, Val* v) {
  while (v->tag == VTag::Flex) {
    if (!v->a) {
      if (!w.metas[v->n].solution) return v;
      cache(w, v, unfold(w, v));
    }
    v = v->a;
  }
  return v;
}

Val* forceAllHead(World& w, Val* v) {
  while (true) {
    if (v->tag == VTag::Flex || v->tag == VTag::Top) {
      if (!v->a) {
        Val* u = unfold(w, v);
        if (!u) return v;
        cache(w, v, u);
      }
      v = v->a;
    } else {
      return v;
    }
  }
}

// A spine of more than kShort arguments, or one whose variables reach deep
// into the environment (a meta applied to its whole context): all arguments
// at once, and the variables through one walk of the environment — looked up
// one by one, k variables of a k-deep context would cost k² steps.
[[gnu::noinline]] static Val* evalLongApp(World& w, Env* env, Tm* t) {
  size_t n = 0;
  Tm* h = t;
  for (; h->tag == TTag::App; h = h->a)
    ++n;
  Tm** apps = w.scratch.array<Tm*>(n);
  Val** args = w.scratch.array<Val*>(n);
  Icit* icits = w.scratch.array<Icit>(n);
  Ix deepest = h->tag == TTag::Var ? h->n : 0;
  size_t k = n;
  for (Tm* a = t; a->tag == TTag::App; a = a->a) {
    apps[--k] = a;
    if (a->b->tag == TTag::Var && a->b->n > deepest) deepest = a->b->n;
  }
  // (A stack of frames shared by nested calls, addressed by offset: it may
  // move when it grows.)
  std::vector<Val*>& frames = perThread<std::vector<Val*>>();
  struct Frame {
    std::vector<Val*>& frames;
    size_t base;
    ~Frame() { frames.resize(base); }
  } frame{frames, frames.size()};
  frames.resize(frame.base + deepest + 1);
  Env* e = env;
  for (Ix i = 0; i <= deepest && e; ++i, e = e->prev)
    frames[frame.base + i] = e->v;
  auto var = [&](Ix i) { return frames[frame.base + i]; };
  Val* f = h->tag == TTag::Var ? var(h->n) : eval(w, env, h);
  for (size_t i = 0; i < n; ++i) {
    Tm* a = apps[i];
    args[i] = a->b->tag == TTag::Var ? var(a->b->n) : eval(w, env, a->b);
    icits[i] = a->icit;
  }
  return vApps(w, f, args, icits, n);
}

static Val* evalApp(World& w, Env* env, Tm* t) {
  // Evaluate a whole application spine `h a₁ … aₙ` and apply it at once. The
  // arguments are evaluated in one walk down the spine, last first, into the
  // end of the buffers.
  constexpr size_t kShort = 16;
  constexpr Ix kDeep = 32;
  Val* args[kShort];
  Icit icits[kShort];
  size_t n = 0;
  Tm* h = t;
  for (; h->tag == TTag::App; h = h->a) {
    Tm* a = h->b;
    // (Too long, or reaching deep into the environment: evalLongApp.)
    if (n == kShort || (a->tag == TTag::Var && a->n >= kDeep)) [[unlikely]]
      return evalLongApp(w, env, t);
    ++n;
    // Variables (the common case in arguments) are looked up in place.
    args[kShort - n] = a->tag == TTag::Var ? envAt(env, a->n) : eval(w, env, a);
    icits[kShort - n] = h->icit;
  }
  Val* f = h->tag == TTag::Var ? envAt(env, h->n) : eval(w, env, h);
  return vApps(w, f, args + kShort - n, icits + kShort - n, n);
}

Val* eval(World& w, Env* env, Tm* t) {
  guard();
  // The two most frequent cases first: a conditional branch predicts better
  // than the switch's indirect jump on the hot path of conversion checking.
  if (t->tag == TTag::App) return evalApp(w, env, t);
  if (t->tag == TTag::Var) return envAt(env, t->n);
  switch (t->tag) {
  case TTag::Var:
  case TTag::App: break;                    // handled above
  case TTag::Known: return vBool(w, false); // (filters are never evaluated here)
  case TTag::Embed:
    if (env && env->prev == t->env && (t->m || env->v == w.var(t->n))) return t->val;
    if (!t->b) t->b = quote(w, w.perm, t->n + 1, t->val, QuoteOpts{false, false});
    return eval(w, env, t->b);
  case TTag::Top: return w.topHead(t->n);
  case TTag::Meta: return w.metaHead(t->n);
  case TTag::InsertedMeta: {
    // Apply the meta to the bound variables of its context, oldest first:
    // one spine and one value (not a value per argument: a meta in a
    // context of n binders is evaluated at each of n nested λs).
    uint32_t len = t->m;
    thread_local std::vector<Val*> args;
    args.resize(len);
    Env* e = env;
    for (uint32_t i = len; i-- > 0;) {
      args[i] = e->v;
      e = e->prev;
    }
    Spine* sp = nullptr;
    for (uint32_t i = 0; i < len; ++i)
      if (t->mask[i]) sp = snoc(w, sp, Elim::App, args[i], Icit::Expl);
    Val* head = w.metaHead(t->n);
    return sp ? neutral(w, head, sp) : head;
  }
  case TTag::Lam: {
    Val* v = mkVal(w, VTag::Lam);
    v->name = t->name;
    v->icit = t->icit;
    v->env = env;
    v->body = t->a;
    return v;
  }
  case TTag::Pi:
  case TTag::Sigma: {
    Val* v = mkVal(w, t->tag == TTag::Pi ? VTag::Pi : VTag::Sigma);
    v->name = t->name;
    v->icit = t->icit;
    v->a = eval(w, env, t->a);
    v->env = env;
    v->body = t->b;
    return v;
  }
  case TTag::Pair: {
    Val* v = mkVal(w, VTag::Pair);
    v->a = eval(w, env, t->a);
    v->b = eval(w, env, t->b);
    return v;
  }
  case TTag::Proj1: return vProj1(w, eval(w, env, t->a));
  case TTag::Proj2: return vProj2(w, eval(w, env, t->a));
  case TTag::Field: {
    Val* v = eval(w, env, t->a);
    for (uint32_t i = 0; i < t->n; ++i)
      v = vProj2(w, v);
    return vProj1(w, v);
  }
  case TTag::Let: return eval(w, extend(w, env, eval(w, env, t->b)), t->c);
  case TTag::U: return &gU;
  case TTag::Irrelevant: return &gIrrelevant;
  case TTag::Lit: return valOfLit(w, t);
  case TTag::If: {
    Val* c = forceAll(w, eval(w, env, t->a));
    if (c->tag == VTag::Lit) return eval(w, env, c->bits ? t->b : t->c);
    Val* th = mkVal(w, VTag::Thunk);
    th->env = env;
    th->body = t;
    return vIf(w, c, th);
  }
  case TTag::Case: {
    Val* th = mkVal(w, VTag::Thunk);
    th->env = env;
    th->body = t;
    return vCase(w, eval(w, env, t->a), th);
  }
  case TTag::Arr: {
    Val* v = mkVal(w, VTag::Arr);
    v->n = t->n;
    v->elems = w.perm.array<Val*>(t->n);
    for (uint32_t i = 0; i < t->n; ++i)
      v->elems[i] = eval(w, env, t->elems[i]);
    return v;
  }
  }
  return &gIrrelevant;
}

// ---------------------------------------------------------------------------
// Quotation

static Tm* mk(Arena& a, TTag tag) { return mkTm(a, tag); }

// Past a quotation's budget (QuoteOpts::budget): the node printed "…".
static Tm* cutTerm(Arena& a, QuoteOpts o) {
  if (!o.budget) return nullptr;
  if (*o.budget > 0) {
    --*o.budget;
    return nullptr;
  }
  Tm* t = mkTm(a, TTag::Irrelevant);
  t->n = kCutTerm;
  return t;
}

// A stuck case on the quoted scrutinee `s`: each alternative's body quoted
// under fresh variables for its fields.
static Tm* quoteCase(World& w, Arena& out, Lvl l, Tm* s, Val* th, QuoteOpts o) {
  Tm* c = th->body;
  Tm* t = mk(out, TTag::Case);
  t->a = s;
  t->n = c->n;
  t->m = c->m;
  t->alts = out.array<CaseAlt>(c->n);
  for (uint32_t i = 0; i < c->n; ++i) {
    CaseAlt alt = c->alts[i];
    Env* env = th->env;
    for (uint32_t j = 0; j < alt.arity; ++j)
      env = extend(w, env, w.var(l + j));
    alt.body = quote(w, out, l + alt.arity, eval(w, env, alt.body), o);
    t->alts[i] = alt;
  }
  return t;
}

static Tm* quoteSpine(World& w, Arena& out, Lvl l, Tm* head, Spine* sp, QuoteOpts o) {
  if (!sp) return head;
  guard();
  if (o.budget && *o.budget == 0) return cutTerm(out, o);
  Tm* f = quoteSpine(w, out, l, head, sp->prev, o);
  if (sp->kind == Elim::If) {
    Tm* t = mk(out, TTag::If);
    Val* th = sp->arg;
    t->a = f;
    t->b = quote(w, out, l, eval(w, th->env, th->body->b), o);
    t->c = quote(w, out, l, eval(w, th->env, th->body->c), o);
    return t;
  }
  if (sp->kind == Elim::Case) return quoteCase(w, out, l, f, sp->arg, o);
  Tm* t = mk(out, sp->kind == Elim::App     ? TTag::App
                  : sp->kind == Elim::Proj1 ? TTag::Proj1
                                            : TTag::Proj2);
  t->a = f;
  if (sp->kind == Elim::App) {
    t->icit = sp->icit;
    t->b = quote(w, out, l, sp->arg, o);
  }
  return t;
}

// A recursive definition applied to arguments on which its unfolding is stuck
// on a conditional (`fib n`, n a variable) stays folded in a normal form: its
// branches call it again, so unfolding them would never end (as Agda keeps a
// recursive function stuck on a variable). See stuckRecursiveCall.

// Is this (forced) value stuck on a conditional: an `if` anywhere in its
// spine, or inside an argument of a stuck primitive (`1 + (if …)`)?
static bool stuckOnIf(World& w, Val* u, int depth) {
  if (u->tag != VTag::Top && u->tag != VTag::Rigid && u->tag != VTag::Flex) return false;
  for (Spine* s = u->sp; s; s = s->prev)
    if (s->kind == Elim::If || s->kind == Elim::Case) return true;
  if (u->tag != VTag::Top || !u->axiom || depth == 0) return false;
  for (Spine* s = u->sp; s; s = s->prev)
    if (s->kind == Elim::App && stuckOnIf(w, forceAll(w, s->arg), depth - 1)) return true;
  return false;
}

bool recursiveTopEntry(World& w, Val* v) {
  TopEntry& e = w.tops[v->n];
  if (!e.def) return false; // (a postulate, or a definition still being elaborated)
  if (e.recursive < 0) e.recursive = mentionsTop(e.def, v->n) ? 1 : 0;
  if (!e.recursive) learn(w, v, kTopNotRecursive);
  return e.recursive;
}

bool stuckOnIfForced(World& w, Val* v) { return stuckOnIf(w, v, 4); }

bool stuckItself(World& w, Val* v) {
  Val* u = unfold(w, v);
  if (!u) return true;
  u = force(w, u);
  return u->tag != VTag::Top || u->axiom || stuckOnIfForced(w, u);
}

// Is the recursive definition v (applied to too few arguments: its unfolding
// is a λ) stuck once given fresh variables for the missing ones? Then its
// normal form is v itself (`rdown`, not `λ n. rdown n`).
static bool stuckWhenApplied(World& w, Val* v, Lvl l) {
  for (int missing = 0; missing < 64; ++missing) {
    Val* u = forceAll(w, v);
    if (u->tag != VTag::Lam) return stuckOnIfForced(w, u);
    v = vApp(w, v, w.var(l + missing), u->icit);
  }
  return false;
}

// `n` ones, shared (every all-ones mask is a prefix of the latest buffer;
// older buffers stay, terms point into them).
static const uint8_t* onesMask(uint32_t n) {
  static std::mutex m;
  static std::vector<std::unique_ptr<uint8_t[]>> buffers;
  static uint32_t cap = 0;
  std::lock_guard<std::mutex> lock(m);
  if (n > cap) {
    cap = std::max(n, 2 * cap);
    buffers.push_back(std::make_unique<uint8_t[]>(cap));
    std::fill_n(buffers.back().get(), cap, uint8_t(1));
  }
  return buffers.back().get();
}

// A meta applied to bound variables in order (what an inserted meta
// evaluates to, `?m x y z`), quoted at level l as an InsertedMeta: a mask
// of l bytes (none for all of them) instead of two nodes per variable. The
// inferred type of n nested λs holds n such metas, of 1 … n arguments.
static Tm* insertedMeta(Arena& out, Lvl l, Val* v) {
  if (!v->sp || l == 0) return nullptr;
  uint32_t next = l; // (levels decrease from the newest argument)
  for (Spine* s = v->sp; s; s = s->prev) {
    if (s->kind != Elim::App || s->icit != Icit::Expl) return nullptr;
    Val* a = s->arg;
    if (a->tag != VTag::Rigid || a->sp || a->n >= next) return nullptr;
    next = a->n;
  }
  Tm* t = mkTm(out, TTag::InsertedMeta);
  t->n = v->n;
  t->m = l;
  if (v->sp->len == l) { // every variable in scope
    t->mask = onesMask(l);
    return t;
  }
  uint8_t* mask = out.array<uint8_t>(l);
  std::fill_n(mask, l, uint8_t(0));
  for (Spine* s = v->sp; s; s = s->prev)
    mask[s->arg->n] = 1;
  t->mask = mask;
  return t;
}

Tm* quote(World& w, Arena& out, Lvl l, Val* v, QuoteOpts o) {
  guard();
  if (Tm* cut = cutTerm(out, o)) return cut;
  if (o.unfoldTops && stuckRecursiveCall(w, force(w, v))) {
    v = force(w, v);
    Tm* h = mk(out, TTag::Top);
    h->n = v->n;
    return quoteSpine(w, out, l, h, v->sp, o);
  }
  if (o.unfoldTops) {
    // Unfold step by step: a recursive definition met on the way stays
    // folded where its unfolding is stuck (`rdown n`), also when it is
    // reached through an alias (`d1 = rdown`) or applied to too few
    // arguments (`rdown`: its unfolding is a λ whose body is stuck).
    v = force(w, v);
    while (v->tag == VTag::Top || v->tag == VTag::Flex) {
      if (v->tag == VTag::Top && recursiveTop(w, v)) {
        Val* u = forceAll(w, v);
        if (u->tag == VTag::Lam && !stuckWhenApplied(w, v, l)) { // η-expand
          Tm* t = mk(out, TTag::Lam);
          t->name = u->name;
          t->icit = u->icit;
          t->a = quote(w, out, l + 1, vApp(w, v, w.var(l), u->icit), o);
          return t;
        }
        if (u->tag == VTag::Lam || stuckOnIfForced(w, u)) {
          Tm* h = mk(out, TTag::Top);
          h->n = v->n;
          return quoteSpine(w, out, l, h, v->sp, o);
        }
        v = u;
        break;
      }
      // An alias (`d1 = rdown`, `d2 = add 2`) unfolds to the definition it
      // names, not through it (that one may be recursive).
      if (v->tag == VTag::Top && !v->axiom)
        if (Val* d = w.topDef(v->n); d && d->tag == VTag::Top && !(d->n == v->n && !d->sp)) {
          v = vAppSpine(w, d, v->sp);
          continue;
        }
      if (!v->a) {
        Val* u = unfold(w, v);
        if (!u) break;
        cache(w, v, u);
      }
      v = v->a;
    }
  } else if (o.unfoldMetas) {
    v = force(w, v);
  }
  switch (v->tag) {
  case VTag::Rigid: {
    if (&out == &w.perm) return quoteSpine(w, out, l, w.varTm(l - v->n - 1), v->sp, o);
    Tm* h = mk(out, TTag::Var);
    h->n = l - v->n - 1;
    return quoteSpine(w, out, l, h, v->sp, o);
  }
  case VTag::Flex: {
    if (Tm* t = insertedMeta(out, l, v)) return t;
    Tm* h = mk(out, TTag::Meta);
    h->n = v->n;
    return quoteSpine(w, out, l, h, v->sp, o);
  }
  case VTag::Top: {
    Tm* h = &out == &w.perm ? w.topTm(v->n) : mk(out, TTag::Top);
    h->n = v->n;
    return quoteSpine(w, out, l, h, v->sp, o);
  }
  case VTag::Lam: {
    Tm* t = mk(out, TTag::Lam);
    t->name = v->name;
    t->icit = v->icit;
    t->a = quote(w, out, l + 1, apply(w, v, w.var(l)), o);
    return t;
  }
  case VTag::Pi:
  case VTag::Sigma: {
    Tm* t = mk(out, v->tag == VTag::Pi ? TTag::Pi : TTag::Sigma);
    t->name = v->name;
    t->icit = v->icit;
    t->a = quote(w, out, l, v->a, o);
    t->b = quote(w, out, l + 1, apply(w, v, w.var(l)), o);
    return t;
  }
  case VTag::Pair: {
    Tm* t = mk(out, TTag::Pair);
    t->a = quote(w, out, l, v->a, o);
    t->b = quote(w, out, l, v->b, o);
    return t;
  }
  case VTag::U: return mk(out, TTag::U);
  case VTag::Irrelevant:
  case VTag::Thunk: return mk(out, TTag::Irrelevant);
  case VTag::Lit: return tmOfLit(out, v);
  case VTag::Arr: {
    Tm* t = mk(out, TTag::Arr);
    t->n = v->n;
    t->elems = out.array<Tm*>(v->n);
    for (uint32_t i = 0; i < v->n; ++i)
      t->elems[i] = quote(w, out, l, v->elems[i], o);
    return t;
  }
  }
  return mk(out, TTag::Irrelevant);
}

Tm* normalize(World& w, Arena& out, Lvl l, Env* env, Tm* t) {
  return quote(w, out, l, eval(w, env, t), QuoteOpts{true, true});
}

} // namespace thorin

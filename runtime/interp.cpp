// The interpreter of erased terms (tier 0 for programs): environments are
// linked lists in the run's heap, closures use the same entry convention as
// compiled code, and direct calls of top-level functions skip the closure.
#include <cstring>

#include "core/guard.hpp"
#include "core/literal.hpp"
#include "engine.hpp"
#include "share.hpp"

#include <fmt/format.h>

namespace thorin::rt {

namespace {

IEnv* push(IEnv* env, V v) {
  static_assert(sizeof(IEnv) == 16);
  auto* e = static_cast<IEnv*>(alloc16());
  e->prev = env;
  e->v = v;
  return e;
}

V lookup(IEnv* e, uint32_t ix) {
  while (ix--)
    e = e->prev;
  return e->v;
}

// A closure of `lam` keeps its environment: the values it reads from there
// may be read again by it, so they are shared (runtime/share.hpp).
void shareCaptures(ETm* lam, IEnv* env) {
  if (lam->flags & kCapturesKnown) {
    for (uint32_t i = 0; i < lam->ncaptures; ++i)
      share(lookup(env, lam->captures[i]));
    return;
  }
  for (IEnv* e = env; e; e = e->prev) // (not analysed: all of them)
    share(e->v);
}

// A primitive applied to some of its arguments: free[0] = prim id, then those.
V primPapEntry(Closure* self, const V* args) {
  const Prim& p = primById(uint32_t(self->free[0]));
  uint32_t have = self->n - 2;
  V all[8];
  std::memcpy(all, self->free + 2, sizeof(V) * have);
  std::memcpy(all + have, args, sizeof(V) * self->arity);
  return p.fn(all, uint32_t(self->free[1]));
}

// A top-level function used as a value: free[0] = its id.
V globalEntry(Closure* self, const V* args) {
  TopId id = TopId(self->free[0]);
  V r = Runtime::current()->callGlobal(id, args);
  // Once compiled, this closure calls the compiled entry directly.
  if (Code c = Runtime::current()->global(id).compiled) self->code = c;
  return r;
}

V literal(const ETm* t) {
  switch (LitKind(t->n)) {
  case LitKind::Nat: return ofNat(t->bits);
  case LitKind::BigNat: return ofNatMpz(static_cast<const BigNat*>(t->big)->z);
  case LitKind::I64: return ofI64(int64_t(t->bits));
  case LitKind::F64: {
    double d;
    std::memcpy(&d, &t->bits, sizeof d);
    return ofF64(d);
  }
  case LitKind::Bool:
  case LitKind::Idx: return imm(int64_t(t->bits));
  case LitKind::Unit: return imm(0);
  case LitKind::Str: return ofStr(litStr(t->big));
  }
  return rt::erased();
}

} // namespace

V mkPrimPap(uint32_t prim, uint32_t span, uint32_t n, const V* args) {
  V c = mkClosure(primPapEntry, primById(prim).arity - n, 2 + n);
  auto* cl = static_cast<Closure*>(obj(c));
  cl->free[0] = prim;
  cl->free[1] = span;
  for (uint32_t i = 0; i < n; ++i) // (shared: the closure may be called again)
    cl->free[2 + i] = share(args[i]);
  return c;
}

// Closure of an interpreted λ: free[0] = the λ, free[1] = environment.
V lamEntry(Closure* self, const V* args) {
  if (V r; Runtime::current()->callLifted(self, args, r)) return r; // (its compiled copy, once hot)
  return Runtime::current()->enterLam(reinterpret_cast<ETm*>(self->free[0]),
                                      reinterpret_cast<IEnv*>(self->free[1]), args);
}

V Runtime::enterLam(ETm* lam, IEnv* env, const V* args) {
  for (uint32_t i = 0; i < lam->n; ++i)
    env = push(env, args[i]);
  return eval(lam->a, env);
}

V Runtime::globalValue(TopId id) {
  Global& g = erased(id);
  if (g.epoch == epoch) return g.value;
  V v;
  if (g.compiled) {
    v = mkClosure(g.compiled, g.arity, 0); // calls go straight to compiled code
  } else if (g.arity > 0) {
    v = mkClosure(globalEntry, g.arity, 1);
    static_cast<Closure*>(obj(v))->free[0] = id;
  } else {
    // `x : Nat = x + 1` needs its own value to compute it.
    if (g.computing) throw Error{fmt::format("the value of {} depends on itself", nameOf(id)), 0};
    g.computing = true;
    struct Done {
      Runtime& rt;
      TopId id;
      ~Done() { rt.global(id).computing = false; }
    } done{*this, id};
    v = g.body ? eval(g.body, nullptr) : postulateValue(id);
  }
  Global& g2 = global(id); // (eval may have grown `globals`)
  g2.epoch = epoch;
  g2.value = share(v); // (every read of it gets this value)
  keptValues.push_back(v);
  GlobalCell& c = cell(id);
  c.value = v;
  c.valueEpoch = epoch;
  return v;
}

IEnv* Runtime::enterGlobal(TopId id, const V* args, V* result) {
  Global& g0 = global(id);
  if (g0.compiled) {              // hot path: already compiled
    if (g0.tierUp) [[unlikely]] { // baseline code: ask for LLVM's again
      requestCompile(id);
      Global& g = global(id);
      ++g.calls;
      *result = g.compiled(nullptr, args);
      return nullptr;
    }
    ++g0.calls;
    if (g0.optimized) { // (compiled callers call it directly in this epoch)
      GlobalCell& c = cell(id);
      c.entry = g0.compiled;
      c.entryEpoch = epoch;
    }
    *result = g0.compiled(nullptr, args);
    return nullptr;
  }
  noteCall(id);
  // (Erased again if it was invalidated since the caller was compiled.)
  Global& g = erased(id);
  if (g.compiled) {
    *result = g.compiled(nullptr, args);
    return nullptr;
  }
  IEnv* env = nullptr;
  for (uint32_t i = 0; i < g.arity; ++i)
    env = push(env, args[i]);
  return env;
}

V Runtime::callGlobal(TopId id, const V* args) {
  V r;
  IEnv* env = enterGlobal(id, args, &r);
  return env ? eval(global(id).body->a, env, id) : r;
}

static bool makesClosures(ETm* t) {
  if (t->tag == ETag::Lam) return true;
  bool any = false;
  forEachChild(t, 0, [&](ETm* c, uint32_t) { any = any || makesClosures(c); });
  return any;
}

// A frame's environment (its parameters and lets) is dead once it makes a
// tail call, unless a closure made in it keeps it: then its cells are given
// back, so that an interpreted loop runs in constant memory.
static void releaseFrame(Global& g, const ETm* body, IEnv* env) {
  if (!g.body || g.body->a != body) return; // (redefined meanwhile: not known)
  if (g.capturesFor != body) {
    g.captures = makesClosures(g.body->a);
    g.capturesFor = body;
  }
  if (g.captures) return;
  while (env) {
    IEnv* prev = env->prev;
    release16(env);
    env = prev;
  }
}

// The interpreter is a machine with its own stacks (Runtime::Kont): the
// value of a subterm is awaited by a continuation on `kont_`, the values of
// arguments gathered so far wait on `vals_`, and a call of a top-level
// function enters its body in the same loop. Recursion in the program
// (`n + sumTo (n - 1)`, 10⁷ deep) costs no C++ stack — ~70 bytes a level of
// these stacks, limited as the stack is (THORIN_STACK_MB) — and failing at
// the limit unwinds one C++ frame, not millions. (Closures called through
// `apply`, and compiled code, still nest C++ frames.)
namespace {
// (A loop: the counts are small and unknown, and memcpy is a call.)
inline void copyWords(V* to, const V* from, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    to[i] = from[i];
}

// Simple terms — variables, literals, and primitives applied to simple
// terms, a few deep (`get a (idx (k % n)) + 1`) — are evaluated by a small
// recursion on the C++ stack (bounded by the term, not by the program's
// recursion), without the machine's continuations.
constexpr int kSimpleDepth = 4;

bool isSimple(const ETm* t, int depth) {
  switch (t->tag) {
  case ETag::Var:
  case ETag::Lit: return true;
  case ETag::Prim:
    if (depth == 0 || t->n > 8) return false;
    for (uint32_t i = 0; i < t->n; ++i)
      if (!isSimple(t->args[i], depth - 1)) return false;
    return true;
  default: return false;
  }
}

V simpleValue(const ETm* t, IEnv* env) {
  if (t->tag == ETag::Var) {
    V v = lookup(env, t->n);
    return t->flags & kNoShare ? v : share(v);
  }
  if (t->tag == ETag::Lit) return literal(t);
  V args[8];
  for (uint32_t i = 0; i < t->n; ++i)
    args[i] = simpleValue(t->args[i], env);
  return primById(t->prim).fn(args, t->span);
}

// The last n values of `vals`, taken off it into `small` or (more than 8)
// `big`: where the collector sees them while the callee allocates.
V* takeArgs(MachineStack<V>& vals, uint32_t n, V (&small)[8], gc::RootedVector<V>& big) {
  if (n > 8) big.resize(n);
  V* args = n <= 8 ? small : big.data();
  copyWords(args, vals.data() + vals.size() - n, n);
  vals.shrink(vals.size() - n);
  return args;
}

enum KKind : uint32_t {
  KArgs,       // App/Prim/PrimPap/Arr: argument i of t's evaluated next
  KHead,       // App: the function, evaluated before its arguments (on vals_ then)
  KLet,        // Let: the value bound
  KIf,         // If: the condition
  KPairFst,    // Pair: the first component
  KPairSnd,    // Pair: the second (the first is on vals_)
  KProj,       // Proj1/Proj2: the pair
  KField,      // Field: the data value
  KCase,       // Case: the data value
  KActivation, // the body of top-level function i (t: that body) returns here
};
} // namespace

// The machine's registers: the term evaluated next (Eval) or the value
// made (Ret), its environment, the next argument (Args), and where this
// call of eval started on the stacks.
struct Runtime::Machine {
  ETm* t;
  IEnv* env;
  V v = 0;
  uint32_t argi = 0;
  size_t base;
};

// m.t in m.env: its value (Ret), or what to evaluate first.
[[gnu::always_inline]] inline Runtime::Phase Runtime::evalTerm(Machine& m) {
  ETm* t = m.t;
  KKind k;
  switch (t->tag) {
  case ETag::Var:
    m.v = lookup(m.env, t->n);
    if (!(t->flags & kNoShare)) share(m.v);
    return Phase::Ret;
  case ETag::Global: m.v = globalValue(t->n); return Phase::Ret;
  case ETag::Lit: m.v = literal(t); return Phase::Ret;
  case ETag::Erased: m.v = rt::erasedType(t->n); return Phase::Ret;
  case ETag::Known: m.v = rt::erased(); return Phase::Ret; // (filters are never run)
  case ETag::Lam: {
    shareCaptures(t, m.env);
    m.v = mkClosure(lamEntry, t->n, 2);
    auto* cl = static_cast<Closure*>(obj(m.v));
    cl->free[0] = ofObj(t); // (the λ, for its parameters' names when read back)
    cl->free[1] = ofObj(m.env);
    return Phase::Ret;
  }
  case ETag::App:
    poll();
    m.argi = 0;
    if (directCall(t)) return Phase::Args;
    // A computed function first, then its arguments (as compiled code
    // evaluates them: the same error first when both fail).
    if (isSimple(t->a, kSimpleDepth)) {
      vals_.push_back(simpleValue(t->a, m.env));
      return Phase::Args;
    }
    k = KHead;
    break;
  case ETag::Prim:
  case ETag::PrimPap:
  case ETag::Con:
  case ETag::Arr: m.argi = 0; return Phase::Args;
  case ETag::Field:
    if (t->a->tag == ETag::Var) { // (the usual case: a case's alternative takes its fields)
      m.v = fieldOf(t, lookup(m.env, t->a->n));
      return Phase::Ret;
    }
    k = KField;
    break;
  case ETag::Case: k = KCase; break;
  case ETag::Let: k = KLet; break;
  case ETag::If: k = KIf; break;
  case ETag::Pair: k = KPairFst; break;
  case ETag::Proj1:
  case ETag::Proj2: k = KProj; break;
  default: m.v = rt::erased(); return Phase::Ret;
  }
  kont_.push_back({t, m.env, k, 0, 0});
  m.t = t->a;
  return Phase::Eval;
}

// The continuation on top gets m.v.
[[gnu::always_inline]] inline Runtime::Phase Runtime::resume(Machine& m) {
  Kont& k = kont_.back();
  ETm* t = k.t;
  if (k.kind != KActivation) m.env = k.env; // (an activation's: where its value was made)
  switch (k.kind) {
  case KArgs:
    vals_.push_back(t->tag == ETag::Arr || t->tag == ETag::PrimPap ? share(m.v) : m.v);
    m.argi = k.i + 1;
    kont_.pop_back();
    m.t = t;
    return Phase::Args;
  case KHead:
    kont_.pop_back();
    vals_.push_back(m.v);
    m.argi = 0;
    m.t = t;
    return Phase::Args;
  case KLet:
    kont_.pop_back();
    m.env = push(m.env, m.v);
    m.t = t->b;
    return Phase::Eval;
  case KIf:
    kont_.pop_back();
    m.t = immVal(m.v) ? t->b : t->c;
    return Phase::Eval;
  case KPairFst:
    vals_.push_back(m.v);
    k.kind = KPairSnd;
    m.t = t->b;
    return Phase::Eval;
  case KPairSnd:
    kont_.pop_back();
    m.v = mkPair(vals_.back(), m.v);
    vals_.pop_back();
    return Phase::Ret;
  case KProj: {
    kont_.pop_back();
    uint32_t which = t->tag == ETag::Proj1 ? 1 : 2;
    m.v = !isImm(m.v) && obj(m.v)->tag == OTag::Pair
              ? pairComponent(static_cast<PairObj*>(obj(m.v)), which)
              : proj(m.v, which);
    if (!(t->flags & kNoShare)) share(m.v);
    return Phase::Ret;
  }
  case KField:
    kont_.pop_back();
    m.v = fieldOf(t, m.v);
    return Phase::Ret;
  case KCase:
    kont_.pop_back();
    m.t = t->args[conIndex(m.v)];
    return Phase::Eval;
  default: // KActivation
    // The body returned: its environment (m.env, where its value was made)
    // is dead unless a closure made in it keeps it — its cells are given
    // back (a recursion that is not a loop runs in memory bounded by its
    // depth).
    releaseFrame(global(k.i), t, m.env);
    kont_.pop_back();
    return Phase::Ret;
  }
}

// m.t's arguments from m.argi on: simple ones at once, the first other one
// awaited; then, with all of them on vals_, its value or its callee's body.
[[gnu::always_inline]] inline Runtime::Phase Runtime::evalArgs(Machine& m) {
  ETm* t = m.t;
  for (; m.argi < t->n; ++m.argi) {
    ETm* a = t->args[m.argi];
    if (!isSimple(a, kSimpleDepth)) {
      kont_.push_back({t, m.env, KArgs, m.argi, 0});
      m.t = a;
      return Phase::Eval;
    }
    V v = simpleValue(a, m.env);
    if (t->tag == ETag::Arr || t->tag == ETag::PrimPap) share(v);
    vals_.push_back(v);
  }
  uint32_t n = t->n;
  V* at = vals_.data() + vals_.size() - n;
  if (t->tag != ETag::App) {
    m.v = construct(t, at);
    vals_.shrink(vals_.size() - n);
    return Phase::Ret;
  }
  if (directCall(t)) return call(m);
  // (The function, evaluated first, is below the arguments; it stays there,
  // a root, until it returns.)
  V small[8];
  gc::RootedVector<V> big;
  const V* args = takeArgs(vals_, n, small, big);
  m.v = apply(vals_.back(), n, args);
  vals_.pop_back();
  return Phase::Ret;
}

// Field t->n of the data value v (shared unless this read is its last use).
V Runtime::fieldOf(ETm* t, V v) {
  V f = conField(v, t->n);
  return t->flags & kNoShare ? f : share(f);
}

// A saturated call of a top-level function: no function value is made.
bool Runtime::directCall(ETm* t) {
  return t->a->tag == ETag::Global && erased(t->a->n).arity == t->n && t->n > 0;
}

// A primitive's value, a primitive's partial application or an array
// literal, of the arguments at `at`.
V Runtime::construct(ETm* t, const V* at) {
  uint32_t n = t->n;
  if (t->tag == ETag::Prim) {
    V args[8];
    copyWords(args, at, n);
    return primById(t->prim).fn(args, t->span);
  }
  if (t->tag == ETag::PrimPap) return mkPrimPap(t->prim, t->span, n, at);
  if (t->tag == ETag::Con) {
    if (n == 0) return imm(t->prim);
    V c = t->flags & kConCell ? mkCell(t->prim, n) : mkCon(t->prim, n);
    copyWords(conFields(c), at, n);
    return c;
  }
  V a = mkArr(n);
  copyWords(static_cast<ArrObj*>(obj(a))->elems, at, n);
  return a;
}

// m.t calls a top-level function with all its arguments (on vals_): its
// compiled code, or its body, entered in this loop.
Runtime::Phase Runtime::call(Machine& m) {
  TopId id = m.t->a->n;
  uint32_t n = m.t->n;
  V small[8];
  gc::RootedVector<V> big;
  V* args = takeArgs(vals_, n, small, big);
  // A call in tail position (the caller's body returns its value) ends the
  // caller's activation: its environment is dead, and the callee's takes
  // its place (an interpreted loop runs in constant memory).
  if (kont_.size() > m.base && kont_.back().kind == KActivation) {
    releaseFrame(global(kont_.back().i), kont_.back().t, m.env);
    kont_.pop_back();
  }
  IEnv* callee = enterGlobal(id, args, &m.v);
  if (!callee) return Phase::Ret;
  // (Each level of recursion enters a body here: the stacks may take as
  // many bytes as the C++ stack.)
  static const size_t limit = defaultStackBytes();
  if (kont_.size() * sizeof(Kont) + vals_.size() * sizeof(V) > limit) [[unlikely]]
    throw DepthExceeded();
  m.env = callee;
  m.t = global(id).body->a;
  kont_.push_back({m.t, nullptr, KActivation, id, 0});
  return Phase::Eval;
}

// (After the phases, which it inlines.)
V Runtime::eval(ETm* t, IEnv* env, TopId frame) {
  Machine m{t, env, 0, 0, kont_.size()};
  struct Unwind { // (an error leaves the stacks as this call found them)
    Runtime& rt;
    size_t base, vbase;
    ~Unwind() {
      rt.kont_.shrink(base);
      rt.vals_.shrink(vbase);
    }
  } unwind{*this, kont_.size(), vals_.size()};
  if (frame != kNoFrame) kont_.push_back({t, nullptr, KActivation, frame, 0});
  for (Phase p = Phase::Eval;;) {
    switch (p) {
    case Phase::Eval: p = evalTerm(m); break;
    case Phase::Ret:
      if (kont_.size() == m.base) return m.v;
      p = resume(m);
      break;
    case Phase::Args: p = evalArgs(m); break;
    }
  }
}

const ETm* Runtime::lambdaOf(const Closure* c) {
  if (c->code == lamEntry || c->code == liftedEntry)
    return reinterpret_cast<const ETm*>(c->free[0]);
  TopId id;
  if (c->code == globalEntry) {
    id = TopId(c->free[0]);
  } else if (auto it = entryOwner_.find(c->code);
             it != entryOwner_.end() && global(it->second).compiled == c->code) {
    id = it->second; // (still that definition's code: addresses are reused)
  } else {
    return backend ? backend->lambdaOf(c->code) : nullptr; // an inner λ of compiled code
  }
  ETm* body = global(id).body;
  return body && body->tag == ETag::Lam ? body : nullptr;
}

} // namespace thorin::rt

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

V Runtime::eval(ETm* t, IEnv* env, TopId frame) {
  const ETm* t0 = t; // the frame's body
  // A frame of a global's body (entered here, or by a tail call) gives its
  // environment back when it returns, as at a tail call: a recursion that
  // is not a loop (fib) then runs in memory bounded by its depth, not by
  // its number of calls. (Also when an error unwinds it: nothing uses it.)
  struct Release {
    Runtime& rt;
    IEnv*& env;
    TopId& frame;
    const ETm*& body;
    ~Release() {
      if (frame != kNoFrame) releaseFrame(rt.global(frame), body, env);
    }
  } release{*this, env, frame, t0};
  while (true) {
    switch (t->tag) {
    case ETag::Var: {
      V v = lookup(env, t->n);
      return t->flags & kNoShare ? v : share(v);
    }
    case ETag::Global: return globalValue(t->n);
    case ETag::Lit: return literal(t);
    case ETag::Erased: return rt::erasedType(t->n);
    case ETag::Known: return rt::erased(); // (filters are never run)
    case ETag::Lam: {
      shareCaptures(t, env);
      V c = mkClosure(lamEntry, t->n, 2);
      auto* cl = static_cast<Closure*>(obj(c));
      cl->free[0] = ofObj(t); // (the λ, for its parameters' names when read back)
      cl->free[1] = ofObj(env);
      return c;
    }
    case ETag::App: {
      poll();
      V small[8];
      V* args = t->n <= 8 ? small : static_cast<V*>(alloca(sizeof(V) * t->n));
      for (uint32_t i = 0; i < t->n; ++i)
        args[i] = eval(t->args[i], env);
      if (t->a->tag == ETag::Global) {
        TopId id = t->a->n;
        Global& g = erased(id);
        if (g.arity == t->n && g.arity > 0) {
          // The call is eval's result: the callee's body is evaluated in place
          // of a nested eval (a tail call: interpreted loops run in constant stack).
          V r;
          if (frame != kNoFrame) releaseFrame(global(frame), t0, env);
          frame = kNoFrame;
          IEnv* callee = enterGlobal(id, args, &r);
          if (!callee) return r;
          env = callee;
          frame = id;
          t = global(id).body->a;
          t0 = t;
          continue;
        }
      }
      return apply(eval(t->a, env), t->n, args);
    }
    case ETag::Prim: {
      const Prim& p = primById(t->prim);
      V args[8];
      for (uint32_t i = 0; i < t->n; ++i)
        args[i] = eval(t->args[i], env);
      return p.fn(args, t->span);
    }
    case ETag::PrimPap: {
      const Prim& p = primById(t->prim);
      V c = mkClosure(primPapEntry, p.arity - t->n, 2 + t->n);
      auto* cl = static_cast<Closure*>(obj(c));
      cl->free[0] = t->prim;
      cl->free[1] = t->span;
      for (uint32_t i = 0; i < t->n; ++i)
        cl->free[2 + i] = share(eval(t->args[i], env));
      return c;
    }
    case ETag::Let:
      env = push(env, eval(t->a, env));
      t = t->b;
      continue;
    case ETag::If: t = immVal(eval(t->a, env)) ? t->b : t->c; continue;
    case ETag::Pair: {
      V a = eval(t->a, env);
      return mkPair(a, eval(t->b, env));
    }
    case ETag::Proj1:
    case ETag::Proj2: {
      V p = eval(t->a, env);
      uint32_t which = t->tag == ETag::Proj1 ? 1 : 2;
      V r = !isImm(p) && obj(p)->tag == OTag::Pair
                ? pairComponent(static_cast<PairObj*>(obj(p)), which)
                : proj(p, which);
      return t->flags & kNoShare ? r : share(r);
    }
    case ETag::Arr: {
      V a = mkArr(t->n);
      for (uint32_t i = 0; i < t->n; ++i)
        static_cast<ArrObj*>(obj(a))->elems[i] = share(eval(t->args[i], env));
      return a;
    }
    }
    return rt::erased();
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

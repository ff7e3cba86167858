// Hot inner λs. A λ inside a function that runs once (`main`'s step function
// given to natElim, a fold's operator) is called through interpreted
// closures however hot it gets: only top-level functions count calls and
// get compiled. So each λ counts the calls of its interpreted closures too;
// once hot, it is lifted out — a global taking the λ's free variables before
// its own parameters, registered like a specialization — and compiled.
// Closures made before keep working: at their first call after that, they
// gather the copy's free variables from their environment once and then
// call the copy directly (liftedEntry).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "engine.hpp"

namespace thorin::rt {

// A λ is compiled by LLVM after this many times the calls that make a
// top-level function hot: λs are small (a fold's operator, a build's
// element), so their interpretation costs less per call than LLVM's
// compilation of their copy. Measured: at the same threshold, matmul256
// compiled its seven build and map λs and took 124 ms instead of 93; at
// 100×, three of them (65,536 calls each). natElim's step over 3·10⁶
// numbers ran in 73 ms either way instead of 270 ms interpreted. Baseline
// code costs ~0.1 ms: a λ it can compile is lifted at the threshold itself
// (`early`), and LLVM is asked later as for any function with baseline code.
constexpr uint64_t kLambdaFactor = 100;

// The lifted copy of `lam` if it is current (not dropped with the
// specializations since, not made for an earlier world); else forgets it.
const Lifted* Runtime::liftedOf(ETm* lam) {
  LamState& s = lam->lam;
  if (!s.lifted) return nullptr;
  if (s.lifted->gen == liftGen_ && !s.lifted->dropped) return s.lifted;
  s.lifted = nullptr; // (lifted again when hot again)
  s.calls = 0;
  return nullptr;
}

// The compiled code of a lifted copy, or nullptr while it is compiled in
// the background or after its code was dropped (a deoptimization, a callee
// redefined): then it is asked for again after as many calls.
Code Runtime::liftedCode(const Lifted& l, LamState& s) {
  if (jobs_ && backend->anyFinished()) [[unlikely]]
    settleJit(false);
  Global& g = global(l.id);
  if (!g.compiled && !g.compiling && !g.compileFailed &&
      ++s.calls >= opts.threshold * kLambdaFactor) {
    s.calls = 0;
    requestCompile(l.id);
  }
  Global& g2 = global(l.id);
  if (g2.compiled) ++g2.calls;
  return g2.compiled;
}

// The compiled copy on the free variables `fv`, then the λ's own arguments.
static V callCopy(Code code, const V* fv, size_t k, const V* args, size_t n) {
  V small[16];
  V* all = k + n <= 16 ? small : static_cast<V*>(alloca(sizeof(V) * (k + n)));
  std::copy(fv, fv + k, all);
  std::copy(args, args + n, all + k);
  return code(nullptr, all);
}

bool Runtime::callLifted(Closure* self, const V* args, V& r) {
  auto* lam = reinterpret_cast<ETm*>(self->free[0]);
  auto* env = reinterpret_cast<IEnv*>(self->free[1]);
  LamState& s = lam->lam;
  const Lifted* l = liftedOf(lam);
  if (!l) {
    // (`>=`: the threshold may have been lowered since the count passed it)
    bool early = baseline && s.calls + 1 < opts.threshold * kLambdaFactor;
    if (++s.calls >= opts.threshold * (baseline ? 1 : kLambdaFactor) && opts.mode != JitMode::Off &&
        (backend || baseline) && !lam->b) {
      s.calls = 0; // (if it cannot be lifted, it is tried again only after as many calls)
      lift(lam, env, early);
    }
    return false;
  }
  Code code = liftedCode(*l, s);
  if (!code) return false;
  // From now on this closure calls the copy directly: its free variables are
  // gathered once (walking the environment at every call would cost more
  // than interpreting, under many bindings), its environment kept for when
  // the copy's code is dropped.
  size_t k = l->free.size();
  V* block = static_cast<V*>(alloc(sizeof(V) * (k + 1)));
  block[0] = ofObj(env);
  IEnv* e = env;
  uint32_t at = 0;
  for (size_t j = 0; j < k; ++j) {
    for (; at < l->free[j]; ++at)
      e = e->prev;
    block[1 + j] = e->v;
  }
  self->free[1] = ofObj(block);
  self->code = liftedEntry;
  r = callCopy(code, block + 1, k, args, lam->n);
  return true;
}

// A closure of a lifted λ: free[0] = the λ, free[1] = its environment
// followed by the values of the copy's free variables.
V liftedEntry(Closure* self, const V* args) {
  Runtime& rt = *Runtime::current();
  auto* lam = reinterpret_cast<ETm*>(self->free[0]);
  const V* block = reinterpret_cast<const V*>(self->free[1]);
  const Lifted* l = rt.liftedOf(lam);
  Code code = l ? rt.liftedCode(*l, lam->lam) : nullptr;
  if (!code) return rt.enterLam(lam, reinterpret_cast<IEnv*>(block[0]), args);
  return callCopy(code, block + 1, l->free.size(), args, lam->n);
}

// The worker at w on the free variables fv (k of them) and the word x.
template <class R> static R callWorker(void* w, const V* fv, size_t k, V x) {
  switch (k) {
  case 0: return reinterpret_cast<R (*)(V)>(w)(x);
  case 1: return reinterpret_cast<R (*)(V, V)>(w)(fv[0], x);
  case 2: return reinterpret_cast<R (*)(V, V, V)>(w)(fv[0], fv[1], x);
  case 3: return reinterpret_cast<R (*)(V, V, V, V)>(w)(fv[0], fv[1], fv[2], x);
  case 4: return reinterpret_cast<R (*)(V, V, V, V, V)>(w)(fv[0], fv[1], fv[2], fv[3], x);
  default:
    return reinterpret_cast<R (*)(V, V, V, V, V, V)>(w)(fv[0], fv[1], fv[2], fv[3], fv[4], x);
  }
}

bool buildRaw(V f, uint32_t from, uint32_t n, bool f64, uint64_t* out) {
  MType m = f64 ? MType::F64 : MType::I64;
  if (isImm(f) || obj(f)->tag != OTag::Closure) return false;
  auto* self = static_cast<Closure*>(obj(f));
  Runtime* run = Runtime::current();
  if (self->code != liftedEntry || !run || !run->baseline) return false;
  Runtime& rt = *run;
  auto* lam = reinterpret_cast<ETm*>(self->free[0]);
  const Lifted* l = rt.liftedOf(lam);
  // (liftedCode: the code is current, finished compilations are installed)
  if (!l || lam->n != 1 || l->free.size() > 5 || !rt.liftedCode(*l, lam->lam)) return false;
  std::atomic<void*>* slot = rt.baseline->slot(l->id);
  MachineSig sig = rt.machineSig(l->id);
  if (!slot || !slot->load(std::memory_order_acquire) || !sig.known || sig.result != m)
    return false;
  const V* fv = reinterpret_cast<const V*>(self->free[1]) + 1;
  size_t k = l->free.size();
  for (uint32_t i = from; i < n; ++i) {
    // (each time: LLVM's worker may take the slot over meanwhile)
    void* w = slot->load(std::memory_order_acquire);
    if (m == MType::F64) {
      double d = callWorker<double>(w, fv, k, imm(i));
      std::memcpy(&out[i], &d, sizeof d);
    } else {
      out[i] = uint64_t(callWorker<int64_t>(w, fv, k, imm(i)));
    }
  }
  rt.global(l->id).calls += n - from;
  return true;
}

// Do t's free variables (below `depth` binders) all lie in an environment of
// `len` entries?
static bool withinEnv(ETm* t, uint32_t depth, uint32_t len) {
  if (t->tag == ETag::Var) return t->n < depth || t->n - depth < len;
  bool ok = true;
  forEachChild(t, depth, [&](ETm* c, uint32_t d) { ok = ok && withinEnv(c, d, len); });
  return ok;
}

void Runtime::lift(ETm* lam, IEnv* env, bool early) {
  uint32_t depth = 0;
  for (IEnv* e = env; e; e = e->prev)
    ++depth;
  if (!withinEnv(lam->a, lam->n, depth)) return; // (never expected: then it stays interpreted)
  std::vector<bool> used(depth, false);
  freeVars(lam->a, lam->n, used);
  std::vector<uint32_t> free;
  for (uint32_t i = 0; i < depth; ++i)
    if (used[i]) free.push_back(i);
  uint32_t k = uint32_t(free.size());
  // Environment entry free[j] becomes parameter j of the lifted λ: seen from
  // inside the λ's own parameters, k - 1 - j binders further out.
  std::vector<uint32_t> pos(depth, 0);
  for (uint32_t j = 0; j < k; ++j)
    pos[free[j]] = j;
  ETm* body = mapVars(arena_, lam->a, lam->n, [&](uint32_t i) { return k - 1 - pos[i]; });
  ETm* fn = arena_.make<ETm>();
  fn->tag = ETag::Lam;
  fn->n = k + lam->n;
  fn->a = body;
  Name* names = arena_.array<Name>(fn->n);
  for (uint32_t j = 0; j < k; ++j)
    names[j] = intern(fmt::format("env{}", j));
  for (uint32_t i = 0; i < lam->n; ++i)
    names[k + i] = lam->names ? lam->names[i] : intern("x");
  fn->names = names;

  SpecInfo info;
  info.origin = originOf(lam);
  info.lifted = true;
  info.key = fmt::format("λ{}", static_cast<const void*>(lam));
  if (info.origin != kNoFrame) info.deps.push_back(info.origin);
  size_t nth = 1; // (`f.λ2`: the second of f's λs lifted)
  for (const SpecInfo& o : specInfo_)
    nth += o.lifted && o.origin == info.origin;
  info.args = std::to_string(nth);
  TopId id = addSpec(std::move(info), fn);
  lifted_.push_back({id, liftGen_, std::move(free)});
  lam->lam.lifted = &lifted_.back();
  lam->lam.calls = 0;
  // (Early and without baseline code: LLVM is asked after as many calls as
  // for a λ lifted late, by liftedCode.)
  if (!early || installBaseline(id)) requestCompile(id);
}

// The top-level definition whose erased body contains `lam` (kNoFrame if
// none: an expression typed at the prompt). Each body is walked once, its λs
// remembered (a definition's before a specialization's copy of it).
TopId Runtime::originOf(const ETm* lam) {
  auto index = [&](ETm* body, TopId origin) {
    if (!originIndexed_.insert(body).second) return;
    std::vector<ETm*> work{body};
    while (!work.empty()) {
      ETm* t = work.back();
      work.pop_back();
      if (t->tag == ETag::Lam) originByLam_.emplace(t, origin);
      forEachChild(t, 0, [&](ETm* c, uint32_t) { work.push_back(c); });
    }
  };
  for (TopId id = 0; id < globals.size(); ++id)
    if (ETm* b = globals[id].body) index(b, id);
  for (size_t i = 0; i < specs_.size(); ++i)
    if (ETm* b = specs_[i].body) index(b, specInfo_[i].origin);
  auto it = originByLam_.find(lam);
  return it == originByLam_.end() ? kNoFrame : it->second;
}

} // namespace thorin::rt

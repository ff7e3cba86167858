// Hot inner λs. A λ inside a function that runs once (`main`'s step function
// given to natElim, a fold's operator) is called through interpreted
// closures however hot it gets: only top-level functions count calls and
// get compiled. So each λ counts the calls of its interpreted closures too;
// once hot, it is lifted out — a global taking the λ's free variables before
// its own parameters, registered like a specialization — and compiled.
// Closures made before keep working: their entry looks the lifted copy up
// on the λ and passes it the free variables from the closure's environment.
#include <fmt/format.h>

#include "runtime.hpp"

namespace thorin::rt {

// A λ is lifted after this many times the calls that make a top-level
// function hot: λs are small (a fold's operator, a build's element), so
// their interpretation costs less per call than the compilation of their
// copy. Measured: at the same threshold, matmul256 compiled its seven build
// and map λs and took 124 ms instead of 93; at 100×, three of them (65,536
// calls each). natElim's step over 3·10⁶ numbers ran in 73 ms either way
// instead of 270 ms interpreted.
constexpr uint64_t kLambdaFactor = 100;

bool Runtime::callLifted(ETm* lam, IEnv* env, const V* args, V& r) {
  LamState& s = lam->lam;
  if (!s.lifted) {
    if (++s.calls == opts.threshold * kLambdaFactor && opts.mode != JitMode::Off && backend &&
        !lam->b)
      lift(lam, env);
    return false;
  }
  const Lifted& l = *s.lifted;
  if (l.gen != liftGen_) { // dropped with the specializations: lifted again when hot
    s.lifted = nullptr;
    s.calls = 0;
    return false;
  }
  if (jobs_ && backend->anyFinished()) [[unlikely]]
    settleJit(false);
  Global& g = global(l.id);
  if (!g.compiled) {
    // Compiling in the background, or its code was dropped (a deoptimization,
    // a callee redefined): asked for again after as many calls.
    if (!g.compiling && !g.compileFailed && ++s.calls >= opts.threshold * kLambdaFactor) {
      s.calls = 0;
      requestCompile(l.id);
    }
    if (!g.compiled) return false;
  }
  ++g.calls;
  // The free variables (outermost first), then the λ's own arguments.
  size_t k = l.free.size(), n = lam->n;
  V small[16];
  V* all = k + n <= 16 ? small : static_cast<V*>(alloca(sizeof(V) * (k + n)));
  IEnv* e = env;
  uint32_t at = 0;
  for (size_t j = 0; j < k; ++j) {
    for (; at < l.free[j]; ++at)
      e = e->prev;
    all[j] = e->v;
  }
  for (size_t i = 0; i < n; ++i)
    all[k + i] = args[i];
  r = g.compiled(nullptr, all);
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

void Runtime::lift(ETm* lam, IEnv* env) {
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
  requestCompile(id);
}

// The top-level definition whose erased body contains `lam` (kNoFrame if
// none: an expression typed at the prompt).
TopId Runtime::originOf(const ETm* lam) {
  auto contains = [&](auto& self, ETm* t) -> bool {
    if (t == lam) return true;
    bool found = false;
    forEachChild(t, 0, [&](ETm* c, uint32_t) { found = found || self(self, c); });
    return found;
  };
  for (TopId id = 0; id < globals.size(); ++id)
    if (ETm* b = globals[id].body; b && contains(contains, b)) return id;
  for (size_t i = 0; i < specs_.size(); ++i)
    if (ETm* b = specs_[i].body; b && contains(contains, b)) return specInfo_[i].origin;
  return kNoFrame;
}

} // namespace thorin::rt

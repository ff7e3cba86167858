#include "unify.hpp"

#include "axiom.hpp"
#include "literal.hpp"
#include "runner.hpp"

#include <algorithm>
#include <cstdlib>

#include "eval.hpp"
#include "guard.hpp"

namespace thorin {

namespace {
// Spine entries, oldest first.
void spineToVec(Spine* sp, std::vector<Spine*>& out) {
  out.clear();
  for (; sp; sp = sp->prev)
    out.push_back(sp);
  std::reverse(out.begin(), out.end());
}
} // namespace

bool Unifier::unify(Lvl l, Val* t, Val* u) {
  reason.clear();
  if (t == u) return true; // (U against U, a type against itself: no nursery to set up)
  if (w_.nursery) return go(l, t, u, UMode::Rigid);
  Nursery nursery(w_);
  roots_.clear();
  proven_.clear();
  bool ok = go(l, t, u, UMode::Rigid);
  proven_.clear(); // (the values may be released after this problem)
  return ok;
}

// Two closures of one term in environments that hold the same values (a
// type instantiated twice at the same variables: a generated eliminator's
// method types, met at each recursive call) are equal without comparing
// their bodies.
bool sameClosure(const Val* t, const Val* u) {
  if (t->body != u->body) return false;
  const Env *x = t->env, *y = u->env;
  for (; x && y; x = x->prev, y = y->prev) {
    const Val *a = x->v, *b = y->v;
    // (Irrelevant: a codomain instantiated without its argument, which it
    // does not mention — nor does any closure inside it.)
    if (a == b || a->tag == VTag::Irrelevant || b->tag == VTag::Irrelevant) continue;
    if (a->tag != VTag::Rigid || b->tag != VTag::Rigid || a->n != b->n || a->sp || b->sp)
      return false;
  }
  return !x && !y;
}

bool sameValue(const Val* a, const Val* b) {
  if (a == b) return true;
  if (a->tag != b->tag) return false;
  switch (a->tag) {
  case VTag::Rigid:
  case VTag::Top: return a->n == b->n && !a->sp && !b->sp;
  case VTag::U: return true;
  case VTag::Pi:
  case VTag::Sigma:
    return a->icit == b->icit && sameValue(a->a, b->a) && sameClosure(a, b);
  default: return false;
  }
}

static bool litEqual(Val* t, Val* u) {
  if (t->n != u->n) return false;
  switch (LitKind(t->n)) {
  case LitKind::BigNat:
    return mpz_cmp(static_cast<const BigNat*>(t->big)->z, static_cast<const BigNat*>(u->big)->z) ==
           0;
  case LitKind::Str: return litStr(t->big) == litStr(u->big);
  default: return t->bits == u->bits;
  }
}

// What a value is made by, as far as telling the branches of a natElim apart
// goes: Π, Σ, U, a literal, a postulate (or an axiom without computation
// rules), a variable bound below level l; 0: not known — a stuck computation
// (a recursive call, natElim on a variable) may still become anything.
static uint64_t headKey(World& w, Val* v, Lvl l) {
  v = forceAll(w, v);
  switch (v->tag) {
  case VTag::Pi: return 1;
  case VTag::Sigma: return 2;
  case VTag::U: return 3;
  case VTag::Lit: return (uint64_t(4) << 32) | v->n;
  case VTag::Top: return v->axiom || w.tops[v->n].def ? 0 : (uint64_t(5) << 32) | v->n;
  case VTag::Rigid: return v->n < l ? (uint64_t(6) << 32) | v->n : 0;
  default: return 0;
  }
}

// Does the spine pass the same value twice (`n + n`, `nd t t`)? Short spines
// only: a meta applied to its whole context is not worth the search.
static bool repeatsArg(Spine* s) {
  if (!s || s->len > 8) return false;
  for (Spine* x = s; x; x = x->prev)
    for (Spine* y = x->prev; y; y = y->prev)
      if (x->kind == Elim::App && y->kind == Elim::App && x->arg == y->arg) return true;
  return false;
}

bool Unifier::goSp(Lvl l, Spine* a, Spine* b, UMode m) {
  return goSp(l, a, b, m, repeatsArg(a) && repeatsArg(b));
}

// `remember`: both spines repeat an argument, so a pair found equal here may
// come back (`X + X` against `Y + Y`): it is remembered.
bool Unifier::goSp(Lvl l, Spine* a, Spine* b, UMode m, bool remember) {
  if ((a ? a->len : 0) != (b ? b->len : 0)) return false;
  if (!a) return true;
  RootScope roots(roots_, &a, &b);
  for (; a; a = a->prev, b = b->prev) {
    if (a->kind != b->kind) return false;
    if (a->kind == Elim::App && a->arg != b->arg && !provenEqual(a->arg, b->arg)) {
      if (!go(l, a->arg, b->arg, m)) return false;
      // (a, b are roots: moved with the values if collected)
      if (remember) proven_.insert({a->arg, b->arg});
    }
    if (a->kind == Elim::If && !goIf(l, a->arg, b->arg, m)) return false;
    if (a->kind == Elim::Case && !goCase(l, a->arg, b->arg, m)) return false;
  }
  return true;
}

// Two stuck cases on the same scrutinee: the same constructors, and each
// alternative's body equal under fresh variables for its fields.
bool Unifier::goCase(Lvl l, Val* x, Val* y, UMode m) {
  if (x->body == y->body && x->env == y->env) return true;
  Tm *s = x->body, *t = y->body;
  if (s->n != t->n) return false;
  for (uint32_t i = 0; i < s->n; ++i) {
    const CaseAlt &a = s->alts[i], &b = t->alts[i];
    if (a.con != b.con || a.arity != b.arity) return false;
    Env *ea = x->env, *eb = y->env;
    for (uint32_t j = 0; j < a.arity; ++j) {
      ea = extend(w_, ea, w_.var(l + j));
      eb = extend(w_, eb, w_.var(l + j));
    }
    if (!go(l + a.arity, eval(w_, ea, a.body), eval(w_, eb, b.body), m)) return false;
  }
  return true;
}

// Two stuck conditionals on the same condition: compare the branches.
bool Unifier::goIf(Lvl l, Val* x, Val* y, UMode m) {
  if (x->body == y->body && x->env == y->env) return true;
  return go(l, eval(w_, x->env, x->body->b), eval(w_, y->env, y->body->b), m) &&
         go(l, eval(w_, x->env, x->body->c), eval(w_, y->env, y->body->c), m);
}

// Compares all but the last elimination of two spines of equal shape; the
// last application's arguments are returned for the caller to compare in a
// loop, so that `s (s (s …))` does not recurse once per layer.
bool Unifier::goSpInit(Lvl l, Spine* a, Spine* b, UMode m, Val*& lastA, Val*& lastB) {
  lastA = lastB = nullptr;
  if ((a ? a->len : 0) != (b ? b->len : 0)) return false;
  if (!a) return true;
  if (a->kind != b->kind) return false;
  if (a->prev) { // only then can a nested comparison (and a collection) happen
    RootScope roots(roots_, &a, &b);
    if (!goSp(l, a->prev, b->prev, m, repeatsArg(a) && repeatsArg(b))) return false;
  }
  if (a->kind == Elim::App) {
    lastA = a->arg;
    lastB = b->arg;
  }
  if (a->kind == Elim::If) return goIf(l, a->arg, b->arg, m);
  if (a->kind == Elim::Case) return goCase(l, a->arg, b->arg, m);
  return true;
}

// A closed definition applied to closed definitions (`n10M`, `fullTree
// n23`): a term the runtime can run.
static bool closedConstant(World& w, Val* v, int depth) {
  if (v->tag != VTag::Top || v->axiom || !w.tops[v->n].def) return false;
  uint32_t k = 0;
  for (Spine* s = v->sp; s; s = s->prev)
    if (s->kind != Elim::App || ++k > 8 || depth == 0 || !closedConstant(w, s->arg, depth - 1))
      return false;
  return true;
}

// Two closed terms (`Eq Nat n10M n10Mb`). Most such problems are small: the
// evaluator decides them, lazily, within a budget of steps. A problem that
// outgrows it is handed to the runtime, which computes both normal forms by
// running code — compiled once hot — and compares them, as Coq's vm_compute
// does for conversion. The runtime only ever says "equal"; when it cannot
// tell (builtin data, a budget exceeded, different normal forms), the
// evaluator decides after all, and explains a failure as usual.
bool Unifier::convertClosed(Lvl l, Val* t, Val* u, UMode m) {
  // About 30 ms of Church-numeral conversion: the runtime's own start (loading
  // LLVM, compiling) costs ~20 ms, so a problem is handed over only when it
  // has shown it is big (TreeConv15 stays with the evaluator: 19 ms; with a
  // third of this budget it took 40 ms by running code). THORIN_CONVERT_STEPS
  // overrides it, for tests that send every closed conversion to the runtime.
  static const size_t kLazySteps = [] {
    const char* s = std::getenv("THORIN_CONVERT_STEPS");
    long n = s ? std::atol(s) : 0;
    return n > 0 ? size_t(n) : size_t(150000);
  }();
  RootScope roots(roots_, &t, &u);
  struct Scope {
    Unifier& u;
    explicit Scope(Unifier& x) : u(x) { u.lazyOnly_ = true; }
    ~Scope() {
      u.lazyOnly_ = false;
      u.lazySteps_ = 0;
    }
  } scope(*this);
  try {
    lazySteps_ = kLazySteps;
    bool ok = go(l, t, u, m);
    lazySteps_ = 0;
    return ok;
  } catch (LazyBudgetOut&) {
    lazySteps_ = 0;
  }
  Arena query(1 << 12);
  Tm* a = quote(w_, query, l, t, QuoteOpts{false, false});
  Tm* b = quote(w_, query, l, u, QuoteOpts{false, false});
  if (w_.runner->convertByRunning(w_, a, b)) return true;
  return go(l, t, u, m);
}

bool Unifier::go(Lvl l, Val* t, Val* u, UMode mode) {
  guard();
  RootScope roots(roots_, &t, &u);
  // A loop: the last comparison of each case is a tail call.
  while (true) {
    if (lazySteps_ && --lazySteps_ == 0) [[unlikely]]
      throw LazyBudgetOut{};
    if (w_.nursery && w_.nursery->full()) [[unlikely]] {
      w_.nursery->collect(roots_);
      proven_.clear();
    }
    t = force(w_, t);
    u = force(w_, u);
    while (true) {
      if (t == u) return true;
      // Metas first: solving before eta-expanding or unfolding keeps solutions
      // short and keeps the user's top-level names in them.
      if (t->tag == VTag::Flex || u->tag == VTag::Flex) {
        if (t->tag == VTag::Flex && u->tag == VTag::Flex && t->n == u->n)
          return goSp(l, t->sp, u->sp, mode) || (mode != UMode::Flex && intersect(l, t, u));
        if (mode == UMode::Flex) return false;
        if (t->tag == VTag::Flex && u->tag == VTag::Flex) {
          // Solve the meta whose spine is a linear pattern first (`?F A ≟ ?G A A`:
          // ?F := λ A. ?G A A, where solving ?G would prune both A's), else the
          // one with the longer spine (more likely invertible).
          uint32_t lt = t->sp ? t->sp->len : 0, lu = u->sp ? u->sp->len : 0;
          bool pt = linearPattern(l, t->sp), pu = linearPattern(l, u->sp);
          if (pt != pu ? pu : lt < lu) std::swap(t, u);
          if (solve(l, t, u)) return true;
          std::string r = reason;
          bool nl = nonLinear_, np = notPattern_;
          if (solve(l, u, t)) return true;
          if (reason.empty()) reason = r;
          return (nl || nonLinear_ || np || notPattern_) && postpone(l, t, u, !(np || notPattern_));
        }
        bool flexIsT = t->tag == VTag::Flex;
        Val* flex = flexIsT ? t : u;
        Val* other = flexIsT ? u : t;
        if (solve(l, flex, other)) return true;
        bool nl = nonLinear_, np = notPattern_;
        flex = flexIsT ? t : u; // (solving may have collected the nursery: t, u are roots)
        other = flexIsT ? u : t;
        // `?F ≟ λ x. ?F x`, `?p ≟ (?p.1, ?p.2)`: the occurs check fails, yet
        // the sides are η-equal. Compare them η-expanded.
        std::string r = reason;
        bool eta = false;
        if (other->tag == VTag::Lam) {
          Val* x = w_.var(l);
          eta = go(l + 1, vApp(w_, flex, x, other->icit), apply(w_, other, x), mode);
        } else if (other->tag == VTag::Pair) {
          eta = go(l, vProj1(w_, flex), other->a, mode) && go(l, vProj2(w_, flex), other->b, mode);
        }
        if (!eta) reason = r;
        return eta || ((nl || np) && postpone(l, flex, other, !np));
      }
      if (mode != UMode::Full) break;
      // The same recursive definition on equal arguments (`loop k`, `loop k`)
      // is equal without unfolding, which need not end.
      if (t->tag == VTag::Top && u->tag == VTag::Top && t->n == u->n && recursiveTop(w_, t) &&
          goSp(l, t->sp, u->sp, UMode::Flex))
        return true;
      if (t->tag == VTag::Top && u->tag == VTag::Top && w_.runner && !lazyOnly_ &&
          closedConstant(w_, t, 2) && closedConstant(w_, u, 2))
        return convertClosed(l, t, u, mode);
      // (A stuck recursive call is unfolded below only against something
      // else: two of them unfolded side by side would recurse without end.)
      Val* t2 = stuckRecursiveCall(w_, t) ? t : forceAll(w_, t);
      Val* u2 = stuckRecursiveCall(w_, u) ? u : forceAll(w_, u);
      if (t2 == t && u2 == u) break;
      t = t2;
      u = u2;
      // (Neither side a meta or a definition now: nothing more to unfold.)
      if (t->tag != VTag::Flex && t->tag != VTag::Top && u->tag != VTag::Flex &&
          u->tag != VTag::Top) {
        if (t == u) return true;
        break;
      }
    }

    // (Out of line: the hot loop stays small.)
    if (mode != UMode::Flex &&
        ((t->tag == VTag::Top && t->axiom) || (u->tag == VTag::Top && u->axiom))) [[unlikely]] {
      if (int r = natRules(l, t, u)) {
        if (r < 0) return false;
        continue;
      }
    }
    if (t->tag == VTag::Top || u->tag == VTag::Top) {
      if (t->tag == VTag::Top && u->tag == VTag::Top && t->n == u->n) {
        if (mode == UMode::Flex) return goSp(l, t->sp, u->sp, UMode::Flex);
        // Rigid: same head — try the spines without unfolding, then unfold.
        if (goSp(l, t->sp, u->sp, UMode::Flex)) return true;
        // Stuck recursive calls (`count k` and `count k'`): equal only if
        // their arguments are (as Agda decides it); never unfolded.
        if (stuckRecursiveCall(w_, t) && stuckRecursiveCall(w_, u))
          return goSp(l, t->sp, u->sp, UMode::Rigid);
        Val* t2 = forceAll(w_, t);
        Val* u2 = forceAll(w_, u);
        if (t2 == t && u2 == u) return goSp(l, t->sp, u->sp, UMode::Rigid); // postulates
        t = t2;
        u = u2;
        mode = UMode::Full;
        continue;
      }
      if (mode == UMode::Flex) return false;
      // Two different recursive definitions stuck on variables (`count k`,
      // `count2 k`): not convertible without induction.
      if (t->tag == VTag::Top && u->tag == VTag::Top && stuckRecursiveCall(w_, t) &&
          stuckRecursiveCall(w_, u))
        return false;
      Val* t2 = t->tag == VTag::Top ? forceAll(w_, t) : t;
      Val* u2 = u->tag == VTag::Top ? forceAll(w_, u) : u;
      if (t2 != t || u2 != u) {
        t = t2;
        u = u2;
        continue;
      }
      // Only postulates remain at the heads: compare structurally below.
    }

    Val* x;
    // Both sides are binders: continue with their bodies on a fresh variable.
    auto underBinder = [&] {
      x = w_.var(l);
      t = apply(w_, t, x);
      u = apply(w_, u, x);
      ++l;
    };
    switch (t->tag) {
    case VTag::Pi:
    case VTag::Sigma:
      if (u->tag == t->tag) {
        if (t->icit != u->icit) return false;
        if (!go(l, t->a, u->a, mode)) return false;
        if (sameClosure(t, u)) return true;
        underBinder();
        continue;
      }
      break;
    case VTag::U:
      if (u->tag == VTag::U) return true;
      break;
    case VTag::Lit:
      if (u->tag == VTag::Lit) return litEqual(t, u);
      break;
    case VTag::Arr:
      if (u->tag == VTag::Arr) {
        if (t->n != u->n) return false;
        for (uint32_t i = 0; i < t->n; ++i)
          if (!go(l, t->elems[i], u->elems[i], mode)) return false;
        return true;
      }
      break;
    case VTag::Lam:
      if (u->tag == VTag::Lam) {
        if (sameClosure(t, u)) return true;
        underBinder();
        continue;
      }
      break;
    case VTag::Pair:
      if (u->tag == VTag::Pair) {
        if (!go(l, t->a, u->a, mode)) return false;
        t = t->b;
        u = u->b;
        continue;
      }
      break;
    case VTag::Rigid:
    case VTag::Top:
      if (u->tag == t->tag) {
        if (t->n != u->n) return false;
        Val *lt, *lu;
        if (!goSpInit(l, t->sp, u->sp, mode, lt, lu)) return false;
        if (!lt || provenEqual(lt, lu)) return true;
        t = lt;
        u = lu;
        continue;
      }
      break;
    default: break;
    }
    if (t->tag == VTag::Irrelevant || u->tag == VTag::Irrelevant) return true;
    // Eta for functions and pairs.
    if (t->tag == VTag::Lam || u->tag == VTag::Lam) {
      x = w_.var(l);
      Icit i = t->tag == VTag::Lam ? t->icit : u->icit;
      t = t->tag == VTag::Lam ? apply(w_, t, x) : vApp(w_, t, x, i);
      u = u->tag == VTag::Lam ? apply(w_, u, x) : vApp(w_, u, x, i);
      ++l;
      continue;
    }
    if (t->tag == VTag::Pair || u->tag == VTag::Pair) {
      if (!go(l, vProj1(w_, t), vProj1(w_, u), mode)) return false;
      t = vProj2(w_, t);
      u = vProj2(w_, u);
      continue;
    }
    return false;
  }
}

// ---------------------------------------------------------------------------
// Solving ?m x₁ … xₙ ≟ rhs

// A spine argument as a variable: `λ y. f y` is f (η), `x.1` stays a
// projected variable; anything else is nullptr.
Val* Unifier::contractArg(Lvl l, Val* a) {
  a = force(w_, a);
  std::vector<Icit> icits;
  while (a->tag == VTag::Lam) {
    icits.push_back(a->icit);
    a = force(w_, apply(w_, a, w_.var(l + Lvl(icits.size()) - 1)));
  }
  if (a->tag != VTag::Rigid || a->n >= l) return nullptr;
  Spine* sp = a->sp;
  for (size_t i = icits.size(); i-- > 0; sp = sp->prev) {
    if (!sp || sp->kind != Elim::App || sp->icit != icits[i]) return nullptr;
    Val* y = force(w_, sp->arg);
    if (y->tag != VTag::Rigid || y->sp || y->n != l + i) return nullptr;
  }
  std::vector<Elim> projs;
  for (Spine* s = sp; s; s = s->prev) {
    if (s->kind != Elim::Proj1 && s->kind != Elim::Proj2) return nullptr;
    projs.push_back(s->kind);
  }
  if (icits.empty()) return a;
  Val* r = w_.var(a->n);
  for (size_t i = projs.size(); i-- > 0;)
    r = projs[i] == Elim::Proj1 ? vProj1(w_, r) : vProj2(w_, r);
  return r;
}

static const char* kNotVariables =
    "the metavariable is applied to something other than distinct variables";
static const char* kRepeated =
    "the metavariable's arguments repeat a variable that the other side mentions";

bool Unifier::invert(Lvl l, Spine* sp, PRen& ren, std::vector<bool>& keep, bool& linear) {
  std::vector<Spine*>& args = argsBuf_;
  spineToVec(sp, args);
  ren.map.assign(l, -1);
  ren.cod = l;
  ren.dom = Lvl(args.size());
  ren.projs.clear();
  std::vector<uint8_t>& seen = seenBuf_; // 1: as itself, 2: projected, 3: both / overlapping
  seen.assign(l, 0);
  keep.assign(args.size(), true);
  linear = true;
  std::vector<Lvl>& vars = varsBuf_;
  vars.resize(args.size());
  bool conflict = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->kind != Elim::App) return false;
    Val* a = contractArg(l, args[i]->arg);
    if (!a) {
      reason = kNotVariables;
      notPattern_ = true;
      return false;
    }
    Lvl x = vars[i] = a->n;
    if (!a->sp) {
      if (seen[x] == 0) {
        seen[x] = 1;
        ren.map[x] = int32_t(i);
      } else {
        // A repeated variable: solvable only if the other side does not
        // mention it (renamed to -2; the earlier occurrence stays in the
        // solution's telescope, unused).
        if (seen[x] == 1) ren.map[x] = -2;
        keep[i] = false;
        linear = false;
        if (seen[x] == 2) seen[x] = 3, conflict = true;
      }
      continue;
    }
    // x.1, x.2.1, …: the path of projections, oldest first.
    uint32_t path = 0, len = 0;
    for (Spine* s = a->sp; s; s = s->prev, ++len) // (newest first: bit 0 is the oldest)
      path = (path << 1) | (s->kind == Elim::Proj2);
    if (len > 30) {
      reason = kNotVariables;
      notPattern_ = true;
      return false;
    }
    linear = linear && seen[x] != 1;
    if (seen[x] == 1 || seen[x] == 3) {
      seen[x] = 3;
      conflict = true;
      continue;
    }
    for (const PRen::Proj& p : ren.projs) {
      uint32_t n = std::min(p.len, len);
      if (p.x == x && ((p.path ^ path) & ((1u << n) - 1)) == 0) seen[x] = 3; // x.1 and x.1(.2)
    }
    if (seen[x] == 3) {
      conflict = true;
      linear = false;
      continue;
    }
    seen[x] = 2;
    ren.projs.push_back({x, path, len, int32_t(i)});
  }
  if (conflict) {
    // A variable passed both as itself and projected (or the same projection
    // twice): it may not occur in the solution, nor in the telescope's types.
    linear = false;
    for (size_t i = 0; i < args.size(); ++i)
      if (seen[vars[i]] == 3) keep[i] = false;
    std::erase_if(ren.projs, [&](const PRen::Proj& p) { return seen[p.x] == 3; });
    for (Lvl x = 0; x < l; ++x)
      if (seen[x] == 3) ren.map[x] = -2;
  }
  return true;
}

namespace {
// A binder of a Π telescope being rebuilt (see piOver).
struct PiBinder {
  Name name;
  Icit icit;
  Tm* dom;
};
// Π bs. body, the first binder outermost.
Tm* piOver(Arena& a, const std::vector<PiBinder>& bs, Tm* body) {
  for (size_t i = bs.size(); i-- > 0;) {
    Tm* p = mkTm(a, TTag::Pi);
    p->name = bs[i].name;
    p->icit = bs[i].icit;
    p->a = bs[i].dom;
    p->b = body;
    body = p;
  }
  return body;
}
} // namespace

// ?m := λ xs. (?a xs, ?b xs) when ?m's type after k arguments is a Σ (η for
// pairs, as Agda expands metas of record type).
bool Unifier::etaExpandMeta(MetaId m, uint32_t k) {
  std::vector<PiBinder> bs;
  Val* ty = w_.metaType(m);
  Env* env = nullptr;
  for (uint32_t i = 0; i < k; ++i) {
    ty = forceAll(w_, ty);
    if (ty->tag != VTag::Pi) return false;
    bs.push_back({ty->name, ty->icit, quote(w_, w_.perm, i, ty->a)});
    Val* x = w_.var(i);
    env = extend(w_, env, x);
    ty = apply(w_, ty, x);
  }
  ty = forceAll(w_, ty);
  if (ty->tag != VTag::Sigma) return false;
  auto pis = [&](Tm* body) { return piOver(w_.perm, bs, body); };
  auto applied = [&](MetaId a) {
    Tm* t = mkTm(w_.perm, TTag::Meta);
    t->n = a;
    for (uint32_t i = 0; i < k; ++i)
      t = mkApp(w_.perm, t, w_.varTm(k - i - 1), bs[i].icit);
    return t;
  };
  Span span = w_.metas[m].span;
  MetaOrigin origin = w_.metas[m].origin;
  uint32_t ctxLen = std::min(k, w_.metas[m].ctxLen);
  MetaId a = newMeta(w_, pis(quote(w_, w_.perm, k, ty->a)), ctxLen, span, origin);
  Tm* at = applied(a);
  Val* second = apply(w_, ty, eval(w_, env, at));
  MetaId b = newMeta(w_, pis(quote(w_, w_.perm, k, second)), ctxLen, span, origin);
  Tm* pair = mkTm(w_.perm, TTag::Pair);
  pair->a = at;
  pair->b = applied(b);
  std::vector<Icit> icits;
  for (const PiBinder& x : bs)
    icits.push_back(x.icit);
  w_.metas[m].solution = lams(m, icits, pair);
  return true;
}

// The free variables (below fv.size()) of v, also those in metas' spines.
void Unifier::freeVars(Lvl l, Val* v, std::vector<uint8_t>& fv) {
  guard();
  v = force(w_, v);
  Spine* sp = nullptr;
  switch (v->tag) {
  case VTag::Rigid:
    if (v->n < fv.size()) fv[v->n] = 1;
    [[fallthrough]];
  case VTag::Flex:
  case VTag::Top: sp = v->sp; break;
  case VTag::Lam: freeVars(l + 1, apply(w_, v, w_.var(l)), fv); return;
  case VTag::Pi:
  case VTag::Sigma:
    freeVars(l, v->a, fv);
    freeVars(l + 1, apply(w_, v, w_.var(l)), fv);
    return;
  case VTag::Pair:
    freeVars(l, v->a, fv);
    freeVars(l, v->b, fv);
    return;
  case VTag::Arr:
    for (uint32_t i = 0; i < v->n; ++i)
      freeVars(l, v->elems[i], fv);
    return;
  default: return;
  }
  for (; sp; sp = sp->prev)
    if (sp->kind == Elim::App) {
      freeVars(l, sp->arg, fv);
    } else if (sp->kind == Elim::If) {
      Val* th = sp->arg;
      freeVars(l, eval(w_, th->env, th->body->b), fv);
      freeVars(l, eval(w_, th->env, th->body->c), fv);
    } else if (sp->kind == Elim::Case) {
      Val* th = sp->arg;
      for (uint32_t i = 0; i < th->body->n; ++i) {
        const CaseAlt& alt = th->body->alts[i];
        Env* env = th->env;
        for (uint32_t j = 0; j < alt.arity; ++j)
          env = extend(w_, env, w_.var(l + j));
        std::vector<uint8_t> inner(l + alt.arity, 0);
        freeVars(l + alt.arity, eval(w_, env, alt.body), inner);
        for (Lvl x = 0; x < l; ++x)
          fv[x] |= inner[x];
      }
    }
}

// Before postponing `?m xs ≟ rhs`: ?m cannot depend on the arguments that are
// variables rhs does not mention (any solution ignores them), so prune them
// — as Agda does. `?P A x y z y ≟ Eq x y` becomes `?P' A x y y ≟ Eq x y`,
// which a later `?P' A x y z ≟ Eq x z` solves.
void Unifier::pruneLhs(Lvl l, Val* flex, Val* rhs) {
  flex = force(w_, flex);
  if (flex->tag != VTag::Flex) return;
  std::vector<uint8_t> fv(l, 0);
  freeVars(l, rhs, fv);
  std::vector<Spine*> args;
  spineToVec(flex->sp, args);
  std::vector<bool> keep(args.size(), true);
  bool any = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->kind != Elim::App) return;
    Val* a = force(w_, args[i]->arg);
    if (a->tag == VTag::Rigid && !a->sp && a->n < l && !fv[a->n]) keep[i] = false, any = true;
  }
  if (!any) return;
  try {
    pruneMeta(keep, flex->n);
  } catch (RenameFail&) {
  }
}

bool Unifier::postpone(Lvl l, Val* flex, Val* rhs, bool prune) {
  if (!mayPostpone) return false;
  if (prune) {
    pruneLhs(l, flex, rhs);
    if (rhs->tag == VTag::Flex) pruneLhs(l, rhs, flex);
  }
  postponed = true;
  return true;
}

Tm* Unifier::lams(MetaId m, const std::vector<Icit>& icits, Tm* body) {
  std::vector<Name>& names = namesBuf_;
  names.clear();
  const MetaEntry& e = w_.metas[m];
  if (e.boundNames && e.nBound <= icits.size()) names.assign(e.boundNames, e.boundNames + e.nBound);
  bool ctxNamed = e.boundNames || e.ctxLen == 0; // names.size() == e.nBound
  if (names.size() < icits.size() && ctxNamed && e.lazyType && !e.type && e.tyInCtx) {
    // Applied beyond its context: the rest of the names are its type's
    // binders, read off the value (quoting the closed type would cost more
    // than the solution itself).
    Val* ty = e.tyInCtx;
    for (Lvl l = e.ctxLen; names.size() < icits.size(); ++l) {
      ty = forceAll(w_, ty);
      if (ty->tag != VTag::Pi) break;
      names.push_back(ty->name);
      ty = apply(w_, ty, w_.var(l));
    }
  }
  if (names.size() < icits.size()) {
    // Otherwise from the closed type: Π (x : A) … let y = t; … → B.
    names.clear();
    Tm* ty = w_.metaTypeTm(m);
    while (names.size() < icits.size()) {
      if (ty && ty->tag == TTag::Let)
        ty = ty->c;
      else if (ty && ty->tag == TTag::Pi) {
        names.push_back(ty->name);
        ty = ty->b;
      } else {
        names.push_back(intern("x"));
      }
    }
  }
  for (size_t i = icits.size(); i-- > 0;) {
    Tm* t = mkTm(w_.perm, TTag::Lam);
    t->name = names[i] == names::underscore ? intern("x") : names[i]; // (`A → B` names it _)
    t->icit = icits[i];
    t->a = body;
    body = t;
  }
  return body;
}

// Is the spine distinct bound variables (a pattern ?m can be solved on
// without pruning)?
bool Unifier::linearPattern(Lvl l, Spine* sp) {
  std::vector<uint8_t>& seen = seenBuf_;
  seen.assign(l, 0);
  for (; sp; sp = sp->prev) {
    if (sp->kind != Elim::App) return false;
    Val* a = force(w_, sp->arg);
    if (a->tag != VTag::Rigid || a->sp || seen[a->n]) return false;
    seen[a->n] = 1;
  }
  return true;
}

bool Unifier::solve(Lvl l, Val* flex, Val* rhs) {
  MetaId m = flex->n;
  nonLinear_ = notPattern_ = false;
  if (w_.frozen(m)) {
    reason = "cannot solve a metavariable of an earlier definition";
    return false;
  }
  // `?p.1 ≟ t` with ?p : Σ…: ?p := (?a, ?b), then compare again.
  {
    uint32_t k = 0;
    Spine* first = nullptr;
    for (Spine* s = flex->sp; s; s = s->prev)
      if (s->kind != Elim::App) first = s, k = s->len - 1;
    if (first && (first->kind == Elim::Proj1 || first->kind == Elim::Proj2) && etaExpandMeta(m, k))
      return go(l, flex, rhs, UMode::Rigid);
  }
  PRen ren(*this);
  std::vector<bool>& keep = keepBuf_;
  bool linear;
  if (!invert(l, flex->sp, ren, keep, linear)) return false;
  std::vector<Icit>& icits = icitsBuf_;
  icits.clear();
  for (Spine* s = flex->sp; s; s = s->prev)
    icits.push_back(s->icit);
  std::reverse(icits.begin(), icits.end());
  try {
    if (!linear) pruneTy(keep, w_.metaType(m));
    ren.occ = m;
    ++w_.visitStamp;
    Tm* body = rename(ren, rhs);
    size_t n = icits.size();
    body = etaContractBody(w_.perm, body, icits.data(), n);
    icits.resize(n);
    w_.metas[m].solution = lams(m, icits, body);
    return true;
  } catch (RenameFail&) {
    return false;
  }
}

bool Unifier::intersect(Lvl, Val* a, Val* b) {
  std::vector<Spine*> xs, ys;
  spineToVec(a->sp, xs);
  spineToVec(b->sp, ys);
  if (xs.size() != ys.size()) return false;
  std::vector<bool> keep(xs.size());
  bool any = false;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (xs[i]->kind != Elim::App || ys[i]->kind != Elim::App) return false;
    Val* x = force(w_, xs[i]->arg);
    Val* y = force(w_, ys[i]->arg);
    if (x->tag != VTag::Rigid || x->sp || y->tag != VTag::Rigid || y->sp) return false;
    keep[i] = x->n == y->n;
    any |= !keep[i];
  }
  if (!any) return true;
  try {
    pruneMeta(keep, a->n);
    return true;
  } catch (RenameFail&) {
    return false;
  }
}

bool Unifier::mentionsTm(Tm* t, MetaId m) {
  guard();
  switch (t->tag) {
  case TTag::Meta:
  case TTag::InsertedMeta:
    if (t->n == m) return true;
    return w_.metas[t->n].solution && !w_.frozen(t->n) && mentions(t->n, m);
  case TTag::App:
  case TTag::Pi:
  case TTag::Sigma:
  case TTag::Pair: return mentionsTm(t->a, m) || mentionsTm(t->b, m);
  case TTag::Lam:
  case TTag::Proj1:
  case TTag::Proj2:
  case TTag::Field: return mentionsTm(t->a, m);
  case TTag::Let:
  case TTag::If: return mentionsTm(t->a, m) || mentionsTm(t->b, m) || mentionsTm(t->c, m);
  case TTag::Case:
    if (mentionsTm(t->a, m)) return true;
    for (uint32_t i = 0; i < t->n; ++i)
      if (mentionsTm(t->alts[i].body, m)) return true;
    return false;
  case TTag::Arr:
    for (uint32_t i = 0; i < t->n; ++i)
      if (mentionsTm(t->elems[i], m)) return true;
    return false;
  default: return false;
  }
}

bool Unifier::mentions(MetaId k, MetaId m) {
  auto& e = w_.metas[k];
  if (e.visitStamp == w_.visitStamp) return false;
  e.visitStamp = w_.visitStamp;
  return mentionsTm(e.solution, m);
}

// A stuck case in a solution: each alternative renamed under its fields.
Tm* Unifier::renameCase(PRen& ren, Tm* scrutinee, Val* th) {
  Tm* c = th->body;
  Tm* t = mkTm(w_.perm, TTag::Case);
  t->a = scrutinee;
  t->n = c->n;
  t->m = c->m;
  t->alts = w_.perm.array<CaseAlt>(c->n);
  for (uint32_t i = 0; i < c->n; ++i) {
    CaseAlt alt = c->alts[i];
    Env* env = th->env;
    for (uint32_t j = 0; j < alt.arity; ++j) {
      env = extend(w_, env, w_.var(ren.cod));
      ren.lift();
    }
    try {
      alt.body = rename(ren, eval(w_, env, alt.body));
    } catch (...) {
      for (uint32_t j = 0; j < alt.arity; ++j)
        ren.unlift();
      throw;
    }
    for (uint32_t j = 0; j < alt.arity; ++j)
      ren.unlift();
    t->alts[i] = alt;
  }
  return t;
}

Tm* Unifier::renameSpine(PRen& ren, Tm* head, Spine* sp, Spine* stop) {
  if (sp == stop) return head;
  Tm* f = renameSpine(ren, head, sp->prev, stop);
  switch (sp->kind) {
  case Elim::App: return mkApp(w_.perm, f, rename(ren, sp->arg), sp->icit);
  case Elim::If: {
    Tm* t = mkTm(w_.perm, TTag::If);
    Val* th = sp->arg;
    t->a = f;
    t->b = rename(ren, eval(w_, th->env, th->body->b));
    t->c = rename(ren, eval(w_, th->env, th->body->c));
    return t;
  }
  case Elim::Case: return renameCase(ren, f, sp->arg);
  case Elim::Proj1:
  case Elim::Proj2: {
    Tm* t = mkTm(w_.perm, sp->kind == Elim::Proj1 ? TTag::Proj1 : TTag::Proj2);
    t->a = f;
    return t;
  }
  }
  return f;
}

Tm* Unifier::renameFlex(PRen& ren, MetaId m, Spine* sp) {
  // Scratch-arena arrays: rename may come back here recursively.
  uint32_t n = sp ? sp->len : 0;
  Spine** args = w_.scratch.array<Spine*>(n);
  {
    uint32_t i = n;
    for (Spine* s = sp; s; s = s->prev)
      args[--i] = s;
  }
  for (uint32_t i = 0; i < n; ++i)
    if (args[i]->kind != Elim::App) {
      Tm* h = mkTm(w_.perm, TTag::Meta);
      h->n = m;
      return renameSpine(ren, h, sp);
    }
  Tm** tms = w_.scratch.array<Tm*>(n);
  std::vector<bool> keep;
  bool prune = false;
  for (uint32_t i = 0; i < n; ++i) {
    Val* a = force(w_, args[i]->arg);
    if (a->tag == VTag::Rigid && !a->sp) {
      int32_t x = ren.map[a->n];
      if (x < 0 && !ren.projs.empty())
        if (Tm* t = projTm(ren, a->n, 0, 0)) {
          tms[i] = t;
          continue;
        }
      if (x < 0) {
        if (!prune) keep.assign(n, true);
        keep[i] = false;
        prune = true;
      } else {
        tms[i] = w_.varTm(ren.dom - Lvl(x) - 1);
      }
    } else {
      tms[i] = rename(ren, a);
    }
  }
  MetaId m2 = prune ? pruneMeta(keep, m) : m;
  Tm* t = mkTm(w_.perm, TTag::Meta);
  t->n = m2;
  for (uint32_t i = 0; i < n; ++i)
    if (!prune || keep[i]) t = mkApp(w_.perm, t, tms[i], args[i]->icit);
  return t;
}

// x.path (len projections, bit j: the j-th is .2) through the spine's
// projected variables: the variable for x.path itself, or by η the pair of
// x.path.1 and x.path.2; nullptr if neither.
Tm* Unifier::projTm(PRen& ren, Lvl x, uint32_t path, uint32_t len) {
  bool extends = false;
  for (const PRen::Proj& p : ren.projs) {
    if (p.x != x || p.len < len || ((p.path ^ path) & ((1u << len) - 1))) continue;
    if (p.len == len) return w_.varTm(ren.dom - Lvl(p.dom) - 1);
    extends = true;
  }
  if (!extends) return nullptr;
  Tm* a = projTm(ren, x, path, len + 1);
  Tm* b = a ? projTm(ren, x, path | (1u << len), len + 1) : nullptr;
  if (!b) return nullptr;
  Tm* t = mkTm(w_.perm, TTag::Pair);
  t->a = a;
  t->b = b;
  return t;
}

// A variable outside the renaming whose spine starts with projections the
// meta's spine has (`?m x.1 ≟ f x.1`).
Tm* Unifier::renameProjVar(PRen& ren, Val* v) {
  std::vector<Spine*> es;
  spineToVec(v->sp, es);
  uint32_t path = 0, n = 0;
  while (n < es.size() && n < 30 && (es[n]->kind == Elim::Proj1 || es[n]->kind == Elim::Proj2)) {
    path |= uint32_t(es[n]->kind == Elim::Proj2) << n;
    ++n;
  }
  for (uint32_t len = n; len > 0; --len)
    for (const PRen::Proj& p : ren.projs)
      if (p.x == v->n && p.len == len && ((p.path ^ path) & ((1u << len) - 1)) == 0)
        return renameSpine(ren, w_.varTm(ren.dom - Lvl(p.dom) - 1), v->sp, es[len - 1]);
  return n == es.size() ? projTm(ren, v->n, path, n) : nullptr;
}

Tm* Unifier::rename(PRen& ren, Val* v) {
  guard();
  switch (v->tag) {
  case VTag::Flex: {
    MetaId m = v->n;
    if (!w_.metas[m].solution) {
      if (int64_t(m) == ren.occ) {
        reason = "occurs check: the solution would contain the metavariable itself";
        throw RenameFail{};
      }
      return renameFlex(ren, m, v->sp);
    }
    // A solved meta: keep it folded (short solutions) unless it may contain
    // the meta being solved or its spine mentions an escaping variable.
    if (!(ren.occ >= 0 && !w_.frozen(m) && mentions(m, MetaId(ren.occ)))) {
      try {
        Tm* h = mkTm(w_.perm, TTag::Meta);
        h->n = m;
        return renameSpine(ren, h, v->sp);
      } catch (RenameFail&) {
      }
    }
    return rename(ren, force(w_, v));
  }
  case VTag::Top: {
    Tm* h = w_.topTm(v->n);
    if (!v->sp) return h;
    try {
      return renameSpine(ren, h, v->sp);
    } catch (RenameFail&) {
      Val* u = forceAll(w_, v);
      if (u == v) throw;
      return rename(ren, u);
    }
  }
  case VTag::Rigid: {
    int32_t x = v->n < ren.map.size() ? ren.map[v->n] : -1;
    if (x < 0) {
      if (!ren.projs.empty())
        if (Tm* t = renameProjVar(ren, v)) return t;
      if (x == -2) {
        nonLinear_ = true;
        reason = kRepeated;
      } else {
        reason = "a variable would escape its scope";
        for (const PRen::Proj& p : ren.projs)
          if (p.x == v->n) {
            reason += " (the metavariable is applied to only some of its projections)";
            break;
          }
      }
      throw RenameFail{};
    }
    return renameSpine(ren, w_.varTm(ren.dom - Lvl(x) - 1), v->sp);
  }
  case VTag::Lam: {
    Val* x = w_.var(ren.cod);
    Tm* t = mkTm(w_.perm, TTag::Lam);
    t->name = v->name;
    t->icit = v->icit;
    ren.lift();
    try {
      t->a = rename(ren, apply(w_, v, x));
    } catch (...) {
      ren.unlift();
      throw;
    }
    ren.unlift();
    return t;
  }
  case VTag::Pi:
  case VTag::Sigma: {
    Tm* t = mkTm(w_.perm, v->tag == VTag::Pi ? TTag::Pi : TTag::Sigma);
    t->name = v->name;
    t->icit = v->icit;
    t->a = rename(ren, v->a);
    Val* x = w_.var(ren.cod);
    ren.lift();
    try {
      t->b = rename(ren, apply(w_, v, x));
    } catch (...) {
      ren.unlift();
      throw;
    }
    ren.unlift();
    return t;
  }
  case VTag::Pair: {
    Tm* t = mkTm(w_.perm, TTag::Pair);
    t->a = rename(ren, v->a);
    t->b = rename(ren, v->b);
    return t;
  }
  case VTag::U: return mkTm(w_.perm, TTag::U);
  case VTag::Irrelevant: return mkTm(w_.perm, TTag::Irrelevant);
  case VTag::Lit: return tmOfLit(w_.perm, v);
  case VTag::Arr: {
    Tm* t = mkTm(w_.perm, TTag::Arr);
    t->n = v->n;
    t->elems = w_.perm.array<Tm*>(v->n);
    for (uint32_t i = 0; i < v->n; ++i)
      t->elems[i] = rename(ren, v->elems[i]);
    return t;
  }
  case VTag::Thunk: break;
  }
  throw RenameFail{};
}

Tm* Unifier::pruneTy(const std::vector<bool>& keep, Val* ty) {
  PRen ren(*this);
  std::vector<PiBinder> kept;
  for (size_t i = 0; i < keep.size(); ++i) {
    ty = forceAll(w_, ty);
    if (ty->tag != VTag::Pi) throw RenameFail{};
    Val* x = w_.var(ren.cod);
    if (keep[i]) {
      kept.push_back({ty->name, ty->icit, rename(ren, ty->a)});
      ren.lift();
    } else {
      ren.skip();
    }
    ty = apply(w_, ty, x);
  }
  return piOver(w_.perm, kept, rename(ren, ty));
}

// Rules of Nat arithmetic, as Agda's unifier has them for suc: 1 — go on
// with the new t and u, -1 — not equal, 0 — none applies.
int Unifier::natRules(Lvl l, Val*& t, Val*& u) {
  // `x + 3 ≟ y + 1` is `x + 2 ≟ y` (Agda: suc ?x ≟ suc (suc (suc y)) gives
  // ?x := suc (suc y), where comparing the arguments of + side by side would
  // solve ?x := y and then fail on 3 ≟ 1).
  uint64_t j, k;
  if (t->tag == VTag::Top && u->tag == VTag::Top && t->n == u->n) {
    Val* x = natOffset(w_, t, j);
    Val* y = x ? natOffset(w_, u, k) : nullptr;
    if (y && j != k) {
      uint64_t m = std::min(j, k);
      Val* add = w_.topHead(t->n);
      auto plus = [&](Val* z, uint64_t c) {
        return c ? vApp(w_, vApp(w_, add, z, Icit::Expl), vLit(w_, LitKind::Nat, c), Icit::Expl)
                 : z;
      };
      t = plus(x, j - m);
      u = plus(y, k - m);
      return 1;
    }
  }
  // Successors of literals, as Agda's `suc ?n ≟ 3`: x + k ≟ c is x ≟ c - k,
  // and not equal if c < k.
  Val* lit = t->tag == VTag::Lit ? t : u->tag == VTag::Lit ? u : nullptr;
  if (lit && LitKind(lit->n) == LitKind::Nat)
    if (Val* x = natOffset(w_, lit == t ? u : t, k)) {
      if (lit->bits < k) return -1;
      t = vLit(w_, LitKind::Nat, lit->bits - k);
      u = x;
      return 1;
    }
  // A type computed by natElim on an unknown number, against a type only one
  // of its branches makes: the number is zero or a successor.
  if (invertNatElim(l, t, u) || invertNatElim(l, u, t)) {
    Val* t2 = forceAll(w_, t);
    Val* u2 = forceAll(w_, u);
    if (t2 == t && u2 == u) return -1;
    t = t2;
    u = u2;
    return 1;
  }
  return 0;
}

// natElim P z s (?m xs) ≟ rhs, where z and s x r have different heads and
// rhs has one of them: ?m := λ xs. 0, or ?m := λ xs. ?k xs + 1 for a fresh ?k.
// Agda inverts constructor-headed functions so (`Vec ?n A ≟ A × Vec 2 A`
// for `Vec (suc n) A = A × Vec n A`). True if ?m was solved.
bool Unifier::invertNatElim(Lvl l, Val* elim, Val* rhs) {
  const AxiomTable& axioms = AxiomTable::get();
  if (elim->tag != VTag::Top || !elim->axiom ||
      !axioms.is(w_.tops[elim->n].axiom->id, Builtin::NatElim) || !elim->sp || elim->sp->len != 4)
    return false;
  Val* args[4];
  for (Spine* s = elim->sp; s; s = s->prev) {
    if (s->kind != Elim::App) return false;
    args[s->len - 1] = s->arg;
  }
  Val* n = force(w_, args[3]);
  if (n->tag != VTag::Flex || w_.frozen(n->n)) return false;
  uint64_t zero = headKey(w_, args[1], l);
  uint64_t succ =
      headKey(w_, vApp(w_, vApp(w_, args[2], w_.var(l), Icit::Expl), w_.var(l + 1), Icit::Expl), l);
  uint64_t want = headKey(w_, rhs, l);
  if (!zero || !succ || zero == succ || (want != zero && want != succ)) return false;
  if (want == zero) return go(l, n, vLit(w_, LitKind::Nat, 0), UMode::Rigid);
  int32_t add = w_.axiomEntry(axioms.builtin(Builtin::NatAdd));
  if (add < 0) return false;
  // ?m := λ xs. ?k xs + 1, with ?k of ?m's type (as pruneMeta builds it).
  MetaId m = n->n;
  uint32_t len = 0;
  for (Spine* s = n->sp; s; s = s->prev) {
    if (s->kind != Elim::App) return false;
    ++len;
  }
  std::vector<bool> keep(len, true);
  MetaEntry& old = w_.metas[m];
  MetaId k = newMeta(w_, pruneTy(keep, w_.metaType(m)), len, old.span, old.origin);
  Tm* body = mkTm(w_.perm, TTag::Meta);
  body->n = k;
  for (uint32_t i = 0; i < len; ++i)
    body = mkApp(w_.perm, body, w_.varTm(len - i - 1), Icit::Expl);
  body = mkApp(w_.perm, mkApp(w_.perm, w_.topTm(TopId(add)), body, Icit::Expl),
               tmOfLit(w_.perm, vLit(w_, LitKind::Nat, 1)), Icit::Expl);
  std::vector<Icit> icits(len, Icit::Expl);
  w_.metas[m].solution = lams(m, icits, body);
  return true;
}

MetaId Unifier::pruneMeta(const std::vector<bool>& keep, MetaId m) {
  Tm* prunedTy = pruneTy(keep, w_.metaType(m));
  uint32_t kept = 0;
  for (bool k : keep)
    kept += k;
  MetaEntry& old = w_.metas[m];
  MetaId m2 = newMeta(w_, prunedTy, kept, old.span, old.origin);
  Tm* body = mkTm(w_.perm, TTag::Meta);
  body->n = m2;
  uint32_t n = uint32_t(keep.size());
  for (uint32_t i = 0; i < n; ++i)
    if (keep[i]) body = mkApp(w_.perm, body, w_.varTm(n - i - 1), Icit::Expl);
  std::vector<Icit> icits(n, Icit::Expl);
  w_.metas[m].solution = lams(m, icits, body);
  return m2;
}

// ---------------------------------------------------------------------------

// Lowers every free index ≥ cutoff by k (the k variables from `cutoff` on are
// unused). Subterms without such an index are shared, not copied.
static Tm* strengthen(Arena& a, Tm* t, Ix cutoff, Ix k) {
  auto copyIf = [&](Tm* s, Tm* x, Tm* y, Tm* z) {
    if (x == s->a && y == s->b && z == s->c) return s;
    Tm* c = a.make<Tm>(*s);
    c->a = x, c->b = y, c->c = z;
    return c;
  };
  switch (t->tag) {
  case TTag::Var: {
    if (t->n < cutoff) return t;
    Tm* c = a.make<Tm>(*t);
    c->n = t->n - k;
    return c;
  }
  case TTag::App:
  case TTag::Pair:
    return copyIf(t, strengthen(a, t->a, cutoff, k), strengthen(a, t->b, cutoff, k), t->c);
  case TTag::Pi:
  case TTag::Sigma:
    return copyIf(t, strengthen(a, t->a, cutoff, k), strengthen(a, t->b, cutoff + 1, k), t->c);
  case TTag::Lam:
  case TTag::Proj1:
  case TTag::Proj2:
  case TTag::Field:
    return copyIf(t, strengthen(a, t->a, t->tag == TTag::Lam ? cutoff + 1 : cutoff, k), t->b, t->c);
  case TTag::Let:
  case TTag::If:
    return copyIf(t, strengthen(a, t->a, cutoff, k), strengthen(a, t->b, cutoff, k),
                  strengthen(a, t->c, t->tag == TTag::Let ? cutoff + 1 : cutoff, k));
  case TTag::Case: {
    CaseAlt* alts = a.array<CaseAlt>(t->n);
    bool same = true;
    for (uint32_t i = 0; i < t->n; ++i) {
      alts[i] = t->alts[i];
      alts[i].body = strengthen(a, t->alts[i].body, cutoff + alts[i].arity, k);
      same &= alts[i].body == t->alts[i].body;
    }
    Tm* s = strengthen(a, t->a, cutoff, k);
    if (same && s == t->a) return t;
    Tm* c = a.make<Tm>(*t);
    c->a = s;
    c->alts = alts;
    return c;
  }
  case TTag::Arr: {
    Tm** elems = a.array<Tm*>(t->n);
    bool same = true;
    for (uint32_t i = 0; i < t->n; ++i)
      same &= (elems[i] = strengthen(a, t->elems[i], cutoff, k)) == t->elems[i];
    if (same) return t;
    Tm* c = a.make<Tm>(*t);
    c->elems = elems;
    return c;
  }
  default: return t; // closed nodes; InsertedMeta never occurs in solutions
  }
}

Tm* etaContractBody(Arena& a, Tm* body, const Icit* icits, size_t& n) {
  // λ x₁…xₙ. f x₁…xₙ  ⇒  f   (when the xᵢ do not occur in f); the binders
  // are the solution's n and then the body's own leading λs.
  std::vector<Tm*> inner;
  Tm* f = body;
  for (; f->tag == TTag::Lam; f = f->a)
    inner.push_back(f);
  size_t total = n + inner.size(), k = 0;
  auto icitOf = [&](size_t j) { return j < n ? icits[j] : inner[j - n]->icit; };
  while (k < total && f->tag == TTag::App && f->b->tag == TTag::Var && f->b->n == k &&
         f->icit == icitOf(total - 1 - k)) {
    f = f->a;
    ++k;
  }
  if (k == 0) return body;
  for (Ix i = 0; i < k; ++i)
    if (freeIn(f, i)) return body;
  f = strengthen(a, f, 0, Ix(k));
  if (k < inner.size()) {
    for (size_t i = inner.size() - k; i-- > 0;) {
      Tm* l = a.make<Tm>(*inner[i]);
      l->a = f;
      f = l;
    }
  } else {
    n -= k - inner.size();
  }
  return f;
}

} // namespace thorin

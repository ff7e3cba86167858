#include "elab.hpp"
#include "literal.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "diagnostic.hpp"
#include "eval.hpp"
#include "guard.hpp"
#include "pretty.hpp"
#include "zonk.hpp"

namespace thorin {

static Val* vU() { return vUniverse(); }

MetaId newMeta(World& w, Tm* closedType, uint32_t ctxLen, Span span, MetaOrigin origin) {
  MetaEntry e;
  e.type = closedType;
  e.ctxLen = ctxLen;
  e.block = w.block;
  e.span = span;
  e.origin = origin;
  w.metas.push_back(std::move(e));
  return MetaId(w.metas.size() - 1);
}

std::vector<Name> Cxt::names() const {
  std::vector<Name> ns(lvl);
  for (Local* l = locals; l; l = l->prev)
    ns[l->lvl] = l->name;
  return ns;
}

std::string Elab::showVal(const Cxt& c, Val* v) {
  size_t budget = 4 * kShownTermLimit; // (nodes: more than the bytes printed)
  return show(w_, quote(w_, w_.scratch, c.lvl, v, {.budget = &budget}), c.names(), kShownTermLimit);
}
std::string Elab::showTm(const Cxt& c, Tm* t) { return show(w_, t, c.names()); }

Val* Elab::evalIn(Cxt& c, Tm* t) { return eval(w_, c.env, t); }

// The codomain closure body of a Π/Σ inferred in `c`: `ty`, the type of the
// body (a λ's: its variable is the one of level c.lvl) or of a pair's second
// component (`dependent` false), kept as a value (see TTag::Embed).
// A pair against a type not known yet: its components against fresh
// metas, so that a literal in them takes its type from what is found later
// (`cons (1, 2) nil : List (I64 × I64)`), then the pair's type unified.
Tm* Elab::checkPairUnknown(Cxt& c, RPair* p, Val* a) {
  Val* at = evalIn(c, freshMeta(c, vU(), p->fst->span, {MetaOrigin::FirstType, {}}));
  Val* bt = evalIn(c, freshMeta(c, vU(), p->snd->span, {MetaOrigin::SecondType, {}}));
  Tm* t = mkTm(w_.perm, TTag::Pair);
  t->a = check(c, p->fst, at);
  t->b = check(c, p->snd, bt);
  Val* sg = mkVal(w_, VTag::Sigma);
  sg->name = names::underscore;
  sg->a = at;
  sg->env = c.env;
  sg->body = embed(c, bt, false);
  unifyOrFail(c, p->span, a, sg);
  return t;
}

Tm* Elab::embed(Cxt& c, Val* ty, bool dependent) {
  Tm* t = mkTm(w_.scratch, TTag::Embed);
  t->n = c.lvl;
  t->m = dependent ? 0 : 1;
  t->val = ty;
  t->env = c.env;
  if (!dependent) t->usesVar0 = 2; // (dependsOnVar0: no)
  return t;
}

// Instantiates a Π/Σ closure with the value of `arg`, evaluating it only if
// the codomain depends on it: `f a b c …` against non-dependent arrows stays
// linear even when the arguments are large terms.
Val* Elab::instantiate(Cxt& c, Val* closure, Tm* arg) {
  if (!dependsOnVar0(closure->body)) return apply(w_, closure, vUnused());
  return apply(w_, closure, evalIn(c, arg));
}

// A local that lookups can find, or the nearest older one.
static Local* named(Local* l) {
  return !l || (l->visible && l->name != names::underscore) ? l : l->namedPrev;
}

Cxt Elab::bind(const Cxt& c, Name x, Val* ty, bool visible) {
  Local* l = w_.scratch.make<Local>(c.locals, x, ty, c.lvl, false, visible, nullptr);
  l->namedPrev = named(c.locals);
  return Cxt{extend(w_, c.env, w_.var(c.lvl)), c.lvl + 1, l};
}

Cxt Elab::define(const Cxt& c, Name x, Tm* def, Val* vdef, Val* ty) {
  Local* l = w_.scratch.make<Local>(c.locals, x, ty, c.lvl, true, true, def);
  l->namedPrev = named(c.locals);
  return Cxt{extend(w_, c.env, vdef), c.lvl + 1, l};
}

Tm* Elab::tyTm(World& w, Local* l) {
  if (!l->tyTm) l->tyTm = quote(w, w.perm, l->lvl, l->ty, QuoteOpts{false, false});
  return l->tyTm;
}

// The bound/defined mask of the context (and its bound variables' names),
// made once per local. A binder's extends its parent's in place when the
// parent's is the end of its buffer (a chain of n binders: O(n) in all,
// not O(n²) — n nested unannotated λs make a meta at each).
const uint8_t* Elab::mask(const Cxt& c) {
  if (!c.locals) return nullptr;
  if (c.locals->mask) return c.locals->mask;
  std::vector<Local*> todo; // (those without one, newest first)
  Local* base = c.locals;
  for (; base && !base->mask; base = base->prev)
    todo.push_back(base);
  for (auto it = todo.rbegin(); it != todo.rend(); ++it) {
    extendMask(*it, base);
    base = *it;
  }
  return c.locals->mask;
}

void Elab::extendMask(Local* l, Local* prev) {
  uint32_t len = l->lvl, nb = prev ? prev->nBound : 0;
  MaskBuf* b = prev ? prev->maskBuf : nullptr;
  if (!b || b->used != len || b->usedNames != nb || len == b->cap || nb == b->capNames) {
    auto* fresh = w_.perm.make<MaskBuf>();
    fresh->cap = std::max<uint32_t>(16, 2 * (len + 1));
    fresh->capNames = std::max<uint32_t>(16, 2 * (nb + 1));
    fresh->mask = w_.perm.array<uint8_t>(fresh->cap);
    fresh->names = w_.perm.array<Name>(fresh->capNames);
    if (len && prev) std::memcpy(fresh->mask, prev->mask, len);
    std::copy(prev ? prev->boundNames : nullptr, prev ? prev->boundNames + nb : nullptr,
              fresh->names);
    fresh->used = len;
    fresh->usedNames = nb;
    b = fresh;
  }
  b->mask[b->used++] = l->defined ? 0 : 1;
  if (!l->defined) b->names[b->usedNames++] = l->name;
  l->mask = b->mask;
  l->boundNames = b->names;
  l->nBound = b->usedNames;
  l->maskBuf = b;
}

// The closed type of a meta: Π (x : A) … let y = t; … → ty over its context.
Tm* Elab::closeMetaType(World& w, MetaId m) {
  MetaEntry& e = w.metas[m];
  Tm* closed = quote(w, w.perm, e.ctxLen, e.tyInCtx, QuoteOpts{false, false});
  for (Local* l = static_cast<Local*>(const_cast<void*>(e.ctx)); l; l = l->prev) {
    Tm* b = mkTm(w.perm, l->defined ? TTag::Let : TTag::Pi);
    b->name = l->name;
    b->a = tyTm(w, l);
    if (l->defined) {
      b->b = l->defTm;
      b->c = closed;
    } else {
      b->b = closed;
    }
    closed = b;
  }
  return closed;
}

Tm* Elab::freshMeta(Cxt& c, Val* ty, Span span, MetaOrigin origin) {
  MetaId m = newMeta(w_, nullptr, c.lvl, span, origin);
  MetaEntry& e = w_.metas[m];
  e.lazyType = true;
  e.ctx = c.locals;
  e.tyInCtx = ty;
  if (c.locals) {
    mask(c); // also computes the bound names
    e.boundNames = c.locals->boundNames;
    e.nBound = c.locals->nBound;
  }
  // A goal's type and context are shown after the definition, when the
  // context's locals (scratch memory) may be gone: built now.
  if (origin.kind == MetaOrigin::Goal) w_.metaTypeTm(m);
  Tm* t = mkTm(w_.perm, TTag::InsertedMeta);
  t->n = m;
  t->m = c.lvl;
  t->mask = mask(c);
  return t;
}

// Unifies, allowing the unifier to postpone a problem with no unique solution
// yet; `postponed` tells whether it did.
bool Elab::unifyMayPostpone(Cxt& c, Val* expected, Val* actual, bool& postponed) {
  unifier_.mayPostpone = true;
  unifier_.postponed = false;
  bool ok = unifier_.unify(c.lvl, actual, expected);
  unifier_.mayPostpone = false;
  postponed = unifier_.postponed;
  return ok;
}

void Elab::unifyOrFail(Cxt& c, Span span, Val* expected, Val* actual, Raw* term) {
  bool postponed;
  if (!unifyMayPostpone(c, expected, actual, postponed)) {
    if (term) cannotHaveType(c, term, expected);
    mismatch(c, span, expected, actual);
  }
  if (postponed)
    delayed_.push_back(
        {c, span, quote(w_, w_.perm, c.lvl, expected), quote(w_, w_.perm, c.lvl, actual)});
  else if (!delayed_.empty())
    retryDelayed(false);
}

[[noreturn]] void Elab::mismatch(Cxt& c, Span span, Val* expected, Val* actual) {
  std::vector<std::string> notes{"expected type: " + showVal(c, expected),
                                 "  actual type: " + showVal(c, actual)};
  if (!unifier_.reason.empty()) notes.push_back("(" + unifier_.reason + ")");
  fail(span, "type mismatch", std::move(notes));
}

// Retries the postponed problems until none makes progress; `final`: the
// ones left are errors.
void Elab::retryDelayed(bool final) {
  for (bool progress = true; progress && !delayed_.empty();) {
    progress = false;
    for (size_t i = 0; i < delayed_.size(); ++i) {
      Delayed d = delayed_[i];
      Val* e = evalIn(d.c, d.expected);
      Val* a = evalIn(d.c, d.actual);
      bool postponed;
      if (!unifyMayPostpone(d.c, e, a, postponed)) mismatch(d.c, d.span, e, a);
      if (postponed) continue;
      delayed_.erase(delayed_.begin() + ptrdiff_t(i--));
      progress = true;
    }
  }
  if (!final) return;
  for (Delayed& d : delayed_) {
    Val* e = evalIn(d.c, d.expected);
    Val* a = evalIn(d.c, d.actual);
    if (!unifier_.unify(d.c.lvl, a, e)) mismatch(d.c, d.span, e, a);
  }
  delayed_.clear();
}

std::pair<Tm*, Val*> Elab::insert(Cxt& c, Span span, Tm* t, Val* ty) {
  while (true) {
    Val* f = forceAll(w_, ty);
    if (f->tag != VTag::Pi || f->icit != Icit::Impl) return {t, ty};
    Tm* m = freshMeta(c, f->a, span, MetaOrigin{MetaOrigin::Implicit, f->name});
    t = mkApp(w_.perm, t, m, Icit::Impl);
    ty = apply(w_, f, evalIn(c, m));
  }
}

std::pair<Tm*, Val*> Elab::insertUntil(Cxt& c, Span span, Name x, Tm* t, Val* ty) {
  Val* original = ty;
  while (true) {
    Val* f = forceAll(w_, ty);
    if (f->tag != VTag::Pi || f->icit != Icit::Impl)
      fail(span, fmt::format("no implicit argument named '{}'", str(x)),
           {"the function's type: " + showVal(c, original)});
    if (f->name == x) return {t, ty};
    Tm* m = freshMeta(c, f->a, span, MetaOrigin{MetaOrigin::Implicit, f->name});
    t = mkApp(w_.perm, t, m, Icit::Impl);
    ty = apply(w_, f, evalIn(c, m));
  }
}

std::pair<Tm*, Val*> Elab::inferInsert(Cxt& c, Raw* r) {
  auto [t, ty] = infer(c, r);
  if (r->kind == RKind::Lam && as<RLam>(r)->info.icit == Icit::Impl) return {t, ty};
  return insert(c, r->span, t, ty);
}

static bool lamMatches(RLam* l, Val* pi) {
  if (l->info.icit != pi->icit) return false;
  return !l->info.named || l->info.named == pi->name;
}

Tm* Elab::check(Cxt& c, Raw* r, Val* a) {
  guard();
  Val* f = force(w_, a);
  if (f->tag == VTag::Top) f = forceAll(w_, f);
  switch (r->kind) {
  case RKind::Lam: {
    auto* l = as<RLam>(r);
    if (f->tag == VTag::Pi && lamMatches(l, f)) {
      Val* dom = f->a;
      if (l->ty) {
        Tm* ann = check(c, l->ty, vU());
        Val* va = evalIn(c, ann);
        if (!unifier_.unify(c.lvl, va, dom))
          fail(l->ty->span, "the binder's type annotation does not match the expected type",
               {"expected type: " + showVal(c, dom), "  annotation: " + showVal(c, va)});
      }
      Cxt c2 = bind(c, l->x, dom);
      Tm* filt = filter(c2, l);
      Tm* body = check(c2, l->body, apply(w_, f, w_.var(c.lvl)));
      Tm* t = mkTm(w_.perm, TTag::Lam);
      t->name = l->x;
      t->icit = f->icit;
      t->a = body;
      t->c = filt;
      return t;
    }
    if (l->info.named && f->tag == VTag::Pi && f->icit == Icit::Impl) {
      // `λ {C = x}. …` must name one of the implicit arguments ahead.
      bool found = false;
      Val* g = f;
      for (Lvl k = c.lvl; g->tag == VTag::Pi && g->icit == Icit::Impl; ++k) {
        if (g->name == l->info.named) found = true;
        g = forceAll(w_, apply(w_, g, w_.var(k)));
      }
      if (!found)
        fail(l->info.nameSpan, fmt::format("no implicit argument named '{}'", str(l->info.named)),
             {"expected type: " + showVal(c, a)});
    }
    break;
  }
  case RKind::Pair: {
    auto* p = as<RPair>(r);
    if (f->tag == VTag::Sigma) {
      Tm* a1 = check(c, p->fst, f->a);
      Tm* a2 = check(c, p->snd, instantiate(c, f, a1));
      Tm* t = mkTm(w_.perm, TTag::Pair);
      t->a = a1;
      t->b = a2;
      return t;
    }
    if (f->tag == VTag::Flex) return checkPairUnknown(c, p, a);
    break;
  }
  case RKind::Let: {
    auto* l = as<RLet>(r);
    Tm* ty;
    Tm* def;
    Val* vty;
    if (l->ty) {
      ty = check(c, l->ty, vU());
      vty = evalIn(c, ty);
      def = check(c, l->def, vty);
    } else {
      auto [d, dty] = inferInsert(c, l->def);
      def = d;
      vty = dty;
      ty = quote(w_, w_.perm, c.lvl, vty, QuoteOpts{false, false});
    }
    Cxt c2 = define(c, l->x, def, evalIn(c, def), vty);
    Tm* body = check(c2, l->body, a);
    Tm* t = mkTm(w_.perm, TTag::Let);
    t->name = l->x;
    t->a = ty;
    t->b = def;
    t->c = body;
    return t;
  }
  case RKind::Hole: return freshMeta(c, a, r->span, {MetaOrigin::Hole, {}});
  case RKind::Known:
    if (!inFilter_) return freshMeta(c, a, r->span, {MetaOrigin::Goal, as<RKnown>(r)->name});
    break;
  case RKind::Number:
    if (AxiomId ty = axiomHead(f); ty != kNoAxiom) {
      const AxiomTable& t = AxiomTable::get();
      for (Builtin b : {Builtin::Nat, Builtin::I64, Builtin::F64})
        if (t.is(ty, b)) return checkNumber(r, b);
      if (t.is(ty, Builtin::Idx) && f->sp && f->sp->len == 1) return checkIndex(c, r, f->sp->arg);
    }
    if (f->tag == VTag::Flex) return postponeNumber(c, r, a);
    break;
  case RKind::If: return checkIf(c, as<RIf>(r), a);
  case RKind::Do: return checkDo(c, as<RDo>(r), a);
  case RKind::Case: return checkCase(c, as<RCase>(r), a);
  case RKind::Clauses: return checkClauses(c, as<RClauses>(r), a);
  case RKind::BinOp: {
    auto [t, ty] = elabBinOp(c, as<RBinOp>(r), f);
    unifyOrFail(c, r->span, a, ty);
    return t;
  }
  case RKind::Array: // (against an unknown type: its elements' type is found later, as
                     // `cons [1, 2] nil : List (Array 2 I64)` needs)
    if (f->tag == VTag::Top || (f->tag == VTag::Flex && as<RArray>(r)->n > 0)) {
      auto [t, ty] = elabArray(c, as<RArray>(r), f);
      unifyOrFail(c, r->span, a, ty);
      return t;
    }
    break;
  default: break;
  }
  // A term checked against an implicit function type gets an implicit λ,
  // unless it is itself an implicit λ (handled above when the names match),
  // or a variable of that very type (a generated eliminator passes its
  // methods on at each recursive call: no λ, and no metavariable to solve).
  if (f->tag == VTag::Pi && f->icit == Icit::Impl && r->kind == RKind::Var) {
    auto [t, ty] = inferVar(c, as<RVar>(r));
    if (sameValue(forceAll(w_, ty), f)) return t;
  }
  if (f->tag == VTag::Pi && f->icit == Icit::Impl) {
    Cxt c2 = bind(c, f->name, f->a, false);
    Tm* body = check(c2, r, apply(w_, f, w_.var(c.lvl)));
    Tm* t = mkTm(w_.perm, TTag::Lam);
    t->name = f->name;
    t->icit = Icit::Impl;
    t->a = body;
    return t;
  }
  if (r->kind == RKind::Lam && as<RLam>(r)->info.icit == Icit::Impl && f->tag == VTag::Pi)
    fail(r->span, "unexpected implicit lambda: the expected type is an explicit function type",
         {"expected type: " + showVal(c, a)});
  Tm* t;
  Val* ty;
  if (r->kind == RKind::App) {
    std::tie(t, ty) = inferAppExpecting(c, as<RApp>(r), a);
    std::tie(t, ty) = insert(c, r->span, t, ty);
  } else {
    std::tie(t, ty) = inferInsert(c, r);
  }
  unifyOrFail(c, r->span, a, ty, r);
  return t;
}

// The filter of a λ group (on its innermost binder): a Bool over the
// parameters; `@` alone is `true`.
Tm* Elab::filter(Cxt& c, RLam* l) {
  if (!l->filter && !l->filterAlways) return nullptr;
  w_.hasFilters = true;
  if (l->filterAlways) return tmOfLit(w_.perm, vBool(w_, true));
  inFilter_ = true;
  struct Reset {
    bool& f;
    ~Reset() { f = false; }
  } reset{inFilter_};
  return check(c, l->filter, builtinType(Builtin::Bool, l->filter->span));
}

std::pair<Tm*, Val*> Elab::inferVar(Cxt& c, RVar* r) {
  for (Local* l = named(c.locals); l; l = l->namedPrev)
    if (l->name == r->name) return {w_.varTm(c.lvl - l->lvl - 1), l->ty};
  int32_t top = w_.resolve(r->name);
  if (top >= 0) {
    return {w_.topTm(TopId(top)), w_.topType(TopId(top))};
  }
  if (r->name == names::Type) return {mkTm(w_.perm, TTag::U), vU()};
  // Suggest a close name (edit distance ≤ 2).
  std::string_view want = str(r->name);
  auto dist = [](std::string_view a, std::string_view b) {
    std::vector<size_t> d(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
      d[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t prev = d[0];
      d[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t tmp = d[j];
        d[j] = std::min({d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1])});
        prev = tmp;
      }
    }
    return d[b.size()];
  };
  std::string best;
  size_t bestD = std::max<size_t>(1, want.size() / 3) + 1; // accept distance ≤ max(1, len/3)
  auto consider = [&](Name n) {
    std::string_view s = str(n);
    if (s == "_" || want.size() > 64) return; // (a name that long is no typo)
    // The lengths' difference bounds the distance from below: most names
    // are ruled out without computing it.
    if (std::max(want.size(), s.size()) - std::min(want.size(), s.size()) >= bestD) return;
    size_t d = dist(want, s);
    if (d < bestD) {
      bestD = d;
      best = std::string(s);
    }
  };
  for (Local* l = c.locals; l; l = l->prev)
    if (l->visible) consider(l->name);
  // The entries in scope (not replaced ones), in definition order, which a
  // reload keeps as a fresh load would have it.
  std::vector<TopId> inScope;
  for (TopId id = 0; id < w_.tops.size(); ++id)
    if (w_.lookupTop(w_.tops[id].name) == int32_t(id)) inScope.push_back(id);
  // (The user's own names first: on a tie they are the likelier meant.)
  std::sort(inScope.begin(), inScope.end(), [&](TopId a, TopId b) {
    const TopEntry &x = w_.tops[a], &y = w_.tops[b];
    return x.prelude != y.prelude ? !x.prelude : x.seq < y.seq;
  });
  for (TopId id : inScope)
    consider(w_.tops[id].name);
  std::vector<std::string> notes;
  if (want == "Set" || want == "Type0")
    notes.push_back("the universe is written U (or Type)");
  else if (want == "do")
    notes.push_back("`do` starts a block when statements follow: on the next lines, after "
                    "`{`, or separated by `;` (a single action needs no `do`)");
  else if (want == "forall") // (∀ is not an identifier: the lexer says so)
    notes.push_back("a Π type is written (x : A) → B, or {x : A} → B for an implicit x");
  else if (!best.empty())
    notes.push_back(fmt::format("did you mean '{}'?", best));
  fail(r->span, fmt::format("unknown name '{}'", want), std::move(notes));
}

std::pair<Tm*, Val*> Elab::inferApp(Cxt& c, RApp* r) {
  Icit icit = r->info.icit;
  Tm* t;
  Val* ty;
  if (r->info.named) {
    auto [t0, ty0] = infer(c, r->fn);
    std::tie(t, ty) = insertUntil(c, r->info.nameSpan, r->info.named, t0, ty0);
  } else if (icit == Icit::Impl) {
    std::tie(t, ty) = infer(c, r->fn);
  } else {
    std::tie(t, ty) = inferInsert(c, r->fn);
  }
  return applyArg(c, r, t, ty);
}

// `t : ty` (the function, elaborated) applied to r's argument.
std::pair<Tm*, Val*> Elab::applyArg(Cxt& c, RApp* r, Tm* t, Val* ty) {
  Icit icit = r->info.icit;
  Val* f = forceAll(w_, ty);
  if (f->tag == VTag::Flex) {
    // Unknown function type: refine it to a fresh Π.
    Tm* a = freshMeta(c, vU(), r->fn->span, {MetaOrigin::Domain, {}});
    Val* va = evalIn(c, a);
    Cxt c2 = bind(c, intern("x"), va);
    Tm* b = freshMeta(c2, vU(), r->fn->span, {MetaOrigin::Codomain, {}});
    Val* pi = mkVal(w_, VTag::Pi);
    pi->name = intern("x");
    pi->icit = icit;
    pi->a = va;
    pi->env = c.env;
    pi->body = b;
    unifyOrFail(c, r->fn->span, pi, ty);
    f = pi;
  }
  if (f->tag != VTag::Pi) {
    fail(r->fn->span, "this is applied to an argument, but it is not a function",
         {"its type: " + showVal(c, ty)});
  }
  if (f->icit != icit) {
    if (icit == Icit::Impl)
      fail(r->arg->span, "unexpected implicit argument: the function expects an explicit one",
           {"the function's type: " + showVal(c, ty)});
    fail(r->arg->span, "expected an implicit argument", {"the function's type: " + showVal(c, ty)});
  }
  Tm* u = check(c, r->arg, f->a);
  if (r->arg->kind == RKind::String) checkLiteral(t, r->arg);
  return {appTm(r, t, u), instantiate(c, f, u)};
}

// A string literal given to an axiom that checks its literals (a regex
// pattern): an error is located at the offending bytes inside the literal.
void Elab::checkLiteral(Tm* fn, Raw* lit) {
  Tm* h = fn;
  while (h->tag == TTag::App)
    h = h->a;
  if (h->tag != TTag::Top) return;
  const TopEntry& e = w_.tops[h->n];
  const Axiom* ax = e.axiom                            ? e.axiom
                    : e.def && e.def->tag == TTag::Top ? w_.tops[e.def->n].axiom
                                                       : nullptr;
  if (!ax || !ax->checkLiteral) return;
  std::string_view raw = std::string_view(lit->span.src->text)
                             .substr(lit->span.begin + 1, lit->span.end - lit->span.begin - 2);
  std::optional<LiteralError> err = ax->checkLiteral(unescape(raw));
  if (!err) return;
  // Where each byte of the value starts in the literal (escapes are longer).
  std::vector<uint32_t> at;
  for (uint32_t i = 0; i < raw.size();) {
    at.push_back(i);
    i += raw[i] != '\\' ? 1 : raw[i + 1] == 'x' ? 4 : 2;
  }
  at.push_back(uint32_t(raw.size()));
  auto pos = [&](uint32_t v) {
    return lit->span.begin + 1 + at[std::min<size_t>(v, at.size() - 1)];
  };
  uint32_t b = pos(err->offset), end = err->length ? pos(err->offset + err->length) : b + 1;
  fail(Span{lit->span.src, b, end}, err->message);
}

Tm* Elab::appTm(RApp* r, Tm* t, Tm* u) {
  Tm* res = mkTm(w_.perm, TTag::App);
  res->a = t;
  res->b = u;
  res->icit = r->info.icit;
  // Applications of builtins remember their position for run-time errors.
  // (The head of `f a₁ … aₙ₋₁` was looked at for the previous argument: the
  // walk stops there, or `f` applied to n arguments would cost O(n²).)
  Tm* h = t;
  while (h->tag == TTag::App && h != lastApp_)
    h = h->a;
  bool builtin = false;
  if (h == lastApp_) {
    builtin = lastAppBuiltin_;
  } else if (h->tag == TTag::Top) {
    const TopEntry& e = w_.tops[h->n];
    builtin = e.axiom || (e.def && e.def->tag == TTag::Top && w_.tops[e.def->n].axiom);
  }
  if (builtin) res->m = w_.addSpan(r->span);
  lastApp_ = res;
  lastAppBuiltin_ = builtin;
  return res;
}

// An application checked against a known type, `f a₁ … aₙ` with explicit
// arguments only: when f's type says the result does not depend on them and
// is an unsolved metavariable (`id : {A} → A → A` applied: ?A), the expected
// type solves it before the arguments are checked, so that they are checked
// against it (`x : I64 = id 3` makes 3 an I64, where inferring first would
// make it a Nat), as Lean propagates the expected type. Otherwise (and for
// the arguments past a dependent one) this is inferApp's order.
std::pair<Tm*, Val*> Elab::inferAppExpecting(Cxt& c, RApp* r, Val* expected) {
  std::vector<RApp*> apps; // innermost first: apps[0] applies the head
  Raw* h = r;
  for (; h->kind == RKind::App; h = as<RApp>(h)->fn) {
    auto* a = as<RApp>(h);
    if (a->info.named || a->info.icit != Icit::Expl) return inferApp(c, r);
    apps.push_back(a);
  }
  std::reverse(apps.begin(), apps.end());
  auto [t, ty] = inferInsert(c, h);
  // Walk the function's type as inferApp will: implicit arguments inserted
  // before each explicit one (they are used below), the Π it meets recorded.
  struct Step {
    std::vector<Tm*> implicits; // inserted before the argument
    Val* pi = nullptr;          // its Π (nullptr: not known here)
  };
  std::vector<Step> steps(apps.size());
  Val* walk = ty;
  size_t known = 0;
  for (; known < apps.size(); ++known) {
    if (known > 0) {
      auto [ti, tyi] = insert(c, apps[known]->fn->span, nullptr, walk);
      for (Tm* a = ti; a; a = a->a)
        steps[known].implicits.insert(steps[known].implicits.begin(), a->b);
      walk = tyi;
    }
    Val* f = forceAll(w_, walk);
    if (f->tag != VTag::Pi || f->icit != Icit::Expl || dependsOnVar0(f->body)) break;
    steps[known].pi = f;
    walk = apply(w_, f, vUnused()); // (its variable is not used)
  }
  if (known == apps.size()) {
    Val* res = force(w_, walk);
    if (res->tag == VTag::Flex) (void)unifier_.unify(c.lvl, expected, walk); // (else: as before)
  }
  for (size_t i = 0; i < apps.size(); ++i) {
    if (i > 0 && i > known) std::tie(t, ty) = insert(c, apps[i]->fn->span, t, ty);
    for (Tm* m : steps[i].implicits)
      t = mkApp(w_.perm, t, m, Icit::Impl);
    if (!steps[i].pi) {
      if (i == known && i > 0) ty = walk; // (implicits inserted above, by the walk)
      std::tie(t, ty) = applyArg(c, apps[i], t, ty);
      continue;
    }
    Tm* u = check(c, apps[i]->arg, steps[i].pi->a);
    if (apps[i]->arg->kind == RKind::String) checkLiteral(t, apps[i]->arg);
    t = appTm(apps[i], t, u);
    ty = instantiate(c, steps[i].pi, u);
  }
  return {t, ty};
}

std::pair<Tm*, Val*> Elab::inferProj(Cxt& c, RProj* r) {
  auto [t, ty] = inferInsert(c, r->t);
  Val* f = forceAll(w_, ty);
  if (f->tag == VTag::Flex && r->proj != ProjKind::Field) {
    Tm* a = freshMeta(c, vU(), r->t->span, {MetaOrigin::FirstType, {}});
    Val* va = evalIn(c, a);
    Cxt c2 = bind(c, intern("x"), va);
    Tm* b = freshMeta(c2, vU(), r->t->span, {MetaOrigin::SecondType, {}});
    Val* sg = mkVal(w_, VTag::Sigma);
    sg->name = intern("x");
    sg->a = va;
    sg->env = c.env;
    sg->body = b;
    unifyOrFail(c, r->t->span, sg, ty);
    f = sg;
  }
  auto notPair =
      [&, ty = ty]() -> std::pair<Tm*, Val*> { // (clang 14 cannot capture a structured binding)
    fail(r->span, "this projection is applied to something that is not a pair",
         {"its type: " + showVal(c, ty)});
  };
  switch (r->proj) {
  case ProjKind::Fst: {
    if (f->tag != VTag::Sigma) return notPair();
    Tm* p = mkTm(w_.perm, TTag::Proj1);
    p->a = t;
    return {p, f->a};
  }
  case ProjKind::Snd: {
    if (f->tag != VTag::Sigma) return notPair();
    Tm* p = mkTm(w_.perm, TTag::Proj2);
    p->a = t;
    Tm* p1 = mkTm(w_.perm, TTag::Proj1);
    p1->a = t;
    return {p, apply(w_, f, evalIn(c, p1))};
  }
  case ProjKind::Field: {
    Val* cur = evalIn(c, t);
    for (uint32_t k = 0;; ++k) {
      if (f->tag != VTag::Sigma)
        fail(r->span, fmt::format("no field named '{}'", str(r->field)),
             {"the type: " + showVal(c, ty)});
      if (f->name == r->field) {
        Tm* p = mkTm(w_.perm, TTag::Field);
        p->a = t;
        p->n = k;
        p->name = r->field;
        return {p, f->a};
      }
      f = forceAll(w_, apply(w_, f, vProj1(w_, cur)));
      cur = vProj2(w_, cur);
    }
  }
  }
  return notPair();
}

std::pair<Tm*, Val*> Elab::infer(Cxt& c, Raw* r) {
  guard();
  switch (r->kind) {
  case RKind::Var: return inferVar(c, as<RVar>(r));
  case RKind::U: return {mkTm(w_.perm, TTag::U), vU()};
  case RKind::Hole: {
    Tm* a = freshMeta(c, vU(), r->span, {MetaOrigin::HoleType, {}});
    Tm* t = freshMeta(c, evalIn(c, a), r->span, {MetaOrigin::Hole, {}});
    return {t, evalIn(c, a)};
  }
  case RKind::Pi:
  case RKind::Sigma: {
    bool pi = r->kind == RKind::Pi;
    Name x = pi ? as<RPi>(r)->x : as<RSigma>(r)->x;
    Raw* dom = pi ? as<RPi>(r)->dom : as<RSigma>(r)->fst;
    Raw* cod = pi ? as<RPi>(r)->cod : as<RSigma>(r)->snd;
    Tm* a = check(c, dom, vU());
    Cxt c2 = bind(c, x, evalIn(c, a));
    Tm* b = check(c2, cod, vU());
    Tm* t = mkTm(w_.perm, pi ? TTag::Pi : TTag::Sigma);
    t->name = x;
    t->icit = pi ? as<RPi>(r)->icit : Icit::Expl;
    t->a = a;
    t->b = b;
    return {t, vU()};
  }
  case RKind::Lam: {
    auto* l = as<RLam>(r);
    if (l->info.named)
      fail(r->span, "cannot infer the type of a lambda with a named implicit binder",
           {"add a type annotation (a typed definition, or an explicit Π type to check against)"});
    Tm* a = l->ty ? check(c, l->ty, vU())
                  : freshMeta(c, vU(), l->binderSpan, MetaOrigin{MetaOrigin::BinderType, l->x});
    Val* va = evalIn(c, a);
    Cxt c2 = bind(c, l->x, va);
    Tm* filt = filter(c2, l);
    auto [body, bty] = inferInsert(c2, l->body);
    Tm* t = mkTm(w_.perm, TTag::Lam);
    t->name = l->x;
    t->icit = l->info.icit;
    t->a = body;
    t->c = filt;
    Val* pi = mkVal(w_, VTag::Pi);
    pi->name = l->x;
    pi->icit = l->info.icit;
    pi->a = va;
    pi->env = c.env;
    pi->body = embed(c, bty, true);
    return {t, pi};
  }
  case RKind::App: return inferApp(c, as<RApp>(r));
  case RKind::Pair: {
    auto* p = as<RPair>(r);
    auto [a, aty] = inferInsert(c, p->fst);
    auto [b, bty] = inferInsert(c, p->snd);
    Tm* t = mkTm(w_.perm, TTag::Pair);
    t->a = a;
    t->b = b;
    Val* sg = mkVal(w_, VTag::Sigma);
    sg->name = names::underscore;
    sg->a = aty;
    sg->env = c.env;
    sg->body = embed(c, bty, false);
    return {t, sg};
  }
  case RKind::Proj: return inferProj(c, as<RProj>(r));
  case RKind::Let: {
    auto* l = as<RLet>(r);
    Tm* ty;
    Tm* def;
    Val* vty;
    if (l->ty) {
      ty = check(c, l->ty, vU());
      vty = evalIn(c, ty);
      def = check(c, l->def, vty);
    } else {
      auto [d, dty] = inferInsert(c, l->def);
      def = d;
      vty = dty;
      ty = quote(w_, w_.perm, c.lvl, vty, QuoteOpts{false, false});
    }
    Cxt c2 = define(c, l->x, def, evalIn(c, def), vty);
    auto [body, bty] = infer(c2, l->body);
    Tm* t = mkTm(w_.perm, TTag::Let);
    t->name = l->x;
    t->a = ty;
    t->b = def;
    t->c = body;
    return {t, bty};
  }
  case RKind::Number: return inferNumber(r);
  case RKind::String: return inferString(r);
  case RKind::If: return inferIf(c, as<RIf>(r));
  case RKind::Do: return inferDo(c, as<RDo>(r));
  case RKind::Case: return inferCase(c, as<RCase>(r));
  case RKind::Absurd:
    fail(r->span, "the absurd pattern () is only allowed in a pattern",
         {"`()` stands for a value of an empty type, which cannot exist"});
  case RKind::Clauses: fail(r->span, "clauses need a signature before them");
  case RKind::Dot: fail(r->span, "a dot pattern .(t) is only allowed in a pattern");
  case RKind::BinOp: return elabBinOp(c, as<RBinOp>(r), nullptr);
  case RKind::Array: return elabArray(c, as<RArray>(r), nullptr);
  case RKind::Known: {
    auto* k = static_cast<RKnown*>(r);
    if (!inFilter_) { // a goal, its type to be found
      Tm* a = freshMeta(c, vU(), r->span, {MetaOrigin::HoleType, {}});
      Tm* t = freshMeta(c, evalIn(c, a), r->span, {MetaOrigin::Goal, k->name});
      return {t, evalIn(c, a)};
    }
    if (!k->name.id) fail(r->span, "expected a parameter after '?' in a filter");
    for (Local* l = c.locals; l; l = l->prev)
      if (l->visible && l->name == k->name) {
        Tm* t = mkTm(w_.perm, TTag::Known);
        t->n = c.lvl - l->lvl - 1;
        return {t, builtinType(Builtin::Bool, r->span)};
      }
    fail(r->span, fmt::format("'{}' is not a parameter here", str(k->name)),
         {"?x asks whether the parameter x is statically known at a call"});
  }
  case RKind::Ann: {
    auto* an = as<RAnn>(r);
    Val* ty = evalIn(c, check(c, an->ty, vU()));
    return {check(c, an->t, ty), ty};
  }
  }
  fail(r->span, "cannot elaborate this term");
}

constexpr size_t kUnsolvedShown = 10;

void Elab::requireSolved(size_t firstMeta) {
  finish();
  std::vector<Diagnostic> ds;
  size_t unsolved = 0;
  for (size_t m = firstMeta; m < w_.metas.size(); ++m) {
    auto& e = w_.metas[m];
    if (e.solution || e.origin.kind == MetaOrigin::Goal) continue; // (goals: TopLevel)
    // The first few, each in its context: n nested unannotated λs leave n
    // metas in contexts up to n long (8,000 λs: minutes of messages).
    if (++unsolved > kUnsolvedShown) continue;
    // Print the meta's type in its own context (skip the closing binders).
    std::vector<Name> ctx;
    Tm* ty = w_.metaTypeTm(MetaId(m));
    for (uint32_t i = 0; i < e.ctxLen && (ty->tag == TTag::Pi || ty->tag == TTag::Let); ++i) {
      ctx.push_back(ty->name);
      ty = ty->tag == TTag::Pi ? ty->b : ty->c;
    }
    ds.push_back(Diagnostic{
        e.span,
        fmt::format("unsolved metavariable {} ({})", metaName(w_, MetaId(m)), e.origin.describe()),
        // (zonked: metas solved since it was made show their solutions)
        {"of type: " + show(w_, zonk(w_, w_.scratch, ty, Lvl(ctx.size())), ctx, kShownTermLimit)}});
  }
  if (unsolved > kUnsolvedShown)
    ds.back().notes.push_back(
        fmt::format("and {} more unsolved metavariables", unsolved - kUnsolvedShown));
  if (!ds.empty()) throw Error(std::move(ds));
}

} // namespace thorin

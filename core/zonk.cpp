#include "zonk.hpp"

#include "eval.hpp"
#include "guard.hpp"

namespace thorin {
namespace {

struct Zonker {
  World& w;
  Arena& out;

  bool metaHeaded(Tm* t) {
    while (t->tag == TTag::App)
      t = t->a;
    return (t->tag == TTag::Meta || t->tag == TTag::InsertedMeta) && w.metas[t->n].solution;
  }

  Env* envFor(Lvl lvl) {
    Env* e = nullptr;
    for (Lvl i = 0; i < lvl; ++i)
      e = extend(w, e, w.var(i));
    return e;
  }

  Tm* go(Tm* t, Lvl lvl) {
    guard();
    if (metaHeaded(t)) return quote(w, out, lvl, eval(w, envFor(lvl), t), QuoteOpts{false, true});
    auto copy = [&] { return out.make<Tm>(*t); };
    switch (t->tag) {
    case TTag::App:
    case TTag::Pair: {
      Tm* c = copy();
      c->a = go(t->a, lvl);
      c->b = go(t->b, lvl);
      return c;
    }
    case TTag::Pi:
    case TTag::Sigma: {
      Tm* c = copy();
      c->a = go(t->a, lvl);
      c->b = go(t->b, lvl + 1);
      return c;
    }
    case TTag::Lam: {
      Tm* c = copy();
      c->a = go(t->a, lvl + 1);
      return c;
    }
    case TTag::Proj1:
    case TTag::Proj2:
    case TTag::Field: {
      Tm* c = copy();
      c->a = go(t->a, lvl);
      return c;
    }
    case TTag::Let: {
      Tm* c = copy();
      c->a = go(t->a, lvl);
      c->b = go(t->b, lvl);
      c->c = go(t->c, lvl + 1);
      return c;
    }
    case TTag::Case: {
      Tm* c = copy();
      c->a = go(t->a, lvl);
      c->alts = out.array<CaseAlt>(t->n);
      for (uint32_t i = 0; i < t->n; ++i) {
        c->alts[i] = t->alts[i];
        c->alts[i].body = go(t->alts[i].body, lvl + t->alts[i].arity);
      }
      return c;
    }
    default: return t;
    }
  }
};

} // namespace

Tm* zonk(World& w, Arena& out, Tm* t, Lvl lvl) { return Zonker{w, out}.go(t, lvl); }

} // namespace thorin

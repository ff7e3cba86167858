#include "erase.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/axiom.hpp"
#include "core/eval.hpp"
#include "core/literal.hpp"
#include "core/pretty.hpp"

namespace thorin::rt {

ETm* Eraser::mk(ETag t) {
  ETm* e = out_.make<ETm>();
  e->tag = t;
  return e;
}

// `f args`, after β-reducing what erasure can (solved metas are λs).
ETm* Eraser::apply(ETm* f, std::vector<ETm*>& args) {
  while (f->tag == ETag::Lam && args.size() >= f->n)
    f = beta(f, args);
  if (args.empty() || f->tag == ETag::Erased) return f;
  ETm* e = mk(ETag::App);
  e->a = f;
  e->n = uint32_t(args.size());
  e->args = out_.array<ETm*>(args.size());
  std::copy(args.begin(), args.end(), e->args);
  return e;
}

bool Eraser::isTypeFormer(TopId id) {
  const Tm* ty = w_.tops[id].type;
  while (ty->tag == TTag::Pi)
    ty = ty->b;
  return ty->tag == TTag::U;
}

// The machine type of a value of type `ty` (I64, F64, Bool), None for a word.
static MType machineTypeOf(World& w, Val* ty) {
  Val* f = forceAll(w, ty);
  if (f->tag != VTag::Top || f->sp || !w.tops[f->n].axiom) return MType::None;
  return machineType(w.tops[f->n].axiom->id);
}

void shapeLeaves(const Shape& s, std::vector<MType>& out) {
  if (!s.isPair()) {
    out.push_back(s.leaf);
    return;
  }
  for (const Shape& p : s.parts)
    shapeLeaves(p, out);
}

// At most kShapeLeaves words or machine numbers per flattened value (a
// returned struct beyond two goes through memory, but on the stack).
static constexpr uint32_t kShapeLeaves = 8;

// `room`: how many more leaves the value may split into.
static Shape shapeOf(World& w, Val* ty, uint32_t& room) {
  Val* f = forceAll(w, ty);
  Shape s;
  if (f->tag == VTag::Sigma && room > 0) {
    --room;
    s.parts.push_back(shapeOf(w, f->a, room));
    // (A dependent second component's type with an unknown: only its head matters.)
    s.parts.push_back(shapeOf(w, thorin::apply(w, f, vUnused()), room));
    return s;
  }
  s.leaf = machineTypeOf(w, f);
  return s;
}

static Shape shapeOf(World& w, Val* ty) {
  uint32_t room = kShapeLeaves - 1;
  return shapeOf(w, ty, room);
}

MachineSig Eraser::signature(TopId id) {
  MachineSig sig;
  Val* ty = forceAll(w_, w_.topType(id));
  while (ty->tag == VTag::Pi) {
    sig.params.push_back(machineTypeOf(w_, ty->a));
    sig.shapes.push_back(shapeOf(w_, ty->a));
    // (A dependent codomain is instantiated with an unknown: only its head matters.)
    ty = forceAll(w_, thorin::apply(w_, ty, vUnused()));
  }
  sig.result = machineTypeOf(w_, ty);
  sig.resultShape = shapeOf(w_, ty);
  sig.known = true;
  return sig;
}

const Axiom* Eraser::axiomOf(TopId id) {
  const TopEntry& e = w_.tops[id];
  if (e.axiom) return e.axiom;
  if (e.def && e.def->tag == TTag::Top) return w_.tops[e.def->n].axiom;
  return nullptr;
}

// The erased head of an application; primitives take their arguments here.
ETm* Eraser::head(Tm* h, uint32_t span, std::vector<ETm*>& args) {
  if (h->tag != TTag::Top || w_.tops[h->n].conOf >= 0) return erase(h);
  if (isTypeFormer(h->n)) return mk(ETag::Erased);
  const Axiom* ax = axiomOf(h->n);
  if (!ax) return erase(h);
  if (ax->arity == 0) return erase(h); // constants
  const Prim* p = findPrim(ax->id);
  if (!p) return erase(h);
  ETm* e = mk(args.size() >= p->arity ? ETag::Prim : ETag::PrimPap);
  e->prim = p->axiom;
  e->span = span;
  uint32_t k = std::min<uint32_t>(uint32_t(args.size()), p->arity);
  e->n = k;
  e->args = out_.array<ETm*>(k);
  for (uint32_t i = 0; i < k; ++i)
    e->args[i] = args[i];
  args.erase(args.begin(), args.begin() + k);
  return e;
}

ETm* mapVars(Arena& a, ETm* t, uint32_t depth, const std::function<uint32_t(uint32_t)>& f) {
  ETm* c = a.make<ETm>(*t);
  if (t->tag == ETag::Var) {
    if (t->n >= depth) c->n = depth + f(t->n - depth);
    return c;
  }
  if (t->args) { // the copy gets its own argument array
    c->args = a.array<ETm*>(t->n);
    std::copy(t->args, t->args + t->n, c->args);
  }
  forEachChild(c, depth, [&](ETm*& ch, uint32_t d) { ch = mapVars(a, ch, d, f); });
  return c;
}

size_t countNodes(ETm* t, size_t limit) {
  std::vector<ETm*> todo{t};
  size_t n = 0;
  while (!todo.empty() && n <= limit) {
    ETm* u = todo.back();
    todo.pop_back();
    ++n;
    forEachChild(u, 0, [&](ETm* c, uint32_t) {
      if (c) todo.push_back(c);
    });
  }
  return n;
}

void freeVars(ETm* t, uint32_t depth, std::vector<bool>& used) {
  if (t->tag == ETag::Var) {
    if (t->n >= depth && t->n - depth < used.size()) used[t->n - depth] = true;
    return;
  }
  forEachChild(t, depth, [&](ETm* ch, uint32_t d) { freeVars(ch, d, used); });
}

// `(λ x₁…x_k. b) a₁…a_n` at erasure time: `let xᵢ = aᵢ; … b` (lets only for
// the xᵢ that b uses) applied to the rest. Solved metas applied to their
// context — every implicit argument — would otherwise build and call a
// closure at each use.
ETm* Eraser::beta(ETm* f, std::vector<ETm*>& args) {
  uint32_t k = f->n;
  std::vector<bool> usedIx(k, false); // by de Bruijn index in the body
  freeVars(f->a, 0, usedIx);
  auto used = [&](uint32_t j) { return usedIx[k - 1 - j]; }; // by parameter position
  std::vector<uint32_t> keptBefore(k + 1, 0);
  for (uint32_t j = 0; j < k; ++j)
    keptBefore[j + 1] = keptBefore[j] + (used(j) ? 1 : 0);
  uint32_t kept = keptBefore[k];
  ETm* body = mapVars(out_, f->a, 0, [&](uint32_t i) -> uint32_t {
    if (i >= k) return i - k + kept; // outside the λ: now under the kept lets
    uint32_t j = k - 1 - i;          // the parameter's position
    return kept - 1 - keptBefore[j];
  });
  for (uint32_t j = k; j-- > 0;) {
    if (!used(j)) continue;
    ETm* l = mk(ETag::Let);
    uint32_t by = keptBefore[j]; // evaluated under the lets before it
    l->a = by ? mapVars(out_, args[j], 0, [by](uint32_t i) { return i + by; }) : args[j];
    l->b = body;
    body = l;
  }
  args.erase(args.begin(), args.begin() + k);
  return body;
}

ETm* Eraser::eraseApp(Tm* t) {
  std::vector<Tm*> apps;
  Tm* h = t;
  while (h->tag == TTag::App) {
    apps.push_back(h);
    h = h->a;
  }
  // A primitive's run-time errors point at the application that gives it its
  // last argument (`strAt "abc" 7`, not `strAt "abc"`): the innermost
  // recorded position at or outside that one.
  uint32_t span = 0;
  const Axiom* ax = h->tag == TTag::Top ? axiomOf(h->n) : nullptr;
  const Prim* p = ax && ax->arity ? findPrim(ax->id) : nullptr;
  size_t saturating = p && p->arity <= apps.size() ? apps.size() - p->arity : 0;
  for (size_t i = apps.size(); i-- > 0 && (!span || i >= saturating);)
    if (apps[i]->m) span = apps[i]->m;
  std::vector<ETm*> args;
  for (size_t i = apps.size(); i-- > 0;)
    args.push_back(erase(apps[i]->b));
  ETm* f = h->tag == TTag::Top && w_.tops[h->n].conOf >= 0 ? constructor(h->n, cellable(h->n, apps))
                                                           : head(h, span, args);
  return apply(f, args);
}

// A goal (`?name`, core/goals.cpp) has no value: code that reaches it
// cannot run. (Other metas left unsolved stand for types: erased.)
void Eraser::unfilledGoal(MetaId m) {
  const MetaEntry& e = w_.metas[m];
  if (e.origin.kind != MetaOrigin::Goal) return;
  std::string where;
  if (e.span.valid()) {
    auto lc = e.span.src->lineCol(e.span.begin);
    where = fmt::format(" ({}:{}:{})", e.span.src->path, lc.line, lc.col);
  }
  throw Error{
      fmt::format("the goal {}{} is not filled: this code cannot run", metaName(w_, m), where), 0};
}

// Data values: a constructor with fields is an object tagged with its index
// (rt::ConObj), one without fields the immediate of its index; a case is a
// switch on that index (ETag::Case) whose alternatives take the fields
// apart (ETag::Field). Fields that are types are not stored.

// Is a field of this type a type (erased: not stored)?
static bool isTypeField(const Tm* ty) {
  while (ty->tag == TTag::Pi)
    ty = ty->b;
  return ty->tag == TTag::U;
}

std::vector<bool> storedFields(World& w, TopId con) {
  const TopEntry& te = w.tops[con];
  uint32_t params = w.tops[TopId(te.conOf)].data->params;
  std::vector<bool> stored;
  uint32_t i = 0;
  for (const Tm* ty = te.type; ty->tag == TTag::Pi; ty = ty->b, ++i)
    if (i >= params) stored.push_back(!isTypeField(ty->a));
  return stored;
}

// Is constructor `con` applied (`apps`: the applications, outermost first)
// to parameters at which its values may be compact cells?
bool Eraser::cellable(TopId con, const std::vector<Tm*>& apps) {
  uint32_t params = w_.tops[TopId(w_.tops[con].conOf)].data->params;
  if (apps.size() < params) return false;
  std::vector<const Tm*> ps;
  for (uint32_t i = 0; i < params; ++i)
    ps.push_back(apps[apps.size() - 1 - i]->b);
  return flat_.cellable(con, ps);
}

// The constructor `con` as a function of its parameters and fields (`cell`:
// its value a compact cell).
ETm* Eraser::constructor(TopId con, bool cell) {
  const TopEntry& te = w_.tops[con];
  std::vector<bool> stored = storedFields(w_, con);
  uint32_t k = uint32_t(stored.size());
  ETm* v = mk(ETag::Con);
  v->prim = te.conIndex;
  v->bits = con;
  v->n = uint32_t(std::count(stored.begin(), stored.end(), true));
  if (cell && v->n > 0) v->flags = kConCell;
  v->args = out_.array<ETm*>(v->n);
  for (uint32_t j = 0, at = 0; j < k; ++j)
    if (stored[j]) {
      ETm* f = mk(ETag::Var);
      f->n = k - 1 - j;
      v->args[at++] = f;
    }
  uint32_t total = k + w_.tops[TopId(te.conOf)].data->params;
  if (total == 0) return v;
  ETm* l = mk(ETag::Lam);
  l->n = total;
  Name* ns = out_.array<Name>(total);
  uint32_t i = 0;
  for (const Tm* ty = te.type; ty->tag == TTag::Pi; ty = ty->b)
    ns[i++] = ty->name;
  l->names = ns;
  l->a = v;
  return l;
}

// An alternative's body with its fields bound to reads of the scrutinee
// (variable `scrut`, outside the fields' binders; `shift`: the body is
// under one more binder, the scrutinee's let).
ETm* Eraser::bindFields(const CaseAlt& alt, uint32_t scrut, bool shift) {
  ETm* body = erase(alt.body);
  uint32_t k = alt.arity;
  if (shift) body = mapVars(out_, body, k, [](uint32_t i) { return i + 1; });
  if (k == 0) return body;
  std::vector<bool> stored = storedFields(w_, alt.con);
  std::vector<ETm*> args;
  for (uint32_t j = 0, at = 0; j < k; ++j) {
    if (!stored[j]) {
      args.push_back(mk(ETag::Erased));
      continue;
    }
    ETm* s = mk(ETag::Var);
    s->n = scrut;
    ETm* f = mk(ETag::Field);
    f->n = at++;
    f->a = s;
    args.push_back(f);
  }
  ETm* lam = mk(ETag::Lam);
  lam->n = k;
  lam->a = body;
  return beta(lam, args);
}

ETm* Eraser::eraseCase(Tm* t) {
  const DataInfo& d = *w_.tops[t->m].data;
  ETm* s = erase(t->a);
  bool let = s->tag != ETag::Var;
  uint32_t scrut = let ? 0 : s->n;
  std::vector<const CaseAlt*> byCon(d.nCons, nullptr);
  const CaseAlt* dflt = nullptr;
  for (uint32_t i = 0; i < t->n; ++i) {
    const CaseAlt& a = t->alts[i];
    if (a.con == kDefaultAlt)
      dflt = &a;
    else
      byCon[w_.tops[a.con].conIndex] = &a;
  }
  auto body = [&](uint32_t i) -> ETm* {
    if (byCon[i]) return bindFields(*byCon[i], scrut, let);
    if (!dflt) return mk(ETag::Erased); // (an impossible alternative)
    return bindFields(*dflt, scrut, let);
  };
  ETm* r;
  if (d.nCons <= 1) {
    r = d.nCons == 0 ? mk(ETag::Erased) : body(0);
  } else {
    r = mk(ETag::Case);
    r->bits = t->m;
    uint32_t withFields = 0;
    for (uint32_t i = 0; i < d.nCons; ++i) {
      std::vector<bool> st = storedFields(w_, d.cons[i]);
      withFields += std::count(st.begin(), st.end(), true) > 0;
    }
    r->span = withFields == 0 ? kCaseImmediates : withFields == d.nCons ? kCaseObjects : 0;
    r->a = mk(ETag::Var);
    r->a->n = scrut;
    r->n = d.nCons;
    r->args = out_.array<ETm*>(d.nCons);
    for (uint32_t i = 0; i < d.nCons; ++i)
      r->args[i] = body(i);
  }
  if (!let) return r;
  ETm* l = mk(ETag::Let);
  l->a = s;
  l->b = r;
  return l;
}

ETm* Eraser::erase(Tm* t) {
  switch (t->tag) {
  case TTag::Var: {
    ETm* e = mk(ETag::Var);
    e->n = t->n;
    return e;
  }
  case TTag::Top: {
    if (w_.tops[t->n].conOf >= 0) return constructor(t->n, false);
    if (isTypeFormer(t->n)) { // remembers a machine type (for `build`'s representation)
      ETm* e = mk(ETag::Erased);
      if (const Axiom* ax = axiomOf(t->n)) e->n = uint32_t(machineType(ax->id));
      return e;
    }
    if (const Axiom* ax = axiomOf(t->n)) {
      if (ax->arity == 0) { // a constant: its normal form is a literal
        Val* v = ax->norm ? ax->norm(w_, nullptr) : nullptr;
        if (!v || v->tag != VTag::Lit) return mk(ETag::Erased);
        ETm* e = mk(ETag::Lit);
        e->n = v->n;
        e->bits = v->bits;
        return e;
      }
      std::vector<ETm*> none;
      return head(t, 0, none);
    }
    ETm* e = mk(ETag::Global);
    e->n = t->n;
    return e;
  }
  case TTag::Meta: {
    Tm* s = w_.metas[t->n].solution;
    if (!s) unfilledGoal(t->n);
    return s ? erase(s) : mk(ETag::Erased);
  }
  case TTag::InsertedMeta: {
    Tm* s = w_.metas[t->n].solution;
    if (!s) unfilledGoal(t->n);
    if (!s) return mk(ETag::Erased);
    std::vector<ETm*> args;
    for (uint32_t i = 0; i < t->m; ++i)
      if (t->mask[i]) {
        ETm* v = mk(ETag::Var);
        v->n = t->m - 1 - i;
        args.push_back(v);
      }
    return apply(erase(s), args);
  }
  case TTag::App: return eraseApp(t);
  case TTag::Lam: {
    // Curried λs are one function of n parameters; a filter ends the group
    // (it is about the parameters up to its own).
    std::vector<Name> names;
    Tm* b = t;
    Tm* filt = nullptr;
    while (b->tag == TTag::Lam && !filt) {
      names.push_back(b->name);
      filt = b->c;
      b = b->a;
    }
    ETm* e = mk(ETag::Lam);
    e->n = uint32_t(names.size());
    Name* ns = out_.array<Name>(names.size());
    std::copy(names.begin(), names.end(), ns);
    e->names = ns;
    e->a = erase(b);
    if (filt) e->b = erase(filt);
    return e;
  }
  case TTag::Known: {
    ETm* e = mk(ETag::Known);
    e->n = t->n;
    return e;
  }
  case TTag::Pi:
  case TTag::Sigma:
  case TTag::U:
  case TTag::Irrelevant:
  case TTag::Embed: return mk(ETag::Erased); // (Embed: only ever a codomain, a type)
  case TTag::Pair: {
    ETm* e = mk(ETag::Pair);
    e->a = erase(t->a);
    e->b = erase(t->b);
    return e;
  }
  case TTag::Proj1:
  case TTag::Proj2: {
    ETm* e = mk(t->tag == TTag::Proj1 ? ETag::Proj1 : ETag::Proj2);
    e->a = erase(t->a);
    return e;
  }
  case TTag::Field: {
    ETm* v = erase(t->a);
    for (uint32_t i = 0; i < t->n; ++i) {
      ETm* p = mk(ETag::Proj2);
      p->a = v;
      v = p;
    }
    ETm* e = mk(ETag::Proj1);
    e->a = v;
    return e;
  }
  case TTag::Let: {
    ETm* def = erase(t->b);
    ETm* body = erase(t->c);
    if (def->tag == ETag::Var) // `let x = y` (pattern variables): y itself
      return mapVars(out_, body, 0, [n = def->n](uint32_t i) { return i == 0 ? n : i - 1; });
    ETm* e = mk(ETag::Let);
    e->a = def;
    e->b = body;
    return e;
  }
  case TTag::Case: return eraseCase(t);
  case TTag::Lit: {
    ETm* e = mk(ETag::Lit);
    e->n = t->n;
    e->bits = t->bits;
    return e;
  }
  case TTag::If: {
    ETm* e = mk(ETag::If);
    e->a = erase(t->a);
    e->b = erase(t->b);
    e->c = erase(t->c);
    return e;
  }
  case TTag::Arr: {
    ETm* e = mk(ETag::Arr);
    e->n = t->n;
    e->args = out_.array<ETm*>(t->n);
    for (uint32_t i = 0; i < t->n; ++i)
      e->args[i] = erase(t->elems[i]);
    return e;
  }
  }
  return mk(ETag::Erased);
}

} // namespace thorin::rt

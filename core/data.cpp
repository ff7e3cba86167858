// `data` declarations: the type former and its constructors become
// top-level constants without definitions (rigid, as postulates are), so
// unification knows constructors to be injective and distinct with no rule
// of its own. Checked here: the former's type ends in U; each constructor
// builds the type being declared, applied to its parameters as they are
// bound; the type occurs strictly positively in each constructor's
// arguments (docs/inductive-design.md).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "diagnostic.hpp"
#include "elab.hpp"
#include "eval.hpp"
#include "toplevel.hpp"

namespace thorin {

namespace {

// The domain of the i-th Π of a raw type, for locating an error in it.
Span domainSpan(Raw* r, size_t i) {
  for (; r->kind == RKind::Pi; r = as<RPi>(r)->cod, --i)
    if (i == 0) return as<RPi>(r)->dom->span;
  return r->span;
}

// What the positivity check watches: the data type being declared, or (to
// know whether a parameter is positive) that parameter's variable.
struct Watch {
  TopId self = 0;      // (also when watching a parameter: the type being declared)
  uint32_t params = 0; // its parameters (assumed positive in its own arguments)
  bool isVar = false;
  Ix ix = 0;
  bool in(const Tm* t) const { return isVar ? freeIn(t, ix) : mentionsTop(t, self); }
  bool isHead(const Tm* h) const {
    return isVar ? h->tag == TTag::Var && h->n == ix : h->tag == TTag::Top && h->n == self;
  }
  Watch under() const {
    Watch w = *this;
    if (w.isVar) ++w.ix;
    return w;
  }
};

// Where the watched thing occurs in an argument's type other than strictly
// positively: as the result of the type's Πs, applied to arguments that do
// not mention it, or in a positive parameter of another data type ("" if
// nowhere else).
std::string negativeOccurrence(World& w, Tm* t, Watch x) {
  for (; t->tag == TTag::Pi; t = t->b, x = x.under())
    if (x.in(t->a)) return "to the left of an arrow";
  if (!x.in(t)) return "";
  std::vector<Tm*> args; // (last argument first)
  Tm* head = t;
  for (; head->tag == TTag::App; head = head->a)
    args.push_back(head->b);
  if (x.isHead(head)) {
    for (Tm* a : args)
      if (x.in(a)) return "inside one of its own arguments";
    return "";
  }
  bool recursive = x.isVar && head->tag == TTag::Top && head->n == x.self;
  const DataInfo* d = head->tag == TTag::Top ? w.tops[head->n].data : nullptr;
  if (!d && !recursive) return "inside a type that is not a data type";
  uint32_t dParams = recursive ? x.params : d->params;
  for (size_t k = 0; k < args.size(); ++k) {
    size_t pos = args.size() - 1 - k;
    if (!x.in(args[k])) continue;
    if (pos >= dParams || (!recursive && !d->positive[pos]))
      return fmt::format("in {} of '{}'",
                         pos >= d->params ? "an index" : "a non-positive parameter",
                         str(w.tops[head->n].name));
    std::string r = negativeOccurrence(w, args[k], x);
    if (!r.empty()) return r;
  }
  return "";
}

} // namespace

void TopLevel::defineData(const Entry& e, bool prelude) {
  w_.beginEntry();
  size_t firstMeta = w_.metas.size();
  DataDecl d = declareData(e, prelude);
  finishData(e, d, {d.self}, prelude);
  reportGoals(firstMeta, d.self);
}

// The type former: its type checked (parameters, then indices, ending in U)
// and entered, with no constructors yet.
TopLevel::DataDecl TopLevel::declareData(const Entry& e, bool prelude) {
  size_t firstMeta = w_.metas.size();
  Elab el(w_);
  Cxt c;
  Tm* ty = el.check(c, e.ty, vUniverse());
  el.finish();
  el.requireSolved(firstMeta);
  DataDecl d;
  d.params = c;
  Val* v = eval(w_, nullptr, ty);
  Tm* rest = ty;
  for (uint32_t i = 0; i < e.params; ++i, rest = rest->b) {
    d.paramTys.push_back(rest->a);
    Val* pv = forceAll(w_, v);
    d.params = el.bind(d.params, pv->name, pv->a);
    v = apply(w_, pv, w_.var(d.params.lvl - 1));
  }
  Cxt inner = d.params;
  for (v = forceAll(w_, v); v->tag == VTag::Pi;
       v = forceAll(w_, apply(w_, v, w_.var(inner.lvl - 1)))) {
    inner = el.bind(inner, v->name, v->a);
    ++d.indices;
  }
  if (v->tag != VTag::U)
    fail(e.ty->span,
         fmt::format("the type of the data type '{}' must end in U, not in {}", str(e.name),
                     el.showVal(inner, v)),
         {"write `data T (A : U) : Nat → U where`: parameters, then indices ending in U"});
  TopEntry te;
  te.name = e.name;
  te.type = ty;
  te.span = e.nameSpan;
  te.prelude = prelude;
  d.self = w_.addTop(std::move(te));
  return d;
}

// The constructors (each strictly positive in every type of `block`, the
// types declared together), then the eliminator (a type alone, no indices).
void TopLevel::finishData(const Entry& e, const DataDecl& d, const std::vector<TopId>& block,
                          bool prelude) {
  std::vector<Name> seen;
  auto* cons = w_.perm.array<uint32_t>(e.cons.size());
  auto* positive = w_.perm.array<bool>(e.params);
  for (uint32_t i = 0; i < e.params; ++i)
    positive[i] = true;
  for (size_t i = 0; i < e.cons.size(); ++i) {
    const ConDecl& con = e.cons[i];
    if (std::find(seen.begin(), seen.end(), con.name) != seen.end() || con.name == e.name)
      fail(con.nameSpan,
           fmt::format("'{}' is declared twice in the data type '{}'", str(con.name), str(e.name)));
    seen.push_back(con.name);
    cons[i] = defineConstructor(e, con, d.self, d.params, d.paramTys, d.indices, prelude, positive,
                                block);
    w_.tops[cons[i]].conOf = int32_t(d.self);
    w_.tops[cons[i]].conIndex = uint32_t(i);
  }
  auto* info = w_.perm.make<DataInfo>();
  info->params = e.params;
  info->indices = d.indices;
  info->nCons = uint32_t(e.cons.size());
  info->cons = cons;
  info->positive = positive;
  w_.tops[d.self].data = info;
  if (block.size() == 1) tryEliminators({&e}, {d.self}, prelude);
}

// One constructor: its type is checked with the parameters bound, and
// becomes Π {parameters} → that type.
// Clears positive[i] for each parameter that occurs in its arguments other
// than strictly positively.
TopId TopLevel::defineConstructor(const Entry& e, const ConDecl& con, TopId self, const Cxt& params,
                                  const std::vector<Tm*>& paramTys, uint32_t indices, bool prelude,
                                  bool* positive, const std::vector<TopId>& block) {
  size_t firstMeta = w_.metas.size();
  Elab el(w_);
  Cxt c = params;
  Tm* body = el.check(c, con.ty, vUniverse());
  el.finish();
  el.requireSolved(firstMeta);
  // Its arguments, strictly positive; its result, `self params indices`.
  size_t arg = 0;
  Tm* t = body;
  Val* v = eval(w_, params.env, body);
  Cxt cx = params;
  for (v = forceAll(w_, v); v->tag == VTag::Pi;
       v = forceAll(w_, apply(w_, v, w_.var(cx.lvl - 1))), t = t->b, ++arg) {
    Watch x;
    x.self = self;
    x.params = e.params;
    std::string where;
    TopId offender = self;
    for (TopId other : block) { // (each type of a mutual block, this one included)
      if (!where.empty()) break;
      x.self = other;
      where = t->tag == TTag::Pi ? negativeOccurrence(w_, t->a, x) : "";
      offender = other;
    }
    x.self = self;
    if (!where.empty())
      fail(domainSpan(con.ty, arg),
           fmt::format("'{}' is not strictly positive in the constructor '{}': it occurs {}",
                       str(w_.tops[offender].name), str(con.name), where),
           {"an argument's type may end in the type being declared, or hold it in a parameter "
            "of another data type (`List T`), but not take it as an argument"});
    for (uint32_t i = 0; i < e.params && t->tag == TTag::Pi; ++i) {
      Watch p = x;
      p.isVar = true;
      p.ix = Ix(arg + e.params - 1 - i); // (the parameter's index under `arg` binders)
      if (positive[i] && !negativeOccurrence(w_, t->a, p).empty()) positive[i] = false;
    }
    cx = el.bind(cx, v->name, v->a);
  }
  bool builds = v->tag == VTag::Top && v->n == self;
  uint32_t n = 0;
  for (Spine* s = builds ? v->sp : nullptr; s; s = s->prev)
    ++n;
  builds = builds && n == e.params + indices;
  // (The spine is innermost first: the parameters are its last entries.)
  uint32_t k = n;
  for (Spine* s = builds ? v->sp : nullptr; s; s = s->prev) {
    --k;
    if (k >= e.params) continue;
    Val* p = forceAll(w_, s->arg);
    if (s->kind != Elim::App || p->tag != VTag::Rigid || p->n != k || p->sp) builds = false;
  }
  if (!builds) {
    std::string ps;
    for (Local* l = params.locals; l; l = l->prev)
      ps = " " + std::string(str(l->name)) + ps;
    fail(con.ty->span,
         fmt::format("the constructor '{}' must build a '{}{}{}', not a '{}'", str(con.name),
                     str(e.name), ps, indices ? " …" : "", el.showVal(cx, v)),
         {e.params ? "its type ends in the data type applied to its parameters, as they are "
                     "named, then to its indices"
                   : "its type ends in the data type (applied to its indices)"});
  }
  // Π {A₁ : T₁} … {Aₚ : Tₚ} → body.
  Tm* full = body;
  Local* l = params.locals;
  for (size_t i = paramTys.size(); i-- > 0; l = l->prev) {
    Tm* p = mkTm(w_.perm, TTag::Pi);
    p->name = l->name;
    p->icit = Icit::Impl;
    p->a = paramTys[i];
    p->b = full;
    full = p;
  }
  TopEntry te;
  te.name = con.name;
  te.type = full;
  te.span = con.nameSpan;
  te.prelude = prelude;
  return w_.addTop(std::move(te));
}

} // namespace thorin

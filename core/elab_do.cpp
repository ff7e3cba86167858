// `do` blocks. Each statement's action is inferred and must be an `IO A`;
// the block becomes nested applications of the plugin's `bind` (the roles
// IO and IOBind: core names no plugin), so that what a block means is what
// its desugaring `bind e (λ x. rest)` means, while its errors name the
// statement and say what a `do` block expects.
#include <fmt/format.h>

#include "elab.hpp"
#include "eval.hpp"

namespace thorin {

// `IO x` as a value.
Val* Elab::ioOf(Val* x, Span where) {
  return vApp(w_, builtinType(Builtin::IO, where), x, Icit::Expl);
}

// If `ty` is `IO A` (or unknown, and can be made one), A; else nullptr.
Val* Elab::ioArg(Cxt& c, Val* ty, Span where) {
  Val* f = forceAll(w_, ty);
  if (axiomHead(f) == AxiomTable::get().builtin(Builtin::IO) && f->sp && f->sp->len == 1)
    return f->sp->arg;
  if (f->tag != VTag::Flex) return nullptr;
  Val* a = evalIn(c, freshMeta(c, vUniverse(), where, {MetaOrigin::Hole, {}}));
  return unifier_.unify(c.lvl, f, ioOf(a, where)) ? a : nullptr;
}

bool Elab::settleAction(Cxt& c, Val* ty) {
  Val* f = forceAll(w_, ty);
  AxiomId io = AxiomTable::get().builtin(Builtin::IO);
  if (io == kNoAxiom || axiomHead(f) != io || !f->sp || f->sp->len != 1) return false;
  if (forceAll(w_, f->sp->arg)->tag == VTag::Flex)
    unifier_.unify(c.lvl, f->sp->arg, builtinType(Builtin::Unit, {}));
  return true;
}

Tm* Elab::checkDo(Cxt& c, RDo* r, Val* a) {
  Val* res = ioArg(c, a, r->span);
  if (!res)
    fail(r->span, fmt::format("a do block is an IO action, but here {} is expected", showVal(c, a)),
         {"a do block has type `IO A`, where A is its last statement's result"});
  return statements(c, r, 0, a, res);
}

std::pair<Tm*, Val*> Elab::inferDo(Cxt& c, RDo* r) {
  Val* res = evalIn(c, freshMeta(c, vUniverse(), r->span, {MetaOrigin::Hole, {}}));
  Val* ty = ioOf(res, r->span);
  return {statements(c, r, 0, ty, res), ty};
}

// Statements i… of the block, whose type is `ty` = IO `res`.
Tm* Elab::statements(Cxt& c, RDo* r, uint32_t i, Val* ty, Val* res) {
  RDoStmt& s = r->stmts[i];
  if (i + 1 == r->n) {
    if (s.kind != DoKind::Expr)
      fail(s.span, "the last statement of a do block must be an action, not a binding",
           {"end the block with the action whose result it returns (`pure x` for a value)"});
    return check(c, s.e, ty);
  }
  if (s.kind == DoKind::Let) {
    Tm* vtyTm;
    Tm* def;
    Val* vty;
    if (s.ty) {
      vtyTm = check(c, s.ty, vUniverse());
      vty = evalIn(c, vtyTm);
      def = check(c, s.e, vty);
    } else {
      auto [d, dty] = inferInsert(c, s.e);
      def = d;
      vty = dty;
      vtyTm = quote(w_, w_.perm, c.lvl, vty, QuoteOpts{false, false});
    }
    Cxt c2 = define(c, s.x, def, evalIn(c, def), vty);
    Tm* t = mkTm(w_.perm, TTag::Let);
    t->name = s.x;
    t->a = vtyTm;
    t->b = def;
    t->c = statements(c2, r, i + 1, ty, res);
    return t;
  }
  auto [e, ety] = inferInsert(c, s.e);
  Val* x = ioArg(c, ety, s.e->span);
  if (!x)
    fail(s.e->span,
         fmt::format("this statement is not an IO action: it has type {}", showVal(c, ety)),
         {s.kind == DoKind::Bind ? "`x ← e` runs the action e and binds its result to x"
                                 : "a statement of a do block is an action (`IO A`)",
          "a value is bound with `let x = e`"});
  Name name = s.kind == DoKind::Bind ? s.x : names::underscore;
  Cxt c2 = bind(c, name, x);
  Tm* lam = mkTm(w_.perm, TTag::Lam);
  lam->name = name;
  lam->icit = Icit::Expl;
  lam->a = statements(c2, r, i + 1, ty, res);
  // bind {A} {B} e (λ x. rest)
  auto q = [&](Val* v) { return quote(w_, w_.perm, c.lvl, v, QuoteOpts{false, false}); };
  Tm* t = mkTm(w_.perm, TTag::Top);
  t->n = builtin(Builtin::IOBind, s.span);
  t = mkApp(w_.perm, t, q(x), Icit::Impl);
  t = mkApp(w_.perm, t, q(res), Icit::Impl);
  t = mkApp(w_.perm, t, e, Icit::Expl);
  return mkApp(w_.perm, t, lam, Icit::Expl);
}

} // namespace thorin

// Elaboration of the builtin data's surface syntax: literals typed by the
// expected type, operators resolved by operand type through the plugin's
// operator table, `if`, `&&`/`||` (as conditionals), and array literals.
// The data itself is the core plugin's axioms; nothing here knows their
// semantics.
#include <algorithm>
#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "axiom.hpp"
#include "diagnostic.hpp"
#include "elab.hpp"
#include "eval.hpp"
#include "literal.hpp"

namespace thorin {

TopId Elab::axiomTop(AxiomId ax, Span where) {
  const Axiom& a = AxiomTable::get()[ax];
  int32_t id = w_.resolve(intern(a.name));
  if (id < 0 || !w_.tops[id].axiom)
    fail(where,
         fmt::format("this needs the axiom '{}' of the plugin '{}', which is not loaded", a.name,
                     a.plugin),
         {"builtin data comes with the prelude unless thorin runs with --no-prelude"});
  return TopId(id);
}

TopId Elab::builtin(Builtin b, Span where) {
  AxiomId ax = AxiomTable::get().builtin(b);
  if (ax == kNoAxiom)
    fail(where,
         fmt::format("this needs the builtin {}, which no loaded plugin provides", builtinName(b)));
  return axiomTop(ax, where);
}

AxiomId Elab::axiomHead(Val* v) {
  v = forceAll(w_, v);
  if (v->tag != VTag::Top || !w_.tops[v->n].axiom) return kNoAxiom;
  return w_.tops[v->n].axiom->id;
}

static bool isBuiltin(AxiomId id, Builtin b) { return AxiomTable::get().is(id, b); }

static std::string_view text(Raw* r) {
  return std::string_view(r->span.src->text).substr(r->span.begin, r->span.end - r->span.begin);
}

static bool isFloatText(std::string_view s) { return s.find_first_of(".eE") != s.npos; }

// A numeric literal's text, `-5` for `- 5`.
static std::string numberText(Raw* r) {
  std::string s(text(r));
  std::erase_if(s, [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; });
  return s;
}

// A numeric literal or a λ checked against a type it can never have
// (`x : Bool = 2`, `1 + (λ x. x)`): the message names what is wrong with the
// term, rather than showing the type inferred for it (`Nat`, `?0 → ?0`).
// Returns when neither applies (the caller reports a plain mismatch).
void Elab::cannotHaveType(Cxt& c, Raw* r, Val* expected) {
  Val* f = forceAll(w_, expected);
  if (f->tag == VTag::Flex || f->tag == VTag::Irrelevant) return;
  if (r->kind == RKind::Number) {
    // (The builtin types as this context prints them: `Nat@core.thorin:…`
    // where a definition of the user's shadows the name.)
    std::string types;
    for (Builtin t : {Builtin::Nat, Builtin::I64, Builtin::F64})
      types += showVal(c, builtinType(t, r->span)) + ", ";
    fail(r->span,
         fmt::format("the numeric literal {} cannot have type {}", numberText(r),
                     showVal(c, expected)),
         {"expected type: " + showVal(c, expected),
          "(numeric literals are of type " + types.substr(0, types.size() - 2) + " or Idx n)"});
  }
  if (r->kind == RKind::Lam && f->tag != VTag::Pi)
    fail(r->span,
         fmt::format("a function (λ) is given where a value of type {} is expected",
                     showVal(c, expected)),
         {"expected type: " + showVal(c, expected)});
}

// The type of a literal nothing gives a type: Nat, or an F64 (`2.5`), or an
// I64 when negative (`-5`).
static Builtin defaultNumberType(Raw* r) {
  std::string s = numberText(r);
  return isFloatText(s) ? Builtin::F64 : s[0] == '-' ? Builtin::I64 : Builtin::Nat;
}

// Of two literals, the one whose type the other can take: F64 (`2.5`) over
// I64 (`-5`) over Nat.
static int literalRank(Raw* r) {
  Builtin t = defaultNumberType(r);
  return t == Builtin::F64 ? 2 : t == Builtin::I64 ? 1 : 0;
}

// A literal written as an F64 where a whole number is expected.
[[noreturn]] static void notWhole(Raw* r, const std::string& s, const char* expected,
                                  const char* note) {
  fail(r->span,
       fmt::format("the literal {} is written as an F64 (with a point or an exponent), but {} is "
                   "expected",
                   s, expected),
       {note});
}

Tm* Elab::checkNumber(Raw* r, Builtin ty) {
  std::string s = numberText(r);
  if (ty == Builtin::F64) {
    // Too large is an error (as Rust's overflowing_literals); too small
    // rounds, to a subnormal or to 0 (as in C, Rust, Haskell).
    double d = std::strtod(s.c_str(), nullptr);
    if (std::isinf(d))
      fail(r->span, fmt::format("the literal {} is out of range for F64", s),
           {"F64 literals go up to 1.7976931348623157e308 in magnitude"});
    return tmOfLit(w_.perm, vF64(w_, d));
  }
  if (isFloatText(s))
    notWhole(r, s, ty == Builtin::Nat ? "a Nat" : "an I64",
             "Nat and I64 literals are digits only, e.g. 3");
  if (s[0] == '-' && ty == Builtin::Nat)
    fail(r->span, fmt::format("the literal {} is negative, but a Nat is expected", s),
         {"Nats are 0, 1, 2, …; negative numbers are I64s or F64s"});
  mpz_t z;
  mpz_init_set_str(z, s.c_str(), 10);
  if (ty == Builtin::I64) {
    bool fits = mpz_fits_slong_p(z);
    int64_t x = fits ? mpz_get_si(z) : 0;
    mpz_clear(z);
    if (!fits)
      fail(r->span, fmt::format("the literal {} is out of range for I64", s),
           {"I64 literals go from -9223372036854775808 to 9223372036854775807"});
    return tmOfLit(w_.perm, vLit(w_, LitKind::I64, uint64_t(x)));
  }
  Val* v = vNat(w_, z);
  mpz_clear(z);
  return tmOfLit(w_.perm, v);
}

// `2 : Idx n`, as Agda's Fin literals: checked against n when n is known,
// otherwise `idx 2` (checked when it runs).
Tm* Elab::checkIndex(Cxt& c, Raw* r, Val* size) {
  std::string s = numberText(r);
  if (isFloatText(s)) notWhole(r, s, "an index", "index literals are digits only, e.g. 3");
  if (s[0] == '-')
    fail(r->span, fmt::format("the literal {} is negative, but an index is expected", s),
         {"indices of Idx n go from 0 to n - 1"});
  Val* n = forceAll(w_, size);
  uint64_t k = std::strtoull(s.c_str(), nullptr, 10);
  bool big = s.size() > 19;
  if (n->tag == VTag::Lit && LitKind(n->n) == LitKind::Nat) {
    if (big || k >= n->bits)
      fail(r->span, fmt::format("the index {} is out of range for Idx {}", s, n->bits),
           {n->bits ? fmt::format("indices of Idx {} go from 0 to {}", n->bits, n->bits - 1)
                    : "Idx 0 has no indices"});
    return tmOfLit(w_.perm, vLit(w_, LitKind::Idx, k));
  }
  Tm* of = mkTm(w_.perm, TTag::Top);
  of->n = builtin(Builtin::IdxOf, r->span);
  Tm* a = mkApp(w_.perm, of, quote(w_, w_.perm, c.lvl, size), Icit::Impl);
  Tm* t = mkApp(w_.perm, a, checkNumber(r, Builtin::Nat), Icit::Expl);
  t->m = w_.addSpan(r->span);
  return t;
}

Tm* Elab::postponeNumber(Cxt& c, Raw* r, Val* ty) {
  Tm* m = freshMeta(c, ty, r->span, {MetaOrigin::Hole, {}});
  postponed_.push_back({c, r, ty, m});
  return m;
}

void Elab::finish(int64_t onlyOf) {
  // Operators on a known type first: `x + 1` on Bools is the operator's
  // error, not the literal's.
  for (bool operatorsFirst : {true, false})
    for (size_t i = 0; i < postponed_.size(); ++i) {
      Postponed p = postponed_[i]; // (a copy: deciding may add more)
      Val* f = force(w_, p.ty);
      if (onlyOf >= 0 && !(f->tag == VTag::Flex && f->n == uint64_t(onlyOf))) continue;
      if (operatorsFirst && (!p.x || f->tag == VTag::Flex)) continue;
      postponed_.erase(postponed_.begin() + i);
      size_t before = postponed_.size();
      if (p.x)
        decideOperator(p);
      else
        decideNumber(p);
      // Deciding an operator decides the literals of its type first, which
      // may have come before it: look again from the start.
      i = postponed_.size() < before ? size_t(-1) : i - 1;
    }
  if (onlyOf < 0 && !delayed_.empty()) retryDelayed(true);
}

void Elab::decideNumber(Postponed& p) {
  if (force(w_, p.ty)->tag == VTag::Flex) {
    Builtin def = defaultNumberType(p.r);
    unifyOrFail(p.c, p.r->span, p.ty, builtinType(def, p.r->span));
  }
  Tm* lit = check(p.c, p.r, p.ty); // (a literal now, or the usual error)
  if (!unifier_.unify(p.c.lvl, evalIn(p.c, p.meta), evalIn(p.c, lit)))
    fail(p.r->span, "this literal's value was fixed otherwise by the context",
         {"the context needs: " + showVal(p.c, evalIn(p.c, p.meta))});
}

// The operands' type is known by now, or the literals among the operands
// decide it (`x * 2.0`), or nothing does (an error).
void Elab::decideOperator(Postponed& p) {
  if (Val* f = force(w_, p.ty); f->tag == VTag::Flex) finish(f->n);
  auto [t, ty] = operation(p.c, static_cast<RBinOp*>(p.r), p.x, p.y, p.ty);
  (void)ty;
  if (!unifier_.unify(p.c.lvl, evalIn(p.c, p.meta), evalIn(p.c, t)))
    fail(static_cast<RBinOp*>(p.r)->opSpan,
         "this operation's value was fixed otherwise by the context",
         {"the context needs: " + showVal(p.c, evalIn(p.c, p.meta))});
}

std::pair<Tm*, Val*> Elab::inferNumber(Raw* r) {
  Builtin ty = defaultNumberType(r);
  Val* vty = builtinType(ty, r->span);
  return {checkNumber(r, ty), vty};
}

std::pair<Tm*, Val*> Elab::inferString(Raw* r) {
  std::string_view s = text(r);
  Val* vty = builtinType(Builtin::String, r->span);
  return {tmOfLit(w_.perm, vStr(w_, unescape(s.substr(1, s.size() - 2)))), vty};
}

Tm* Elab::checkIf(Cxt& c, RIf* r, Val* a) {
  Tm* cond = check(c, r->cond, builtinType(Builtin::Bool, r->span));
  Tm* t = check(c, r->then, a);
  return mkIf(w_.perm, cond, t, check(c, r->els, a));
}

std::pair<Tm*, Val*> Elab::inferIf(Cxt& c, RIf* r) {
  Tm* cond = check(c, r->cond, builtinType(Builtin::Bool, r->span));
  auto [t, ty] = inferInsert(c, r->then);
  return {mkIf(w_.perm, cond, t, check(c, r->els, ty)), ty};
}

static Tm* app2(Arena& a, TopId f, Tm* x, Tm* y) {
  Tm* h = mkTm(a, TTag::Top);
  h->n = f;
  Tm* a1 = mkTm(a, TTag::App);
  a1->a = h;
  a1->b = x;
  Tm* a2 = mkTm(a, TTag::App);
  a2->a = a1;
  a2->b = y;
  return a2;
}

// The operands' type `ty` (known) has no operator r->op: the error.
void Elab::noOperatorOn(Cxt& c, RBinOp* r, Val* ty) {
  if (forceAll(w_, ty)->tag == VTag::Flex) return;
  AxiomId tyAx = axiomHead(ty);
  std::string_view op = str(r->op);
  if (tyAx != kNoAxiom && AxiomTable::get().operatorAxiom(op, tyAx) != kNoAxiom) return;
  fail(r->opSpan, fmt::format("no operator '{}' on values of type {}", op, showVal(c, ty)),
       {"arithmetic works on Nat, I64 and F64; == and != also on Bool and String"});
}

std::pair<Tm*, Val*> Elab::elabBinOp(Cxt& c, RBinOp* r, Val* expected) {
  std::string_view op = str(r->op);
  if (op == "&&" || op == "||") { // short-circuiting: conditionals
    Val* b = builtinType(Builtin::Bool, r->span);
    Tm* x = check(c, r->lhs, b);
    Tm* y = check(c, r->rhs, b);
    Tm* k = mkTm(w_.perm, TTag::Top);
    k->n = builtin(op == "&&" ? Builtin::False : Builtin::True, r->span);
    return {op == "&&" ? mkIf(w_.perm, x, y, k) : mkIf(w_.perm, x, k, y), b};
  }
  bool arith = op == "+" || op == "-" || op == "*" || op == "/" || op == "%";
  Val* ty = nullptr;
  Tm *x, *y;
  if (expected && arith)
    if (AxiomId n = axiomHead(expected);
        isBuiltin(n, Builtin::Nat) || isBuiltin(n, Builtin::I64) || isBuiltin(n, Builtin::F64))
      ty = expected;
  if (ty) {
    x = check(c, r->lhs, ty);
    y = check(c, r->rhs, ty);
  } else if (r->lhs->kind == RKind::Number &&
             (r->rhs->kind != RKind::Number || literalRank(r->rhs) > literalRank(r->lhs))) {
    // `1 + x` takes x's type; `1 + 2.5` the fractional literal's
    std::tie(y, ty) = inferInsert(c, r->rhs);
    noOperatorOn(c, r, ty); // (`1 + true`: the operator is wrong, not the literal)
    x = check(c, r->lhs, ty);
  } else {
    std::tie(x, ty) = inferInsert(c, r->lhs);
    noOperatorOn(c, r, ty); // (before the other operand is checked against it)
    y = check(c, r->rhs, ty);
  }
  // The operator is chosen by the operands' type. Not known yet (`λ x. x + 1`
  // checked against a type still to be learnt): decided at the end of the
  // definition, as the literals are.
  if (Val* f = force(w_, ty); f->tag == VTag::Flex) {
    static constexpr std::string_view kCompare[] = {"==", "!=", "<", "<=", ">", ">="};
    bool compare = std::find(std::begin(kCompare), std::end(kCompare), op) != std::end(kCompare);
    Val* resTy = compare ? builtinType(Builtin::Bool, r->span) : ty;
    Tm* m = freshMeta(c, resTy, r->span, {MetaOrigin::Hole, {}});
    postponed_.push_back({c, r, ty, m, x, y});
    return {m, resTy};
  }
  return operation(c, r, x, y, ty);
}

std::pair<Tm*, Val*> Elab::operation(Cxt& c, RBinOp* r, Tm* x, Tm* y, Val* ty) {
  std::string_view op = str(r->op);
  AxiomId tyAx = axiomHead(ty);
  AxiomId ax = tyAx != kNoAxiom ? AxiomTable::get().operatorAxiom(op, tyAx) : kNoAxiom;
  if (ax == kNoAxiom) {
    if (forceAll(w_, ty)->tag == VTag::Flex)
      fail(r->opSpan,
           fmt::format("cannot tell which '{}' is meant: the operands' type is not known", op),
           {"give the operands a type, e.g. λ (x : I64). x + 1, or (e : I64)"});
    noOperatorOn(c, r, ty);
  }
  TopId f = axiomTop(ax, r->opSpan);
  Val* fty = forceAll(w_, w_.topType(f));
  Val* resTy = forceAll(w_, apply(w_, fty, vUnused()));
  resTy = apply(w_, resTy, vUnused());
  Tm* t = app2(w_.perm, f, x, y);
  t->m = w_.addSpan(r->opSpan); // for run-time errors (division by zero)
  return {t, resTy};
}

std::pair<Tm*, Val*> Elab::elabArray(Cxt& c, RArray* r, Val* expected) {
  Val* elemTy = nullptr;
  if (expected) {
    Val* f = forceAll(w_, expected);
    if (isBuiltin(axiomHead(f), Builtin::Array) && f->sp && f->sp->len == 2) elemTy = f->sp->arg;
    if (f->tag == VTag::Flex) elemTy = evalIn(c, freshMeta(c, vUniverse(), r->span, {MetaOrigin::ElemType, {}}));
  }
  Tm* t = mkTm(w_.perm, TTag::Arr);
  t->n = r->n;
  t->elems = w_.perm.array<Tm*>(r->n);
  uint32_t i = 0;
  if (!elemTy) {
    if (r->n == 0)
      fail(r->span, "cannot infer the element type of an empty array",
           {"give it a type, e.g. ([] : Array 0 Nat)"});
    std::tie(t->elems[0], elemTy) = inferInsert(c, r->elems[0]);
    i = 1;
  }
  for (; i < r->n; ++i)
    t->elems[i] = check(c, r->elems[i], elemTy);
  Val* arr = w_.topHead(builtin(Builtin::Array, r->span));
  Val* ty = vApp(w_, vApp(w_, arr, vLit(w_, LitKind::Nat, r->n), Icit::Expl), elemTy, Icit::Expl);
  return {t, ty};
}

} // namespace thorin

#include <doctest/doctest.h>

#include "core/diagnostic.hpp"
#include "core/parser.hpp"

using namespace thorin;

namespace {
// Renders raw syntax back as a fully parenthesised string.
std::string S(Raw* r) {
  switch (r->kind) {
  case RKind::Var: return std::string(str(as<RVar>(r)->name));
  case RKind::U: return "U";
  case RKind::Hole: return "_";
  case RKind::Lam: {
    auto* l = as<RLam>(r);
    std::string b = std::string(str(l->x));
    if (l->info.named)
      b = "{" + std::string(str(l->info.named)) + "=" + b + "}";
    else if (l->info.icit == Icit::Impl)
      b = "{" + b + "}";
    return "(λ" + b + "." + S(l->body) + ")";
  }
  case RKind::App: {
    auto* a = as<RApp>(r);
    std::string arg = S(a->arg);
    if (a->info.named)
      arg = "{" + std::string(str(a->info.named)) + "=" + arg + "}";
    else if (a->info.icit == Icit::Impl)
      arg = "{" + arg + "}";
    return "(" + S(a->fn) + " " + arg + ")";
  }
  case RKind::Pi: {
    auto* p = as<RPi>(r);
    const char* o = p->icit == Icit::Impl ? "{" : "(";
    const char* c = p->icit == Icit::Impl ? "}" : ")";
    return std::string(o) + std::string(str(p->x)) + ":" + S(p->dom) + c + "→" + S(p->cod);
  }
  case RKind::Sigma: {
    auto* s = as<RSigma>(r);
    return "(" + std::string(str(s->x)) + ":" + S(s->fst) + ")×" + S(s->snd);
  }
  case RKind::Pair: return "<" + S(as<RPair>(r)->fst) + "," + S(as<RPair>(r)->snd) + ">";
  case RKind::Proj: {
    auto* p = as<RProj>(r);
    return S(p->t) + (p->proj == ProjKind::Fst   ? ".1"
                      : p->proj == ProjKind::Snd ? ".2"
                                                 : "." + std::string(str(p->field)));
  }
  case RKind::Let: {
    auto* l = as<RLet>(r);
    return "(let " + std::string(str(l->x)) + (l->ty ? ":" + S(l->ty) : "") + "=" + S(l->def) +
           ";" + S(l->body) + ")";
  }
  default: return "?";
  }
}

std::string parse(const std::string& text) {
  Source src("t", text);
  Arena a;
  Parser p(src, a);
  return S(p.wholeTerm());
}

std::string parseError(const std::string& text) {
  Source src("t", "x = " + text);
  Arena a;
  Parser p(src, a);
  Entry e;
  try {
    p.next(e);
  } catch (Error& err) {
    auto lc = src.lineCol(err.diags[0].span.begin);
    return std::to_string(lc.col) + ": " + err.diags[0].message;
  }
  return "no error";
}
} // namespace

TEST_CASE("parser: application is left-associative, arrows right-associative") {
  CHECK(parse("f a b") == "((f a) b)");
  CHECK(parse("A → B → C") == "(_:A)→(_:B)→C");
  CHECK(parse("f a → g b") == "(_:(f a))→(g b)");
}

TEST_CASE("parser: lambdas with all binder forms") {
  CHECK(parse("λ x y. x") == "(λx.(λy.x))");
  CHECK(parse("\\x.x") == "(λx.x)");
  CHECK(parse("λ {A} x. x") == "(λ{A}.(λx.x))");
  CHECK(parse("λ {A = B} x. x") == "(λ{A=B}.(λx.x))");
  CHECK(parse("λ _ x. x") == "(λ_.(λx.x))");
}

TEST_CASE("parser: grouped and implicit binders in Π types") {
  CHECK(parse("(x y : A) → B") == "(x:A)→(y:A)→B");
  CHECK(parse("{A B} → A") == "{A:_}→{B:_}→A");
  CHECK(parse("{A : U}(x : A) → A") == "{A:U}→(x:A)→A");
}

TEST_CASE("parser: implicit and named arguments") {
  CHECK(parse("f {A} x") == "((f {A}) x)");
  CHECK(parse("f {B = U} x") == "((f {B=U}) x)");
}

TEST_CASE("parser: Σ types, tuples and projections") {
  CHECK(parse("(x : A) × B x") == "(x:A)×(B x)");
  CHECK(parse("A × B → C") == "(_:(_:A)×B)→C");
  CHECK(parse("(a, b, c)") == "<a,<b,c>>");
  CHECK(parse("p.1.2") == "p.1.2");
  CHECK(parse("p.fst") == "p.fst");
  CHECK(parse("f p.1") == "(f p.1)");
}

TEST_CASE("parser: let and trailing lambda arguments") {
  CHECK(parse("let x : A = t; u") == "(let x:A=t;u)");
  CHECK(parse("let x = t; let y = x; y") == "(let x=t;(let y=x;y))");
  CHECK(parse("f λ x. x") == "(f (λx.x))");
}

TEST_CASE("parser: errors are located") {
  CHECK(parseError("(a b") == "9: expected ')', found end of input");
  CHECK(parseError("λ . x") == "7: expected a binder after 'λ', found '.'");
  CHECK(parseError("let x = U x") ==
        "16: expected ';' after the let-bound definition, found end of input");
  CHECK(parseError("p.3") == "7: a pair has only the projections .1 and .2");
}

TEST_CASE("parser: top-level entries with pragmas and directives") {
  Source src("t", "id [elabtime] : U\n  = U\n.check id\n.ax P : U\n");
  Arena a;
  Parser p(src, a);
  Entry e;
  REQUIRE(p.next(e));
  CHECK(e.kind == EntryKind::Def);
  CHECK(e.elabtime);
  CHECK(str(e.name) == "id");
  REQUIRE(p.next(e));
  CHECK(e.kind == EntryKind::Check);
  REQUIRE(p.next(e));
  CHECK(e.kind == EntryKind::Postulate);
  CHECK(str(e.name) == "P");
  CHECK_FALSE(p.next(e));
}

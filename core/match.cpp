// Pattern matching: `case e of` and definitions by clauses, elaborated to
// case trees (docs/inductive-design.md). Clauses are rows of obligations
// "context variable x must match pattern p"; the first row's first
// constructor obligation is split on — one alternative per constructor, in
// declaration order — until the first row has only variables left, and its
// right-hand side is checked there. In an alternative the variable is known to
// be the constructor applied to fresh variables for its fields: the goal and
// the types of the variables after it are refined (a `let` shadows a refined
// variable that has a name), and the term keeps referring to the variable
// itself, which at run time is that value. A branch no row reaches is a
// missing case; a row never reached is an unreachable clause (a warning).
#include <fmt/format.h>

#include <functional>
#include <optional>

#include "diagnostic.hpp"
#include "elab.hpp"
#include "eval.hpp"
#include "guard.hpp"
#include "literal.hpp"
#include "pretty.hpp"

namespace thorin {

namespace {

// A clause still to match: context variables (levels) and their patterns.
struct Row {
  std::vector<std::pair<Lvl, Raw*>> eqs;
  std::vector<std::pair<Raw*, Lvl>> vars; // pattern variables (RVar) bound so far
  std::vector<std::pair<Raw*, Lvl>> dots; // dot patterns (RDot), checked at the leaf
  RClause* clause;
  uint32_t index;
};

// Where the row matches variable x (eqs.size(): nowhere).
size_t eqAt(const Row& row, Lvl x) {
  size_t e = 0;
  while (e < row.eqs.size() && row.eqs[e].first != x)
    ++e;
  return e;
}

// The rows of a branch: those that do not match x, as they are; each that
// does, as `at` makes it (nullopt: it drops out).
template <class F> std::vector<Row> branchRows(std::vector<Row>& rows, Lvl x, F at) {
  std::vector<Row> out;
  for (Row& row : rows) {
    size_t e = eqAt(row, x);
    if (e == row.eqs.size())
      out.push_back(row);
    else if (std::optional<Row> r = at(row, e))
      out.push_back(std::move(*r));
  }
  return out;
}

// A pattern taken apart.
struct Pat {
  enum Kind { Var, Wild, Con, Absurd, Lit, Dot };
  explicit Pat(Kind k) : kind(k) {}
  Kind kind;
  TopId con = 0;
  int boolean = -1; // Lit: `true` 1, `false` 0 (-1: a number or string)
  std::vector<std::pair<Raw*, ArgInfo>> args; // Con: as written
};

// A let the matcher adds around a subtree (a pattern variable, or a shadow
// of a refined variable): name, type, and the level it stands for.
struct Alias {
  Name name;
  Tm* ty;
  Lvl of;
};

} // namespace

class Matcher {
public:
  Matcher(Elab& el, World& w) : el_(el), w_(w) {}
  Tm* clauses(Cxt& c, RClauses* r, Val* goal);
  Tm* caseOf(Cxt& c, RCase* r, Val* goal, bool refine);
  std::vector<Diagnostic> warnings;

private:
  Elab& el_;
  World& w_;
  bool refine_ = true; // refine the goal in each alternative (not a goal to be inferred)
  Span whole_;         // the case or the clauses (for errors without a pattern)
  // Per context level: its value (a variable, or what a split found it to
  // be), its type, the constructor a split found (kDefaultAlt: none) and the
  // levels of that constructor's fields.
  struct Level {
    Level() = default;
    Level(Val* v, Val* t) : val(v), ty(t) {}
    Val* val = nullptr;
    Val* ty = nullptr;
    TopId con = kDefaultAlt;
    std::vector<Lvl> fields;
    std::vector<Icit> icits;
    std::string lit; // a literal a split found it to be (shown in a missing case)
  };
  std::vector<Level> lv_;
  std::vector<bool> used_;
  std::vector<std::string> missing_;
  std::vector<std::pair<Lvl, Icit>> roots_; // what a missing case shows
  std::string prefix_;                      // "length " (clauses) or "" (case)

  void start(const Cxt& c, size_t nRows);
  Cxt bindVar(const Cxt& c, Name x, Val* ty);
  Cxt alias(const Cxt& c, Name x, Lvl of, std::vector<Alias>& lets);
  Tm* wrap(Tm* body, const std::vector<Alias>& lets, Lvl lvlAfter);
  Pat classify(Raw* p);
  Tm* compile(Cxt c, Val* goal, std::vector<Row> rows);
  Tm* leaf(const Cxt& c, Val* goal, Row& row);
  Tm* split(const Cxt& c, Val* goal, std::vector<Row>& rows, Lvl x, Raw* at);
  enum class Unified { Ok, Conflict, Stuck };
  struct Branch {
    Cxt c;
    std::vector<Lvl> fields;
    std::vector<Icit> icits;
    std::vector<Name> names;
  };
  Unified tryConstructor(const Cxt& c, Lvl x, const DataInfo& d, const std::vector<Val*>& args,
                         TopId con, std::vector<Row>* rows, Branch& br, std::string& why);
  bool emptyType(const Cxt& c, Lvl x);
  Lvl rootBase_ = 0; // the first variable the rows match on (an empty type among them and after
                     // them makes a branch no row covers fine)
  Unified unifyAll(Lvl L, std::vector<std::pair<Val*, Val*>> eqs, std::string& why, const Cxt& c);
  void settle(Lvl L, size_t k);
  Val* current(Lvl l, Val* v);
  std::pair<Val*, uint64_t> natView(Val* v);
  Val* natPlus(Val* base, uint64_t k);
  Name fieldHint(std::vector<Row>& rows, Lvl x, TopId con, size_t i, Val* f);
  std::vector<Lvl> solved_; // variables unification solved, in the branches being built
  Tm* splitLit(const Cxt& c, Val* goal, std::vector<Row>& rows, Lvl x, Raw* at);
  Tm* litBranch(const Cxt& c, Val* goal, std::vector<Row>& rows, Lvl x, bool taken,
                const std::function<bool(Raw*)>& same, Val* value, std::string shown);
  int boolConst(int32_t id);
  bool refinable(Val* goal, Tm* quoted, Lvl l, Lvl x);
  bool expand(Row& row, size_t e, const Pat& p, const Level& x, Lvl fieldBase);
  Env* envOf(Lvl n);
  std::string showPattern(Lvl l, bool atom);
  void reportCoverage(Span where, size_t nClauses, RClause* clauses);
};

void Matcher::start(const Cxt& c, size_t nRows) {
  std::vector<Val*> vals;
  for (Env* e = c.env; e; e = e->prev)
    vals.push_back(e->v);
  std::vector<Local*> locals;
  for (Local* l = c.locals; l; l = l->prev)
    locals.push_back(l);
  lv_.clear();
  for (size_t i = vals.size(); i-- > 0;) {
    // (A let-bound variable is matched as a variable: its value is what it
    // is, the split finds out which constructor built it.)
    bool let = i < locals.size() && locals[i]->defined;
    lv_.push_back(Level(let ? w_.var(Lvl(vals.size() - 1 - i)) : vals[i],
                        i < locals.size() ? locals[i]->ty : nullptr));
  }
  used_.assign(nRows, false);
}

Cxt Matcher::bindVar(const Cxt& c, Name x, Val* ty) {
  Cxt c2 = el_.bind(c, x, ty, false);
  lv_.push_back(Level(w_.var(c.lvl), ty));
  return c2;
}

// `let x = <level of>` in the context (its value is what the level is known
// to be); recorded in `lets` for wrap().
Cxt Matcher::alias(const Cxt& c, Name x, Lvl of, std::vector<Alias>& lets) {
  Level& l = lv_[of];
  Tm* def = quote(w_, w_.perm, c.lvl, l.val, QuoteOpts{false, false});
  Tm* ty = quote(w_, w_.perm, c.lvl, l.ty, QuoteOpts{false, false});
  Cxt c2 = el_.define(c, x, def, l.val, l.ty);
  lets.push_back(Alias{x, ty, of});
  lv_.push_back(Level(l.val, l.ty));
  return c2;
}

// The lets around a subtree's term, the last one innermost. A let's
// definition is the variable it stands for (at run time the value itself).
Tm* Matcher::wrap(Tm* body, const std::vector<Alias>& lets, Lvl lvlAfter) {
  for (size_t i = lets.size(); i-- > 0;) {
    Lvl here = lvlAfter - Lvl(lets.size() - i); // the let's own level
    Tm* t = mkTm(w_.perm, TTag::Let);
    t->name = lets[i].name;
    t->a = lets[i].ty;
    t->b = w_.varTm(here - lets[i].of - 1);
    t->c = body;
    body = t;
  }
  return body;
}

Env* Matcher::envOf(Lvl n) {
  Env* e = nullptr;
  for (Lvl i = 0; i < n; ++i)
    e = extend(w_, e, lv_[i].val);
  return e;
}

Pat Matcher::classify(Raw* p) {
  Pat r(Pat::Wild);
  switch (p->kind) {
  case RKind::Hole: return r;
  case RKind::Absurd: r.kind = Pat::Absurd; return r;
  case RKind::Dot: r.kind = Pat::Dot; return r;
  case RKind::Var: {
    Name x = as<RVar>(p)->name;
    if (x == names::underscore) return r;
    int32_t id = w_.resolve(x);
    if (id >= 0 && w_.tops[id].conOf >= 0) {
      r.kind = Pat::Con;
      r.con = TopId(id);
    } else if (int b = boolConst(id); b >= 0) {
      r.kind = Pat::Lit;
      r.boolean = b;
    } else {
      r.kind = Pat::Var;
    }
    return r;
  }
  case RKind::App: {
    Raw* h = p;
    for (; h->kind == RKind::App; h = as<RApp>(h)->fn)
      r.args.push_back({as<RApp>(h)->arg, as<RApp>(h)->info});
    std::reverse(r.args.begin(), r.args.end());
    int32_t id = h->kind == RKind::Var ? w_.resolve(as<RVar>(h)->name) : -1;
    if (id < 0 || w_.tops[id].conOf < 0)
      fail(h->span,
           h->kind == RKind::Var
               ? fmt::format("'{}' is not a constructor, so it cannot be applied in a pattern",
                             str(as<RVar>(h)->name))
               : std::string("a pattern applies a constructor to patterns"),
           {"a pattern is a variable, `_`, a constructor applied to patterns, or `()`"});
    r.kind = Pat::Con;
    r.con = TopId(id);
    return r;
  }
  case RKind::Number:
  case RKind::String: r.kind = Pat::Lit; return r;
  default:
    fail(p->span, "this is not a pattern",
         {"a pattern is a variable, `_`, a constructor applied to patterns, or `()`"});
  }
}

Tm* Matcher::compile(Cxt c, Val* goal, std::vector<Row> rows) {
  guard();
  if (rows.empty()) { // nothing covers this branch, unless a variable's type is empty
    for (Lvl l = rootBase_; l < c.lvl; ++l)
      if (emptyType(c, l)) return split(c, goal, rows, l, nullptr);
    std::string s = prefix_;
    for (size_t i = 0; i < roots_.size(); ++i)
      if (roots_[i].second == Icit::Expl)
        s += (s.empty() || s.back() == ' ' ? "" : " ") + showPattern(roots_[i].first, !prefix_.empty());
    missing_.push_back(s);
    return mkTm(w_.perm, TTag::Irrelevant);
  }
  for (Row& row : rows) // variables and `_` match anything
    for (size_t e = 0; e < row.eqs.size();) {
      Pat p = classify(row.eqs[e].second);
      if (p.kind == Pat::Var) row.vars.push_back({row.eqs[e].second, row.eqs[e].first});
      if (p.kind == Pat::Dot) row.dots.push_back({row.eqs[e].second, row.eqs[e].first});
      if (p.kind == Pat::Var || p.kind == Pat::Wild || p.kind == Pat::Dot)
        row.eqs.erase(row.eqs.begin() + long(e));
      else
        ++e;
    }
  if (rows[0].eqs.empty()) return leaf(c, goal, rows[0]);
  auto [x, p] = rows[0].eqs[0];
  if (classify(p).kind == Pat::Lit) return splitLit(c, goal, rows, x, p);
  return split(c, goal, rows, x, p);
}

// `true` 1, `false` 0, anything else -1.
int Matcher::boolConst(int32_t id) {
  if (id < 0) return -1;
  const Axiom* ax = w_.tops[id].axiom;
  if (!ax && w_.tops[id].def && w_.tops[id].def->tag == TTag::Top)
    ax = w_.tops[w_.tops[id].def->n].axiom;
  if (!ax) return -1;
  const AxiomTable& t = AxiomTable::get();
  return t.is(ax->id, Builtin::True) ? 1 : t.is(ax->id, Builtin::False) ? 0 : -1;
}

// One side of a literal split: the rows whose pattern at x is the literal
// (`same`) lose it, the others keep theirs (taken: x is that literal, so
// rows with another literal drop out; not taken: rows with it drop out).
Tm* Matcher::litBranch(const Cxt& c, Val* goal, std::vector<Row>& rows, Lvl x, bool taken,
                       const std::function<bool(Raw*)>& same, Val* value, std::string shown) {
  std::vector<Level> saved = lv_;
  std::vector<Row> rows2 = branchRows(rows, x, [&](Row& row, size_t e) -> std::optional<Row> {
    bool eq = same(row.eqs[e].second);
    if (!taken) return eq ? std::nullopt : std::optional<Row>(row); // (another: still to test)
    if (!eq) return std::nullopt;
    Row r2 = row;
    r2.eqs.erase(r2.eqs.begin() + long(e));
    return r2;
  });
  Val* goal2 = goal;
  if (value) {
    lv_[x].val = value;
    lv_[x].lit = std::move(shown);
    Tm* q = quote(w_, w_.scratch, c.lvl, goal, QuoteOpts{false, false});
    if (refinable(goal, q, c.lvl, x)) goal2 = eval(w_, envOf(c.lvl), q);
  }
  Tm* t = compile(c, goal2, std::move(rows2));
  lv_ = std::move(saved);
  return t;
}

// A literal pattern: `if x == lit then … else …` (Bool: `if x then … else …`).
Tm* Matcher::splitLit(const Cxt& c, Val* goal, std::vector<Row>& rows, Lvl x, Raw* at) {
  Pat first = classify(at);
  Tm* var = w_.varTm(c.lvl - 1 - x);
  Cxt cc = c;
  auto litOf = [&](Raw* p) { // (a pattern at x that is not a literal: an error)
    Pat q = classify(p);
    if (q.kind != Pat::Lit || (q.boolean >= 0) != (first.boolean >= 0))
      fail(p->span, fmt::format("this pattern cannot match a value of type {}, as the literal "
                                "pattern above it does",
                                el_.showVal(c, lv_[x].ty)));
    return q;
  };
  if (first.boolean >= 0) {
    Val* boolTy = el_.builtinType(Builtin::Bool, at->span);
    el_.unifyOrFail(cc, at->span, lv_[x].ty, boolTy);
    auto is = [&](int b) { return [&, b](Raw* p) { return litOf(p).boolean == b; }; };
    Tm* t = litBranch(c, goal, rows, x, true, is(1), vLit(w_, LitKind::Bool, 1), "true");
    Tm* f = litBranch(c, goal, rows, x, true, is(0), vLit(w_, LitKind::Bool, 0), "false");
    return mkIf(w_.perm, var, t, f);
  }
  // (A type not known yet: a number pattern makes it Nat, a string String.)
  if (forceAll(w_, lv_[x].ty)->tag == VTag::Flex)
    el_.unifyOrFail(cc, at->span, lv_[x].ty,
                    el_.builtinType(at->kind == RKind::String ? Builtin::String : Builtin::Nat,
                                    at->span));
  Tm* lit = el_.check(cc, at, lv_[x].ty);
  Val* value = el_.evalIn(cc, lit);
  std::string shown = show(w_, lit);
  auto same = [&](Raw* p) {
    litOf(p);
    return show(w_, el_.check(cc, p, lv_[x].ty)) == shown;
  };
  RBinOp op{};
  op.kind = RKind::BinOp;
  op.span = op.opSpan = at->span;
  op.op = intern("==");
  Tm* cond = el_.operation(cc, &op, var, lit, lv_[x].ty).first;
  Tm* t = litBranch(c, goal, rows, x, true, same, value, shown);
  Tm* e = litBranch(c, goal, rows, x, false, same, nullptr, "");
  return mkIf(w_.perm, cond, t, e);
}

// The first row matches: its variables as lets, then its right-hand side.
Tm* Matcher::leaf(const Cxt& c, Val* goal, Row& row) {
  used_[row.index] = true;
  std::vector<Alias> lets;
  Cxt c2 = c;
  for (size_t i = 0; i < row.vars.size(); ++i) {
    auto* v = as<RVar>(row.vars[i].first);
    for (size_t j = 0; j < i; ++j)
      if (as<RVar>(row.vars[j].first)->name == v->name)
        fail(v->span, fmt::format("the variable '{}' is bound twice in this clause", str(v->name)),
             {"each variable of a pattern is bound once; use `_` or another name"});
    c2 = alias(c2, v->name, row.vars[i].second, lets);
  }
  for (auto& [p, l] : row.dots) { // what the term says must be what matching forced
    Raw* t = as<RDot>(p)->t;
    Val* v = el_.evalIn(c2, el_.check(c2, t, lv_[l].ty));
    if (!el_.unifier_.unify(c2.lvl, v, lv_[l].val))
      fail(p->span,
           fmt::format("the dot pattern is {}, but the other patterns force {} here",
                       el_.showVal(c2, v), el_.showVal(c2, lv_[l].val)),
           {"a dot pattern .(t) states what the value must be; use a variable or `_` to bind it"});
  }
  if (!row.clause->rhs)
    fail(row.clause->lhs->span, "this clause has no right-hand side, but none of its patterns is absurd",
         {"write `= term` after the patterns (`()` marks a value that cannot exist)"});
  Tm* rhs = el_.check(c2, row.clause->rhs, goal);
  lv_.resize(c.lvl);
  return wrap(rhs, lets, c2.lvl);
}

// Replaces row.eqs[e] (x's pattern p, a constructor with x's fields) by the
// patterns of its fields; false if p is another constructor.
bool Matcher::expand(Row& row, size_t e, const Pat& p, const Level& x, Lvl fieldBase) {
  if (p.con != x.con) return false;
  const std::vector<Icit>& icits = x.icits;
  std::vector<Raw*> sub(icits.size(), nullptr);
  size_t next = 0;
  for (auto& [arg, info] : p.args) {
    if (info.icit == Icit::Expl) {
      while (next < icits.size() && icits[next] == Icit::Impl)
        ++next;
    } else if (info.named.id) {
      // (the field of that name: the constructor's binder names)
      Val* ty = forceAll(w_, w_.topType(p.con));
      size_t k = 0, params = w_.tops[w_.tops[p.con].conOf].data->params;
      size_t found = icits.size();
      for (; ty->tag == VTag::Pi; ++k) {
        if (k >= params && ty->name == info.named && ty->icit == Icit::Impl) found = k - params;
        ty = forceAll(w_, apply(w_, ty, vUnused()));
      }
      if (found == icits.size())
        fail(info.nameSpan, fmt::format("the constructor '{}' has no implicit argument named '{}'",
                                        str(w_.tops[p.con].name), str(info.named)));
      next = found;
    } else if (next >= icits.size() || icits[next] != Icit::Impl) {
      fail(arg->span, fmt::format("the constructor '{}' takes no implicit argument here",
                                  str(w_.tops[p.con].name)));
    }
    if (next >= icits.size()) {
      size_t expl = 0;
      for (Icit i : icits)
        expl += i == Icit::Expl;
      size_t given = 0;
      for (auto& a : p.args)
        given += a.second.icit == Icit::Expl;
      fail(arg->span,
           fmt::format("the constructor '{}' takes {} argument{}, but the pattern gives {}",
                       str(w_.tops[p.con].name), expl, expl == 1 ? "" : "s", given));
    }
    sub[next++] = arg;
  }
  size_t missingExpl = 0;
  for (size_t i = 0; i < icits.size(); ++i)
    missingExpl += icits[i] == Icit::Expl && !sub[i];
  if (missingExpl) {
    size_t expl = 0, given = 0;
    for (Icit i : icits)
      expl += i == Icit::Expl;
    for (auto& a : p.args)
      given += a.second.icit == Icit::Expl;
    fail(row.eqs[e].second->span,
         fmt::format("the constructor '{}' takes {} argument{}, but the pattern gives {}",
                     str(w_.tops[p.con].name), expl, expl == 1 ? "" : "s", given),
         {"a constructor pattern gives all its explicit arguments (`_` for those not needed)"});
  }
  std::vector<std::pair<Lvl, Raw*>> eqs;
  for (size_t i = 0; i < sub.size(); ++i)
    if (sub[i]) eqs.push_back({fieldBase + Lvl(i), sub[i]});
  row.eqs.erase(row.eqs.begin() + long(e));
  row.eqs.insert(row.eqs.begin() + long(e), eqs.begin(), eqs.end());
  return true;
}

// Does the goal depend on x, other than through an unsolved meta (whose
// arguments a constructor value would take out of the pattern fragment)?
static bool hasMeta(World& w, Tm* t) {
  switch (t->tag) {
  case TTag::Meta:
  case TTag::InsertedMeta: return !w.metas[t->n].solution;
  case TTag::App:
  case TTag::Pi:
  case TTag::Sigma:
  case TTag::Pair: return hasMeta(w, t->a) || hasMeta(w, t->b);
  case TTag::Lam:
  case TTag::Proj1:
  case TTag::Proj2:
  case TTag::Field: return hasMeta(w, t->a);
  case TTag::Let:
  case TTag::If: return hasMeta(w, t->a) || hasMeta(w, t->b) || hasMeta(w, t->c);
  case TTag::Case:
    if (hasMeta(w, t->a)) return true;
    for (uint32_t i = 0; i < t->n; ++i)
      if (hasMeta(w, t->alts[i].body)) return true;
    return false;
  default: return false;
  }
}

bool Matcher::refinable(Val*, Tm* quoted, Lvl l, Lvl x) {
  return refine_ && freeIn(quoted, l - 1 - x) && !hasMeta(w_, quoted);
}

// A value with the solutions found so far applied (re-evaluated in the
// environment of the levels' current values).
Val* Matcher::current(Lvl l, Val* v) {
  return eval(w_, envOf(l), quote(w_, w_.scratch, l, v, QuoteOpts{false, false}));
}

// `n + k` (k a literal) as (n, k); a literal k as (null, k); else (v, 0).
std::pair<Val*, uint64_t> Matcher::natView(Val* v) {
  v = forceAll(w_, v);
  if (v->tag == VTag::Lit && LitKind(v->n) == LitKind::Nat) return {nullptr, v->bits};
  int32_t add = w_.axiomEntry(AxiomTable::get().builtin(Builtin::NatAdd));
  if (add >= 0 && v->tag == VTag::Top && v->n == TopId(add) && v->sp && v->sp->len == 2) {
    Val* k = forceAll(w_, v->sp->arg);
    if (k->tag == VTag::Lit && LitKind(k->n) == LitKind::Nat) {
      auto [b, j] = natView(v->sp->prev->arg);
      return {b, j + k->bits};
    }
  }
  return {v, 0};
}

Val* Matcher::natPlus(Val* base, uint64_t k) {
  if (!base) return vLit(w_, LitKind::Nat, k);
  if (k == 0) return base;
  int32_t add = w_.axiomEntry(AxiomTable::get().builtin(Builtin::NatAdd));
  return vApp(w_, vApp(w_, w_.topHead(TopId(add)), base, Icit::Expl), vLit(w_, LitKind::Nat, k),
              Icit::Expl);
}

// Unifies the equations (Cockx & Abel's rules): a variable not yet solved
// is solved by the other side (the solution rule), equal constructors
// compare their arguments (injectivity), different constructors or
// literals make the branch impossible (conflict), `n + 1` against `0` too;
// anything else must be convertible, or the split is stuck. Solutions go
// into lv_; `why` says what was stuck.
Matcher::Unified Matcher::unifyAll(Lvl L, std::vector<std::pair<Val*, Val*>> eqs, std::string& why,
                                   const Cxt& c) {
  while (!eqs.empty()) {
    auto [a0, b0] = eqs.back();
    eqs.pop_back();
    Val* a = forceAll(w_, current(L, a0));
    Val* b = forceAll(w_, current(L, b0));
    auto freeVar = [&](Val* v) {
      return v->tag == VTag::Rigid && !v->sp && v->n < L && lv_[v->n].val->tag == VTag::Rigid &&
             lv_[v->n].val->n == v->n && !lv_[v->n].val->sp;
    };
    auto occurs = [&](Lvl v, Val* t) {
      return freeIn(quote(w_, w_.scratch, L, t, QuoteOpts{false, false}), L - 1 - v);
    };
    if (freeVar(a) && freeVar(b) && a->n == b->n) continue;
    // (Of two variables, the later one is solved: a field by what it is.)
    if (freeVar(a) && freeVar(b) && a->n < b->n) std::swap(a, b);
    if (freeVar(a) && !occurs(a->n, b)) {
      lv_[a->n].val = b;
      solved_.push_back(a->n);
      continue;
    }
    if (freeVar(b) && !occurs(b->n, a)) {
      lv_[b->n].val = a;
      solved_.push_back(b->n);
      continue;
    }
    bool conA = a->tag == VTag::Top && w_.tops[a->n].conOf >= 0;
    bool conB = b->tag == VTag::Top && w_.tops[b->n].conOf >= 0;
    if (conA && conB) {
      if (a->n != b->n) return Unified::Conflict;
      for (Spine *s = a->sp, *t = b->sp; s && t; s = s->prev, t = t->prev)
        eqs.push_back({s->arg, t->arg});
      continue;
    }
    auto [na, ka] = natView(a);
    auto [nb, kb] = natView(b);
    if (!na || ka > 0 || !nb || kb > 0) { // (a Nat in the form k or n + k on a side)
      uint64_t m = std::min(ka, kb);
      ka -= m, kb -= m;
      if (!na && !nb) {
        if (ka != kb) return Unified::Conflict;
        continue;
      }
      if ((!na && ka == 0 && kb > 0) || (!nb && kb == 0 && ka > 0)) // 0 is no n + 1
        return Unified::Conflict;
      if (m > 0) { // n + 1 ≟ m + 1 is n ≟ m
        eqs.push_back({natPlus(na, ka), natPlus(nb, kb)});
        continue;
      }
    }
    if (a->tag == VTag::Lit && b->tag == VTag::Lit) {
      if (show(w_, quote(w_, w_.scratch, L, a, QuoteOpts{false, false})) !=
          show(w_, quote(w_, w_.scratch, L, b, QuoteOpts{false, false})))
        return Unified::Conflict;
      continue;
    }
    if (el_.unifier_.unify(L, a, b)) continue;
    Cxt cl = c;
    why = fmt::format("{} ≟ {}", el_.showVal(cl, a), el_.showVal(cl, b));
    return Unified::Stuck;
  }
  return Unified::Ok;
}

// Binds the fields of constructor `con` after c (the branch's context) and
// unifies x and its type's indices with what con builds.
Matcher::Unified Matcher::tryConstructor(const Cxt& c, Lvl x, const DataInfo& d,
                                         const std::vector<Val*>& args, TopId con,
                                         std::vector<Row>* rows, Branch& br, std::string& why) {
  Val* cty = w_.topType(con);
  Val* conVal = w_.topHead(con);
  for (uint32_t j = 0; j < d.params; ++j) {
    cty = apply(w_, forceAll(w_, cty), args[j]);
    conVal = vApp(w_, conVal, args[j], Icit::Impl);
  }
  br.c = c;
  Val* f = forceAll(w_, cty);
  for (; f->tag == VTag::Pi; f = forceAll(w_, cty)) {
    Name hint = rows ? fieldHint(*rows, x, con, br.fields.size(), f) : f->name;
    br.c = bindVar(br.c, hint, f->a);
    br.fields.push_back(br.c.lvl - 1);
    br.icits.push_back(f->icit);
    br.names.push_back(hint);
    conVal = vApp(w_, conVal, w_.var(br.c.lvl - 1), f->icit);
    cty = apply(w_, f, w_.var(br.c.lvl - 1));
  }
  // x is the constructor, and its indices are the type's.
  std::vector<std::pair<Val*, Val*>> eqs{{lv_[x].val, conVal}};
  std::vector<Val*> targetIdx;
  for (Spine* s = f->sp; s; s = s->prev)
    targetIdx.insert(targetIdx.begin(), s->arg);
  for (uint32_t j = d.params; j < args.size() && j < targetIdx.size(); ++j)
    eqs.push_back({args[j], targetIdx[j]});
  std::reverse(eqs.begin(), eqs.end()); // (solved from the back: x first)
  size_t before = solved_.size();
  Unified u = unifyAll(br.c.lvl, eqs, why, br.c);
  if (u == Unified::Ok) settle(br.c.lvl, solved_.size() - before);
  return u;
}

// Each level's value with the solutions applied throughout: a solution may
// mention a variable solved after it (x is `lz {k}`, then k is b), so `k`
// passes settle chains of `k` solutions.
void Matcher::settle(Lvl L, size_t k) {
  for (size_t pass = 0; pass < k; ++pass) {
    Env* env = envOf(L);
    for (Lvl l = L; l-- > 0;) {
      Val* v = lv_[l].val;
      if (v->tag == VTag::Rigid && !v->sp && (v->n == l || lv_[v->n].val == v))
        continue; // (itself, or another variable not solved: nothing to apply)
      lv_[l].val = eval(w_, env, quote(w_, w_.scratch, L, v, QuoteOpts{false, false}));
    }
  }
}

// Is x's type one no constructor can build (each one's indices conflict)?
// Then a branch no clause covers is no missing case (Agda's absurd split).
bool Matcher::emptyType(const Cxt& c, Lvl x) {
  Val* v = lv_[x].val;
  if (v->tag != VTag::Rigid || v->n != x || v->sp || !lv_[x].ty) return false;
  Val* ty = forceAll(w_, current(c.lvl, lv_[x].ty));
  const DataInfo* d = ty->tag == VTag::Top ? w_.tops[ty->n].data : nullptr;
  if (!d) return false;
  std::vector<Val*> args;
  for (Spine* s = ty->sp; s; s = s->prev)
    args.insert(args.begin(), s->arg);
  for (uint32_t ci = 0; ci < d->nCons; ++ci) {
    std::vector<Level> saved = lv_;
    size_t solvedBefore = solved_.size();
    Branch br;
    std::string why;
    Unified u = tryConstructor(c, x, *d, args, d->cons[ci], nullptr, br, why);
    lv_ = std::move(saved);
    solved_.resize(solvedBefore);
    if (u != Unified::Conflict) return false;
  }
  return true;
}

Tm* Matcher::split(const Cxt& c, Val* goal, std::vector<Row>& rows, Lvl x, Raw* at) {
  Val* ty = forceAll(w_, current(c.lvl, lv_[x].ty));
  const DataInfo* d = ty->tag == VTag::Top ? w_.tops[ty->n].data : nullptr;
  Pat first = at ? classify(at) : Pat(Pat::Wild);
  Span where = at ? at->span : whole_;
  if (!d)
    fail(where,
         first.kind == Pat::Absurd
             ? fmt::format("the absurd pattern () needs a value of an empty data type, not of {}",
                           el_.showVal(c, ty))
             : fmt::format("a constructor pattern matches a value of a data type, not of {}",
                           el_.showVal(c, ty)));
  TopId dataId = ty->n;
  std::vector<Val*> args; // parameters, then indices (oldest first)
  for (Spine* s = ty->sp; s; s = s->prev)
    args.insert(args.begin(), s->arg);
  Tm* quotedGoal = quote(w_, w_.scratch, c.lvl, goal, QuoteOpts{false, false});
  bool goalRefinable = refine_ && !hasMeta(w_, quotedGoal);
  std::vector<CaseAlt> alts;
  std::vector<TopId> possible;
  for (uint32_t ci = 0; ci < d->nCons; ++ci) {
    TopId con = d->cons[ci];
    std::vector<Level> saved = lv_;
    size_t solvedBefore = solved_.size();
    Branch br;
    std::string why;
    Unified u = tryConstructor(c, x, *d, args, con, &rows, br, why);
    Cxt& c2 = br.c;
    std::vector<Lvl>& fields = br.fields;
    std::vector<Icit>& icits = br.icits;
    std::vector<Name>& names = br.names;
    Name* ns = w_.perm.array<Name>(names.size());
    std::copy(names.begin(), names.end(), ns);
    if (u == Unified::Conflict) { // no value of this type is built by con
      lv_ = std::move(saved);
      solved_.resize(solvedBefore);
      alts.push_back(CaseAlt{con, uint32_t(fields.size()), ns, mkTm(w_.perm, TTag::Irrelevant)});
      continue;
    }
    if (u == Unified::Stuck)
      fail(where, fmt::format("cannot match on a value of type {}: whether '{}' builds it is not "
                              "decided by unification",
                              el_.showVal(c, ty), str(w_.tops[con].name)),
           {"stuck on " + why,
            "the indices of the type must be variables or built by constructors (or n + 1)"});
    possible.push_back(con);
    Level& xl = lv_[x];
    xl.con = con;
    xl.fields = fields;
    xl.icits = icits;
    std::vector<Row> rows2 = branchRows(rows, x, [&](Row& row, size_t e) -> std::optional<Row> {
      Pat p = classify(row.eqs[e].second);
      if (p.kind == Pat::Absurd)
        fail(row.eqs[e].second->span,
             fmt::format("the absurd pattern () needs an impossible type, but '{}' can build a "
                         "value of {}",
                         str(w_.tops[con].name), el_.showVal(c, ty)));
      Row r2 = row;
      if (p.kind == Pat::Con && w_.tops[p.con].conOf != int32_t(dataId))
        fail(row.eqs[e].second->span,
             fmt::format("'{}' is a constructor of '{}', but the value matched has type {}",
                         str(w_.tops[p.con].name), str(w_.tops[w_.tops[p.con].conOf].name),
                         el_.showVal(c, ty)));
      if (!expand(r2, e, p, xl, fields.empty() ? 0 : fields[0])) return std::nullopt;
      return r2;
    });
    // What depends on a solved variable learns its value: the goal, the
    // types of the variables after it (the named ones are shadowed by lets
    // of the refined type: a name finds what it is now).
    Val* goal2 = goalRefinable ? eval(w_, envOf(c.lvl), quotedGoal) : goal;
    Lvl from = x;
    for (size_t i = solvedBefore; i < solved_.size(); ++i)
      from = std::min(from, solved_[i]);
    std::vector<Alias> lets;
    Cxt c3 = c2;
    std::vector<Local*> later;
    for (Local* l = c2.locals; l && l->lvl >= from; l = l->prev)
      later.push_back(l);
    for (size_t i = later.size(); i-- > 0;) {
      Local* l = later[i];
      // (Types are quoted at the whole context's length: a refined type may
      // mention variables bound after its own.)
      Val* before = lv_[l->lvl].ty;
      if (before) lv_[l->lvl].ty = current(c2.lvl, before);
      bool changed = lv_[l->lvl].val->tag != VTag::Rigid || lv_[l->lvl].val->n != l->lvl;
      if (!changed && before) {
        Tm* t = quote(w_, w_.scratch, c2.lvl, before, QuoteOpts{false, false});
        for (size_t k = solvedBefore; k < solved_.size() && !changed; ++k)
          changed = freeIn(t, c2.lvl - 1 - solved_[k]);
      }
      if (!changed || !l->visible || l->name == names::underscore) continue;
      c3 = alias(c3, l->name, l->lvl, lets);
    }
    Tm* body = compile(c3, goal2, std::move(rows2));
    body = wrap(body, lets, c3.lvl);
    alts.push_back(CaseAlt{con, uint32_t(fields.size()), ns, body});
    lv_ = std::move(saved);
    solved_.resize(solvedBefore);
  }
  if (first.kind == Pat::Absurd && !rows.empty()) used_[rows[0].index] = true;
  if (first.kind == Pat::Absurd && !possible.empty())
    fail(where,
         fmt::format("the absurd pattern () needs an impossible type, but '{}' can build a value "
                     "of {}",
                     str(w_.tops[possible[0]].name), el_.showVal(c, ty)));
  Tm* t = mkTm(w_.perm, TTag::Case);
  t->a = w_.varTm(c.lvl - 1 - x);
  t->m = dataId;
  t->n = uint32_t(alts.size());
  t->alts = w_.perm.array<CaseAlt>(alts.size());
  std::copy(alts.begin(), alts.end(), t->alts);
  return t;
}

// A name for field i of constructor con when x is split: the variable a
// row's pattern gives it, else the constructor's binder name.
Name Matcher::fieldHint(std::vector<Row>& rows, Lvl x, TopId con, size_t i, Val* f) {
  for (Row& row : rows)
    for (auto& [l, p] : row.eqs)
      if (l == x) {
        Pat q = classify(p);
        if (q.kind == Pat::Con && q.con == con && i < q.args.size() &&
            q.args[i].first->kind == RKind::Var && q.args[i].second.icit == f->icit &&
            classify(q.args[i].first).kind == Pat::Var)
          return as<RVar>(q.args[i].first)->name;
      }
  return f->name;
}

std::string Matcher::showPattern(Lvl l, bool atom) {
  const Level& x = lv_[l];
  if (!x.lit.empty()) return x.lit;
  if (x.con == kDefaultAlt) return "_";
  std::string s(str(w_.tops[x.con].name));
  bool args = false;
  for (size_t i = 0; i < x.fields.size(); ++i)
    if (x.icits[i] == Icit::Expl) {
      s += " " + showPattern(x.fields[i], true);
      args = true;
    }
  return args && atom ? "(" + s + ")" : s;
}

void Matcher::reportCoverage(Span where, size_t nClauses, RClause* clauses) {
  if (!missing_.empty()) {
    Diagnostic d{where, "missing case: " + missing_[0], {}};
    if (missing_.size() > 1) {
      d.message = fmt::format("{} missing cases: {}", missing_.size(), missing_[0]);
      for (size_t i = 1; i < missing_.size() && i < 10; ++i)
        d.notes.push_back("missing case: " + missing_[i]);
      if (missing_.size() > 10) d.notes.push_back(fmt::format("and {} more", missing_.size() - 10));
    }
    d.notes.push_back("add a clause for each (or one with variables that covers them)");
    throw Error(std::move(d));
  }
  for (size_t i = 0; i < nClauses; ++i)
    if (!used_[i]) {
      Diagnostic d{clauses[i].span, "unreachable clause: the clauses above it match every value it does",
                   {}};
      d.warning = true;
      warnings.push_back(std::move(d));
    }
}

Tm* Matcher::clauses(Cxt& c, RClauses* r, Val* goal) {
  // Each clause's patterns, from its left-hand side `f p₁ … pₙ`.
  std::vector<std::vector<std::pair<Raw*, ArgInfo>>> pats(r->n);
  size_t nExpl = 0;
  for (uint32_t i = 0; i < r->n; ++i) {
    Raw* h = r->clauses[i].lhs;
    for (; h->kind == RKind::App; h = as<RApp>(h)->fn)
      pats[i].push_back({as<RApp>(h)->arg, as<RApp>(h)->info});
    std::reverse(pats[i].begin(), pats[i].end());
    size_t expl = 0;
    for (auto& p : pats[i])
      expl += p.second.icit == Icit::Expl;
    if (i == 0) nExpl = expl;
    if (expl != nExpl)
      fail(r->clauses[i].lhs->span,
           fmt::format("this clause of '{}' has {} pattern{}, the first clause {}", str(r->fn), expl,
                       expl == 1 ? "" : "s", nExpl),
           {"every clause of a function matches the same number of explicit arguments"});
  }
  // λs for the arguments the clauses match, up to the last explicit one.
  prefix_ = std::string(str(r->fn));
  whole_ = r->span;
  std::vector<std::pair<Name, Icit>> lams;
  Cxt c2 = c;
  start(c, r->n);
  rootBase_ = c.lvl;
  Val* original = goal;
  size_t bound = 0;
  while (bound < nExpl) {
    Val* f = forceAll(w_, goal);
    if (f->tag != VTag::Pi) {
      size_t takes = 0;
      for (auto& l : lams)
        takes += l.second == Icit::Expl;
      fail(r->clauses[0].lhs->span,
           fmt::format("'{}' has {} pattern{}, but its type {} takes {} argument{}", str(r->fn),
                       nExpl, nExpl == 1 ? "" : "s", el_.showVal(c, original), takes,
                       takes == 1 ? "" : "s"));
    }
    c2 = bindVar(c2, f->name, f->a);
    roots_.push_back({c2.lvl - 1, f->icit});
    lams.push_back({f->name, f->icit});
    goal = apply(w_, f, w_.var(c2.lvl - 1));
    bound += f->icit == Icit::Expl;
  }
  std::vector<Row> rows;
  for (uint32_t i = 0; i < r->n; ++i) {
    Row row{{}, {}, {}, &r->clauses[i], i};
    size_t k = 0;
    for (auto& [lvl, icit] : roots_) {
      if (k < pats[i].size()) {
        auto& [p, info] = pats[i][k];
        bool takes = icit == Icit::Expl ? info.icit == Icit::Expl
                                        : info.icit == Icit::Impl &&
                                              (!info.named.id || info.named == lams[lvl - c.lvl].first);
        if (takes) {
          row.eqs.push_back({lvl, p});
          ++k;
        }
      }
    }
    if (k < pats[i].size())
      fail(pats[i][k].first->span,
           pats[i][k].second.named.id
               ? fmt::format("'{}' has no implicit argument named '{}' here", str(r->fn),
                             str(pats[i][k].second.named))
               : fmt::format("'{}' takes no implicit argument here", str(r->fn)));
    rows.push_back(std::move(row));
  }
  Tm* body = compile(c2, goal, std::move(rows));
  reportCoverage(r->clauses[0].lhs->span, r->n, r->clauses);
  for (size_t i = lams.size(); i-- > 0;) {
    Tm* l = mkTm(w_.perm, TTag::Lam);
    l->name = lams[i].first;
    l->icit = lams[i].second;
    l->a = body;
    body = l;
  }
  return body;
}

Tm* Matcher::caseOf(Cxt& c, RCase* r, Val* goal, bool refine) {
  auto [s, sty] = el_.inferInsert(c, r->scrut);
  Cxt c2 = c;
  start(c, r->n);
  Lvl x;
  bool let = s->tag != TTag::Var;
  if (let) {
    c2 = el_.define(c, names::underscore, s, el_.evalIn(c, s), sty);
    // (For matching, the value is a fresh variable that the split solves:
    // `case g n of …` on a call that does not compute, as on a variable.)
    lv_.push_back(Level(w_.var(c.lvl), sty));
    x = c.lvl;
  } else {
    x = c.lvl - 1 - s->n;
  }
  refine_ = refine;
  whole_ = r->span;
  rootBase_ = x;
  roots_.push_back({x, Icit::Expl});
  prefix_.clear();
  std::vector<Row> rows;
  for (uint32_t i = 0; i < r->n; ++i)
    rows.push_back(Row{{{x, r->alts[i].lhs}}, {}, {}, &r->alts[i], i});
  Tm* body = rows.empty() ? split(c2, goal, rows, x, nullptr) : compile(c2, goal, std::move(rows));
  reportCoverage(r->span, r->n, r->alts);
  if (!let) return body;
  Tm* t = mkTm(w_.perm, TTag::Let);
  t->name = names::underscore;
  t->a = quote(w_, w_.perm, c.lvl, sty, QuoteOpts{false, false});
  t->b = s;
  t->c = body;
  return t;
}

// A warning, once: a clause's right-hand side reached from several leaves
// of the case tree is elaborated at each (its `case`s warn each time).
void Elab::warn(Diagnostic d) {
  for (const Diagnostic& o : warnings)
    if (o.span.src == d.span.src && o.span.begin == d.span.begin && o.message == d.message) return;
  warnings.push_back(std::move(d));
}

Tm* Elab::checkCase(Cxt& c, RCase* r, Val* a) {
  Matcher m(*this, w_);
  Tm* t = m.caseOf(c, r, a, true);
  for (Diagnostic& d : m.warnings)
    warn(std::move(d));
  return t;
}

std::pair<Tm*, Val*> Elab::inferCase(Cxt& c, RCase* r) {
  Val* a = evalIn(c, freshMeta(c, vUniverse(), r->span, {MetaOrigin::HoleType, {}}));
  return {checkCase(c, r, a), a};
}

Tm* Elab::checkClauses(Cxt& c, RClauses* r, Val* a) {
  Matcher m(*this, w_);
  Tm* t = m.clauses(c, r, a);
  for (Diagnostic& d : m.warnings)
    warn(std::move(d));
  return t;
}

} // namespace thorin

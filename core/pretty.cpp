#include "pretty.hpp"

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include <optional>

#include "axiom.hpp"
#include "guard.hpp"
#include "literal.hpp"

namespace thorin {
// The k-th shadowed binder named `base`: primes, then a subscript (x''',
// x₄): names stay short in a context of thousands of x's.
static std::string shadowed(const std::string& base, size_t k) {
  if (k <= 3) return base + std::string(k, '\'');
  std::string sub;
  for (char d : std::to_string(k))
    sub += std::string("₀₁₂₃₄₅₆₇₈₉").substr(size_t(d - '0') * 3, 3);
  return base + sub;
}

namespace {

enum Prec { PLet = 0, PPi, PSigma, POr, PAnd, PCmp, PAdd, PMul, PApp, PAtom };

// The printer's level of an operator (the parser's precedence, shifted).
static int infixPrec(std::string_view s) { return POr - 1 + operatorPrecedence(s); }

// Builtin operators print infix: `x + 1`, not `%core.nat.add x 1`.
struct InfixOp {
  std::string_view sym;
  int prec;
};
static std::optional<InfixOp> infixOf(const TopEntry& e) {
  if (!e.axiom) return std::nullopt;
  const std::string& op = e.axiom->op;
  if (op.empty()) return std::nullopt;
  return InfixOp{op, infixPrec(op)};
}

struct Printer {
  const World& w;
  std::vector<std::string> names; // in scope, oldest first
  std::string out;
  size_t limit = SIZE_MAX; // bytes: past them, printing stops (Cut)
  struct Cut {};

  bool isGoal(uint32_t m) const {
    return m < w.metas.size() && w.metas[m].origin.kind == MetaOrigin::Goal;
  }
  std::string metaName(uint32_t m) const { return thorin::metaName(w, m); }

  std::string fresh(Name n) {
    std::string s(str(n));
    if (s.empty()) s = "x";
    if (s == "_") return s;
    auto taken = [&](const std::string& c) {
      for (auto& x : names)
        if (x == c) return true;
      return false;
    };
    std::string base = s;
    for (size_t k = 1; taken(s); ++k)
      s = shadowed(base, k);
    return s;
  }

  void open(bool p) {
    if (p) out += '(';
  }
  void close(bool p) {
    if (p) out += ')';
  }

  void var(uint32_t ix) {
    if (ix < names.size())
      out += names[names.size() - 1 - ix];
    else
      out += fmt::format("@{}", ix); // ill-scoped (never for well-formed terms)
  }

  static bool usesVar(const Tm* t, uint32_t ix) { return freeIn(t, ix); }

  void print(const Tm* t, int prec) {
    guard();
    if (out.size() > limit) throw Cut{};
    switch (t->tag) {
    case TTag::Var: var(t->n); break;
    case TTag::Embed: // (never in a printed term: the body of an inferred closure)
      if (t->b)
        print(t->b, prec);
      else
        out += "<value>";
      break;
    case TTag::Known:
      out += "?";
      var(t->n);
      break;
    case TTag::Top: {
      int32_t id = int32_t(t->n);
      // An axiom prints as its user-facing alias (`Nat` for `%core.Nat`),
      // shadowed or not.
      if (int32_t al = w.tops[id].alias; al >= 0) id = al;
      const TopEntry& e = w.tops[id];
      out += str(e.name);
      // A definition shadowed by a later one gets where it is defined, so that
      // two different `T`s in one message can be told apart (`Nat@core.thorin:7:1`
      // once the user's own Nat shadows the builtin).
      if (w.lookupTop(e.name) != id && e.span.src && !e.axiom) {
        auto lc = e.span.src->lineCol(e.span.begin);
        std::string_view file = e.span.src->path;
        if (size_t slash = file.rfind('/'); slash != file.npos) file.remove_prefix(slash + 1);
        out += fmt::format("@{}:{}:{}", file, lc.line, lc.col);
      }
      break;
    }
    case TTag::Meta: out += metaName(t->n); break;
    case TTag::U: out += 'U'; break;
    case TTag::Irrelevant: out += t->n == kCutTerm ? "…" : "_"; break;
    case TTag::InsertedMeta: {
      bool any = false;
      for (uint32_t i = 0; i < t->m; ++i)
        any |= t->mask[i] != 0;
      if (isGoal(t->n)) { // (its context is the goal's own: not repeated)
        out += metaName(t->n);
        break;
      }
      open(any && prec > PApp);
      out += metaName(t->n);
      for (uint32_t i = 0; i < t->m; ++i)
        if (t->mask[i]) {
          out += ' ';
          var(t->m - 1 - i);
        }
      close(any && prec > PApp);
      break;
    }
    case TTag::App: {
      std::vector<const Tm*> args;
      const Tm* h = t;
      while (h->tag == TTag::App) {
        args.push_back(h);
        h = h->a;
      }
      if (h->tag == TTag::Top && args.size() == 2 && args[0]->icit == Icit::Expl &&
          args[1]->icit == Icit::Expl)
        if (auto op = infixOf(w.tops[h->n])) {
          open(prec > op->prec);
          print(args[1]->b, op->prec == PCmp ? PCmp + 1 : op->prec);
          out += fmt::format(" {} ", op->sym);
          print(args[0]->b, op->prec + 1);
          close(prec > op->prec);
          break;
        }
      open(prec > PApp);
      print(h, PApp);
      for (size_t i = args.size(); i-- > 0;) {
        out += ' ';
        if (args[i]->icit == Icit::Impl) {
          out += '{';
          print(args[i]->b, PLet);
          out += '}';
        } else {
          print(args[i]->b, PAtom);
        }
      }
      close(prec > PApp);
      break;
    }
    case TTag::Lam: {
      open(prec > PLet);
      out += "λ";
      size_t pushed = 0;
      while (t->tag == TTag::Lam) {
        std::string x = fresh(t->name);
        out += t->icit == Icit::Impl ? fmt::format(" {{{}}}", x) : " " + x;
        names.push_back(x);
        ++pushed;
        const Tm* filt = t->c;
        t = t->a;
        if (filt) { // the filter closes its λ group
          if (filt->tag == TTag::Lit) {
            out += " @";
          } else {
            out += " @(";
            print(filt, PLet);
            out += ")";
          }
          break;
        }
      }
      out += ". ";
      print(t, PLet);
      names.resize(names.size() - pushed);
      close(prec > PLet);
      break;
    }
    case TTag::Pi: {
      open(prec > PPi);
      size_t pushed = 0;
      auto named = [&](const Tm* p) {
        return p->tag == TTag::Pi &&
               (p->icit == Icit::Impl || (str(p->name) != "_" && usesVar(p->b, 0)));
      };
      // Telescope: consecutive binders with the same icity and the same domain
      // are grouped, `{A B : U}`.
      bool first = true;
      std::string groupDom;
      Icit groupIcit = Icit::Expl;
      while (named(t)) {
        std::string x = fresh(t->name);
        Printer sub{w, names, {}};
        sub.print(t->a, PLet);
        if (!first && t->icit == groupIcit && sub.out == groupDom && !usesVar(t->a, 0)) {
          // extend the current group: remove its closing " : dom)" and re-add
          size_t cut = out.size() - (groupDom.size() + 4);
          out.resize(cut);
          out += " " + x + " : " + groupDom + (t->icit == Icit::Impl ? "}" : ")");
        } else {
          if (!first) out += ' ';
          out += t->icit == Icit::Impl ? '{' : '(';
          out += x + " : " + sub.out;
          out += t->icit == Icit::Impl ? '}' : ')';
          groupDom = sub.out;
          groupIcit = t->icit;
        }
        first = false;
        names.push_back(x);
        ++pushed;
        t = t->b;
      }
      if (pushed) {
        out += " → ";
        print(t, PPi);
      } else {
        print(t->a, PSigma);
        out += " → ";
        names.push_back("_");
        ++pushed;
        print(t->b, PPi);
      }
      names.resize(names.size() - pushed);
      close(prec > PPi);
      break;
    }
    case TTag::Sigma: {
      open(prec > PSigma);
      std::string x = usesVar(t->b, 0) ? fresh(t->name) : "_";
      if (x == "_") {
        print(t->a, PApp);
      } else {
        out += "(" + x + " : ";
        print(t->a, PLet);
        out += ")";
      }
      out += " × ";
      names.push_back(x);
      print(t->b, PSigma);
      names.pop_back();
      close(prec > PSigma);
      break;
    }
    case TTag::Pair: {
      out += '(';
      print(t->a, PLet);
      const Tm* r = t->b;
      while (r->tag == TTag::Pair) {
        out += ", ";
        print(r->a, PLet);
        r = r->b;
      }
      out += ", ";
      print(r, PLet);
      out += ')';
      break;
    }
    case TTag::Proj1:
    case TTag::Proj2:
    case TTag::Field:
      print(t->a, PAtom);
      if (t->tag == TTag::Field)
        out += fmt::format(".{}", str(t->name));
      else
        out += t->tag == TTag::Proj1 ? ".1" : ".2";
      break;
    case TTag::Lit: { // (`f (-5)`: `f -5` would be a subtraction)
      std::string s = showLit(LitKind(t->n), t->bits, t->big);
      bool negative = s[0] == '-';
      open(negative && prec >= PAtom);
      out += s;
      close(negative && prec >= PAtom);
      break;
    }
    case TTag::Case: { // one line: `case xs of { nil → 0; cons x t → … }`
      open(prec > PLet);
      out += "case ";
      print(t->a, PPi);
      out += " of {";
      for (uint32_t i = 0; i < t->n; ++i) {
        const CaseAlt& alt = t->alts[i];
        out += i ? "; " : " ";
        out += alt.con == kDefaultAlt ? std::string("_") : str(w.tops[alt.con].name);
        for (uint32_t j = 0; j < alt.arity; ++j) {
          std::string x = fresh(alt.names ? alt.names[j] : intern("x"));
          out += " " + x;
          names.push_back(x);
        }
        out += " → ";
        print(alt.body, PLet);
        names.resize(names.size() - alt.arity);
      }
      out += " }";
      close(prec > PLet);
      break;
    }
    case TTag::If:
      open(prec > PLet);
      out += "if ";
      print(t->a, PPi); // (`if (if b then …) then …`)
      out += " then ";
      print(t->b, PLet);
      out += " else ";
      print(t->c, PLet);
      close(prec > PLet);
      break;
    case TTag::Arr:
      out += '[';
      for (uint32_t i = 0; i < t->n; ++i) {
        if (i) out += ", ";
        print(t->elems[i], PLet);
      }
      out += ']';
      break;
    case TTag::Let: {
      open(prec > PLet);
      std::string x = fresh(t->name);
      out += "let " + x + " : ";
      print(t->a, PLet);
      out += " = ";
      print(t->b, PLet);
      out += "; ";
      names.push_back(x);
      print(t->c, PLet);
      names.pop_back();
      close(prec > PLet);
      break;
    }
    }
  }
};

// Surface syntax, re-rendered with normal spacing (for `.check e : A`).
struct RawPrinter {
  std::string out;
  void open(bool p) {
    if (p) out += '(';
  }
  void close(bool p) {
    if (p) out += ')';
  }
  void print(const Raw* r, int prec) {
    switch (r->kind) {
    case RKind::Var: out += str(static_cast<const RVar*>(r)->name); break;
    case RKind::U: out += 'U'; break;
    case RKind::Hole: out += '_'; break;
    case RKind::Number:
    case RKind::String:
      out += std::string_view(r->span.src->text).substr(r->span.begin, r->span.end - r->span.begin);
      break;
    case RKind::App: {
      open(prec > PApp);
      auto* a = static_cast<const RApp*>(r);
      print(a->fn, PApp);
      out += ' ';
      if (a->info.named) {
        out += fmt::format("{{{} = ", str(a->info.named));
        print(a->arg, PLet);
        out += '}';
      } else if (a->info.icit == Icit::Impl) {
        out += '{';
        print(a->arg, PLet);
        out += '}';
      } else {
        print(a->arg, PAtom);
      }
      close(prec > PApp);
      break;
    }
    case RKind::Lam: {
      open(prec > PLet);
      out += "λ";
      while (r->kind == RKind::Lam) {
        auto* l = static_cast<const RLam*>(r);
        out += ' ';
        if (l->info.named)
          out += fmt::format("{{{} = {}}}", str(l->info.named), str(l->x));
        else if (l->info.icit == Icit::Impl) {
          out += fmt::format("{{{}", str(l->x));
          if (l->ty) {
            out += " : ";
            print(l->ty, PLet);
          }
          out += '}';
        } else if (l->ty) {
          out += fmt::format("({} : ", str(l->x));
          print(l->ty, PLet);
          out += ')';
        } else {
          out += str(l->x);
        }
        r = l->body;
      }
      out += ". ";
      print(r, PLet);
      close(prec > PLet);
      break;
    }
    case RKind::Pi: {
      open(prec > PPi);
      auto* p = static_cast<const RPi*>(r);
      if (p->icit == Icit::Impl || str(p->x) != "_") {
        out += p->icit == Icit::Impl ? '{' : '(';
        out += fmt::format("{} : ", str(p->x));
        print(p->dom, PLet);
        out += p->icit == Icit::Impl ? "}" : ")";
      } else {
        print(p->dom, PSigma);
      }
      out += " → ";
      print(p->cod, PPi);
      close(prec > PPi);
      break;
    }
    case RKind::Sigma: {
      open(prec > PSigma);
      auto* sg = static_cast<const RSigma*>(r);
      if (str(sg->x) != "_") {
        out += fmt::format("({} : ", str(sg->x));
        print(sg->fst, PLet);
        out += ')';
      } else {
        print(sg->fst, PApp);
      }
      out += " × ";
      print(sg->snd, PSigma);
      close(prec > PSigma);
      break;
    }
    case RKind::Pair: {
      out += '(';
      while (r->kind == RKind::Pair) {
        print(static_cast<const RPair*>(r)->fst, PLet);
        out += ", ";
        r = static_cast<const RPair*>(r)->snd;
      }
      print(r, PLet);
      out += ')';
      break;
    }
    case RKind::Proj: {
      auto* p = static_cast<const RProj*>(r);
      print(p->t, PAtom);
      if (p->proj == ProjKind::Field)
        out += fmt::format(".{}", str(p->field));
      else
        out += p->proj == ProjKind::Fst ? ".1" : ".2";
      break;
    }
    case RKind::If: {
      open(prec > PLet);
      auto* i = static_cast<const RIf*>(r);
      out += "if ";
      print(i->cond, PPi);
      out += " then ";
      print(i->then, PLet);
      out += " else ";
      print(i->els, PLet);
      close(prec > PLet);
      break;
    }
    case RKind::BinOp: {
      auto* b = static_cast<const RBinOp*>(r);
      std::string_view s = str(b->op);
      int p = infixPrec(s);
      open(prec > p);
      print(b->lhs, p == PCmp ? PCmp + 1 : p);
      out += fmt::format(" {} ", s);
      print(b->rhs, p + 1);
      close(prec > p);
      break;
    }
    case RKind::Known: out += "?" + std::string(str(static_cast<const RKnown*>(r)->name)); break;
    case RKind::Do: { // (one line: `do { x ← e; let y = f; g }`)
      auto* d = static_cast<const RDo*>(r);
      open(prec > PLet);
      out += "do {";
      for (uint32_t i = 0; i < d->n; ++i) {
        const RDoStmt& st = d->stmts[i];
        out += i ? "; " : " ";
        if (st.kind == DoKind::Bind) out += fmt::format("{} ← ", str(st.x));
        if (st.kind == DoKind::Let) out += fmt::format("let {} = ", str(st.x));
        print(st.e, PLet);
      }
      out += " }";
      close(prec > PLet);
      break;
    }
    case RKind::Absurd: out += "()"; break;
    case RKind::Dot:
      out += ".";
      print(static_cast<const RDot*>(r)->t, PAtom);
      break;
    case RKind::Case:
    case RKind::Clauses: { // (one line, as a core case prints)
      auto* c = static_cast<const RCase*>(r);
      auto* cl = static_cast<const RClauses*>(r);
      bool isCase = r->kind == RKind::Case;
      open(prec > PLet);
      if (isCase) {
        out += "case ";
        print(c->scrut, PPi);
        out += " of";
      }
      out += " {";
      uint32_t n = isCase ? c->n : cl->n;
      const RClause* cs = isCase ? c->alts : cl->clauses;
      for (uint32_t i = 0; i < n; ++i) {
        out += i ? "; " : " ";
        print(cs[i].lhs, PApp);
        if (!cs[i].rhs) continue; // (an absurd clause)
        out += isCase ? " → " : " = ";
        print(cs[i].rhs, PLet);
      }
      out += " }";
      close(prec > PLet);
      break;
    }
    case RKind::Ann: {
      auto* an = static_cast<const RAnn*>(r);
      out += '(';
      print(an->t, PLet);
      out += " : ";
      print(an->ty, PLet);
      out += ')';
      break;
    }
    case RKind::Array: {
      auto* a = static_cast<const RArray*>(r);
      out += '[';
      for (uint32_t i = 0; i < a->n; ++i) {
        if (i) out += ", ";
        print(a->elems[i], PLet);
      }
      out += ']';
      break;
    }
    case RKind::Let: {
      open(prec > PLet);
      auto* l = static_cast<const RLet*>(r);
      out += fmt::format("let {}", str(l->x));
      if (l->ty) {
        out += " : ";
        print(l->ty, PLet);
      }
      out += " = ";
      print(l->def, PLet);
      out += "; ";
      print(l->body, PLet);
      close(prec > PLet);
      break;
    }
    }
  }
};

} // namespace

std::string show(const Raw* r) {
  RawPrinter p;
  p.print(r, PLet);
  return std::move(p.out);
}

std::string show(const World& w, const Tm* t, std::vector<Name> ctx, size_t limit) {
  // The innermost binder keeps its name, as the user refers to it there; a
  // shadowed outer one gets primes (`A'`), so that a message never shows two
  // different variables as one.
  // (With a set of the names given and, per name, the primes tried so far:
  // a context of n binders all named x took O(n^4) — 7.6 s for n = 800.)
  Printer p{w, {}, {}};
  std::vector<std::string> inner;
  std::unordered_set<std::string> used;
  std::unordered_map<std::string, size_t> primes;
  for (size_t i = ctx.size(); i-- > 0;) {
    std::string base(str(ctx[i]));
    if (base.empty()) base = "x";
    if (base == "_") {
      inner.push_back(base);
      continue;
    }
    size_t& k = primes[base];
    std::string s = shadowed(base, k);
    while (used.count(s))
      s = shadowed(base, ++k);
    ++k;
    used.insert(s);
    inner.push_back(std::move(s));
  }
  p.names.assign(inner.rbegin(), inner.rend());
  p.limit = limit;
  try {
    p.print(t, PLet);
  } catch (Printer::Cut&) {
  }
  if (p.out.size() > limit) { // (cut at a character's start, as source lines are)
    size_t n = limit;
    while (n > 0 && (static_cast<unsigned char>(p.out[n]) & 0xC0) == 0x80)
      --n;
    p.out.resize(n);
    p.out += "…";
  }
  return std::move(p.out);
}

std::string metaName(const World& w, uint32_t m) {
  if (m < w.metas.size() && w.metas[m].origin.kind == MetaOrigin::Goal && w.metas[m].origin.name)
    return "?" + std::string(str(w.metas[m].origin.name));
  // (Numbered from the first meta after the prelude's: a message does not
  // change when the prelude grows.)
  return fmt::format("?{}", m >= w.preludeMetas ? m - w.preludeMetas : m);
}

} // namespace thorin

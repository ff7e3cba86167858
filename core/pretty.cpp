#include "pretty.hpp"

#include <fmt/format.h>

#include "guard.hpp"

namespace thorin {
namespace {

enum Prec { PLet = 0, PPi = 1, PSigma = 2, PApp = 3, PAtom = 4 };

struct Printer {
  const World& w;
  std::vector<std::string> names; // in scope, oldest first
  std::string out;

  std::string fresh(Name n) {
    std::string s(str(n));
    if (s.empty()) s = "x";
    if (s == "_") return s;
    auto taken = [&](const std::string& c) {
      for (auto& x : names)
        if (x == c) return true;
      return false;
    };
    while (taken(s)) s += '\'';
    return s;
  }

  void open(bool p) {
    if (p) out += '(';
  }
  void close(bool p) {
    if (p) out += ')';
  }

  void var(uint32_t ix) {
    if (ix < names.size()) out += names[names.size() - 1 - ix];
    else out += fmt::format("@{}", ix); // ill-scoped (never for well-formed terms)
  }

  void print(const Tm* t, int prec) {
    guard();
    switch (t->tag) {
    case TTag::Var: var(t->n); break;
    case TTag::Top: out += str(w.tops[t->n].name); break;
    case TTag::Meta: out += fmt::format("?{}", t->n); break;
    case TTag::U: out += 'U'; break;
    case TTag::Irrelevant: out += "_"; break;
    case TTag::InsertedMeta: {
      bool any = false;
      for (uint32_t i = 0; i < t->m; ++i) any |= t->mask[i] != 0;
      open(any && prec > PApp);
      out += fmt::format("?{}", t->n);
      for (uint32_t i = 0; i < t->m; ++i)
        if (t->mask[i]) {
          out += ' ';
          var(t->m - 1 - i);
        }
      close(any && prec > PApp);
      break;
    }
    case TTag::App: {
      open(prec > PApp);
      std::vector<const Tm*> args;
      const Tm* h = t;
      while (h->tag == TTag::App) {
        args.push_back(h);
        h = h->a;
      }
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
        t = t->a;
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
      while (t->tag == TTag::Pi && (t->icit == Icit::Impl || str(t->name) != "_")) {
        std::string x = fresh(t->name);
        out += t->icit == Icit::Impl ? '{' : '(';
        out += x + " : ";
        print(t->a, PLet);
        out += t->icit == Icit::Impl ? '}' : ')';
        names.push_back(x);
        ++pushed;
        t = t->b;
        if (t->tag == TTag::Pi && (t->icit == Icit::Impl || str(t->name) != "_")) out += ' ';
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
      std::string x = fresh(t->name);
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
      if (t->tag == TTag::Field) out += fmt::format(".{}", str(t->name));
      else out += t->tag == TTag::Proj1 ? ".1" : ".2";
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

} // namespace

std::string show(const World& w, const Tm* t, std::vector<Name> ctx) {
  Printer p{w, {}, {}};
  for (Name n : ctx) p.names.push_back(p.fresh(n));
  p.print(t, PLet);
  return std::move(p.out);
}

} // namespace thorin

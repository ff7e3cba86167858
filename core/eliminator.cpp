// The dependent eliminator of a data type without indices, `elimT`, as
// Agda's internal view of it: generated as source text (a signature and one
// clause per constructor) from the declaration as the user wrote it, and
// elaborated as any definition by clauses is. For
//
//   data List (A : U) : U where
//     nil  : List A
//     cons : A → List A → List A
//
// it is
//
//   elimList : {A : U} → (P'' : List A → U) → (m''nil : P'' nil)
//            → (m''cons : (x''1 : A) → (x''2 : List A) → P'' x''2 → P'' (cons x''1 x''2))
//            → (t'' : List A) → P'' t''
//   elimList P'' m''nil m''cons nil = m''nil
//   elimList P'' m''nil m''cons (cons v''1 v''2) = m''cons v''1 v''2 (elimList … v''2)
//
// (Names with two primes: no user's name is taken; the clause's pattern
// variables are not the fields' names, which may be constructors'.)
//
// A recursive field gets an induction hypothesis; one that is a function
// ending in the type (`(Nat → T) → T`) a function of hypotheses.
//
// An indexed family's motive takes the indices too, and each method's
// result and hypotheses are at the indices the constructor's type gives:
//
//   elimVec : {A : U} → (P'' : (i''1 : Nat) → Vec A i''1 → U) → (m''vnil : P'' 0 vnil)
//           → (m''vcons : {n : Nat} → (x''2 : A) → (x''3 : Vec A n) → P'' n x''3
//                         → P'' (n + 1) (vcons {n} x''2 x''3))
//           → {i''1 : Nat} → (t'' : Vec A i''1) → P'' i''1 t''
#include <fmt/format.h>

#include "parser.hpp"
#include "pretty.hpp"
#include "toplevel.hpp"

namespace thorin {

namespace {

// A field of a constructor, from its raw type.
struct Field {
  std::string name;
  Icit icit;
  std::string ty;
  // A recursive field: the domains of the Πs before the type (empty for a
  // plain `T`), each with its binder's name.
  bool recursive = false;
  std::vector<std::pair<std::string, std::string>> args;
  std::string indices; // a recursive field: its type's indices, each after a space
  std::vector<Raw*> indexTerms; // … as terms
};

// The names a simple term mentions (variables, applications, operators,
// literals); false for anything else.
bool namesIn(Raw* r, std::vector<Name>& out) {
  switch (r->kind) {
  case RKind::Var: out.push_back(as<RVar>(r)->name); return true;
  case RKind::Number:
  case RKind::String:
  case RKind::U: return true;
  case RKind::App: return namesIn(as<RApp>(r)->fn, out) && namesIn(as<RApp>(r)->arg, out);
  case RKind::BinOp: return namesIn(as<RBinOp>(r)->lhs, out) && namesIn(as<RBinOp>(r)->rhs, out);
  default: return false;
  }
}

// The arguments of an application after the first `params` (the indices
// of a type `T A n`).
std::vector<Raw*> indexTermsOf(Raw* r, uint32_t params) {
  std::vector<Raw*> args;
  for (; r->kind == RKind::App; r = as<RApp>(r)->fn)
    args.insert(args.begin(), as<RApp>(r)->arg);
  return std::vector<Raw*>(args.begin() + std::min<size_t>(params, args.size()), args.end());
}
// … each shown after a space.
std::string indicesOf(Raw* r, uint32_t params) {
  std::string out;
  for (Raw* a : indexTermsOf(r, params))
    out += " (" + show(a) + ")";
  return out;
}

// The raw type after its Πs.
Raw* resultOf(Raw* r) {
  while (r->kind == RKind::Pi)
    r = as<RPi>(r)->cod;
  return r;
}

// Does the raw type end in the data type `self` (after its Πs)? Then its
// domains, named, go to `args`.
bool endsIn(Raw* r, Name self, std::vector<std::pair<std::string, std::string>>& args) {
  size_t k = 0;
  for (; r->kind == RKind::Pi; r = as<RPi>(r)->cod, ++k) {
    auto* p = as<RPi>(r);
    std::string x = p->x == names::underscore ? fmt::format("y''{}", k + 1) : std::string(str(p->x));
    args.push_back({x, show(p->dom)});
  }
  Raw* h = r;
  while (h->kind == RKind::App)
    h = as<RApp>(h)->fn;
  return h->kind == RKind::Var && as<RVar>(h)->name == self;
}

std::vector<Field> fieldsOf(Raw* ty, Name self, uint32_t params) {
  std::vector<Field> fs;
  for (; ty->kind == RKind::Pi; ty = as<RPi>(ty)->cod) {
    auto* p = as<RPi>(ty);
    Field f;
    f.name = p->x == names::underscore ? fmt::format("x''{}", fs.size() + 1) : std::string(str(p->x));
    f.icit = p->icit;
    f.ty = show(p->dom);
    std::vector<std::pair<std::string, std::string>> args;
    if (endsIn(p->dom, self, args)) {
      f.recursive = true;
      f.args = std::move(args);
      f.indices = indicesOf(resultOf(p->dom), params);
      f.indexTerms = indexTermsOf(resultOf(p->dom), params);
    }
    fs.push_back(std::move(f));
  }
  return fs;
}

std::string binder(const std::string& x, Icit i, const std::string& ty) {
  return i == Icit::Impl ? fmt::format("{{{} : {}}}", x, ty) : fmt::format("({} : {})", x, ty);
}

std::string arg(const std::string& x, Icit i) {
  return i == Icit::Impl ? "{" + x + "}" : x;
}

} // namespace

// A recursive call's indices given (` {i = t}…`), when they are written with
// fields the clause binds under their own names and globals: the checker
// then solves no metavariable for them (an eliminator of a family with
// many constructors made dozens, each over the whole clause's context).
// "" to leave them to inference.
static std::string givenIndices(const Field& f, const std::vector<Field>& fs,
                                const std::vector<std::string>& pv,
                                const std::vector<Name>& paramNames,
                                const std::vector<std::string>& indexNames) {
  if (f.indexTerms.size() != indexNames.size() || indexNames.empty()) return "";
  std::string out;
  for (size_t k = 0; k < indexNames.size(); ++k) {
    std::vector<Name> used;
    if (!namesIn(f.indexTerms[k], used)) return "";
    for (Name x : used) {
      if (std::find(paramNames.begin(), paramNames.end(), x) != paramNames.end()) return "";
      for (size_t j = 0; j < fs.size(); ++j)
        if (fs[j].name == str(x) && pv[j] != fs[j].name) return "";
    }
    out += fmt::format(" {{{} = {}}}", indexNames[k], show(f.indexTerms[k]));
  }
  return out;
}

std::string eliminatorName(Name data) { return "elim" + std::string(str(data)); }

std::string TopLevel::eliminatorText(const Entry& e) {
  std::string T(str(e.name)), elim = eliminatorName(e.name);
  // The parameters (implicit in the eliminator) and `T A B`.
  std::string params, applied = T;
  std::vector<Name> paramNames;
  Raw* r = e.ty;
  for (uint32_t i = 0; i < e.params; ++i, r = as<RPi>(r)->cod) {
    auto* p = as<RPi>(r);
    params += binder(std::string(str(p->x)), Icit::Impl, show(p->dom)) + " → ";
    applied += " " + std::string(str(p->x));
    paramNames.push_back(p->x);
  }
  // The indices: the motive's binders, and the target's (implicit).
  std::string motiveIndices, targetIndices, indexArgs;
  std::vector<std::string> indexNames;
  for (uint32_t k = 1; r->kind == RKind::Pi; r = as<RPi>(r)->cod, ++k) {
    auto* p = as<RPi>(r);
    std::string i = p->x == names::underscore ? fmt::format("i''{}", k) : std::string(str(p->x));
    motiveIndices += binder(i, Icit::Expl, show(p->dom)) + " → ";
    targetIndices += binder(i, Icit::Impl, show(p->dom)) + " → ";
    indexArgs += " " + i;
    indexNames.push_back(i);
  }
  std::string methods, methodArgs;
  std::vector<std::string> clauses;
  for (const ConDecl& c : e.cons) {
    std::string con(str(c.name)), m = "m''" + con;
    std::vector<Field> fs = fieldsOf(c.ty, e.name, e.params);
    std::string mty, pat = con, call = m;
    // The clause's pattern variables: the fields' names where they are
    // plain (so that a recursive call can give its indices, written with
    // them), else names of their own (a field's name may be a constructor's).
    std::vector<std::string> pv;
    for (size_t i = 0; i < fs.size(); ++i) {
      const Field& f = fs[i];
      Name x = intern(f.name);
      int32_t top = w_.lookupTop(x);
      bool plain = f.name.find("''") == std::string::npos &&
                   (top < 0 || w_.tops[top].conOf < 0) &&
                   std::find(paramNames.begin(), paramNames.end(), x) == paramNames.end();
      pv.push_back(plain ? f.name : fmt::format("v''{}", i + 1));
      mty += binder(f.name, f.icit, f.ty) + " → ";
      pat += " " + arg(pv.back(), f.icit);
      call += " " + arg(pv.back(), f.icit);
    }
    std::string built = con; // (con applied to the fields, in the method's type)
    for (const Field& f : fs) // (implicit fields by name: the parameters come first)
      if (f.icit == Icit::Expl)
        built += " " + f.name;
      else if (f.name.find("''") == std::string::npos)
        built += " {" + f.name + " = " + f.name + "}";
    for (size_t i = 0; i < fs.size(); ++i) {
      const Field& f = fs[i];
      if (!f.recursive) continue;
      std::string tel, xs;
      for (auto& [y, dom] : f.args) {
        tel += fmt::format("({} : {}) → ", y, dom);
        xs += " " + y;
      }
      std::string target = xs.empty() ? f.name : "(" + f.name + xs + ")";
      const std::string& v = pv[i];
      mty += fmt::format("({}P''{} {}) → ", tel, f.indices, target);
      std::string rec = fmt::format("{} P'' MS{} {}", elim, xs.empty() ? givenIndices(f, fs, pv, paramNames, indexNames) : "",
                                    xs.empty() ? v : "(" + v + xs + ")");
      call += xs.empty() ? " (" + rec + ")" : fmt::format(" (λ{}. {})", xs, rec);
    }
    mty += fmt::format("P''{} {}", indicesOf(resultOf(c.ty), e.params),
                       fs.empty() ? con : "(" + built + ")");
    methods += fmt::format("({} : {}) → ", m, mty);
    methodArgs += " " + m;
    clauses.push_back(
        fmt::format("{} P'' MS {} = {}\n", elim, fs.empty() ? pat : "(" + pat + ")", call));
  }
  std::string text = fmt::format("{} : {}(P'' : {}{} → U) → {}{}(t'' : {}) → P''{} t''\n",
                                 elim, params, motiveIndices, applied + indexArgs, methods,
                                 targetIndices, applied + indexArgs, indexArgs);
  if (e.cons.empty()) clauses.push_back(fmt::format("{} P'' ()\n", elim)); // (absurd)
  for (std::string& c : clauses) {
    // (MS: the methods, in every clause and recursive call)
    for (size_t at; (at = c.find(" MS ")) != std::string::npos;)
      c.replace(at, 4, methodArgs + " ");
    text += c;
  }
  return text;
}

void TopLevel::defineEliminator(const Entry& e, TopId data, bool prelude) {
  const Source* src =
      w_.addSource(fmt::format("<the eliminator of {}>", str(e.name)), eliminatorText(e));
  Arena syntax(16 * 1024);
  Parser parser(*src, syntax);
  Entry sig, clauses;
  parser.next(sig);
  parser.next(clauses);
  clauses.kind = EntryKind::Def;
  clauses.ty = sig.ty;
  define(clauses, prelude);
  auto* info = const_cast<DataInfo*>(w_.tops[data].data);
  info->elim = w_.lookupTop(clauses.name);
}

} // namespace thorin

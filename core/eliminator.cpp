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
#include <algorithm>

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
  int target = -1; // a recursive field: which data type of the block
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

// Does the raw type end in one of the data types `block` (after its Πs)?
// Its position in the block (-1: none); its domains, named, go to `args`.
int endsIn(Raw* r, const std::vector<Name>& block,
           std::vector<std::pair<std::string, std::string>>& args) {
  size_t k = 0;
  for (; r->kind == RKind::Pi; r = as<RPi>(r)->cod, ++k) {
    auto* p = as<RPi>(r);
    std::string x = p->x == names::underscore ? fmt::format("y''{}", k + 1) : std::string(str(p->x));
    args.push_back({x, show(p->dom)});
  }
  Raw* h = r;
  while (h->kind == RKind::App)
    h = as<RApp>(h)->fn;
  if (h->kind != RKind::Var) return -1;
  auto it = std::find(block.begin(), block.end(), as<RVar>(h)->name);
  return it == block.end() ? -1 : int(it - block.begin());
}

std::vector<Field> fieldsOf(Raw* ty, const std::vector<Name>& block, uint32_t params) {
  std::vector<Field> fs;
  for (; ty->kind == RKind::Pi; ty = as<RPi>(ty)->cod) {
    auto* p = as<RPi>(ty);
    Field f;
    f.name = p->x == names::underscore ? fmt::format("x''{}", fs.size() + 1) : std::string(str(p->x));
    f.icit = p->icit;
    f.ty = show(p->dom);
    std::vector<std::pair<std::string, std::string>> args;
    if ((f.target = endsIn(p->dom, block, args)) >= 0) {
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

namespace {
// One data type of a block, as its eliminator sees it.
struct DataView {
  const Entry* e = nullptr;
  std::string elim, motive;     // `elimVec`, `P''` (in a block: `P''Vec`)
  std::string motiveTy;         // `(i''1 : Nat) → Vec A i''1 → U`
  std::string targetIndices;    // `{i''1 : Nat} → `
  std::string indexArgs;        // ` i''1`
  std::string applied;          // `Vec A`
  std::vector<std::string> indexNames;
};
} // namespace

std::string TopLevel::eliminatorText(const std::vector<const Entry*>& block) {
  // The parameters (implicit in each eliminator): the block's types must
  // share them, as written.
  const Entry& first = *block[0];
  std::string params, paramsShown;
  std::vector<Name> paramNames;
  Raw* r = first.ty;
  for (uint32_t i = 0; i < first.params; ++i, r = as<RPi>(r)->cod) {
    auto* p = as<RPi>(r);
    params += binder(std::string(str(p->x)), Icit::Impl, show(p->dom)) + " → ";
    paramsShown += " " + std::string(str(p->x));
    paramNames.push_back(p->x);
  }
  std::vector<Name> names;
  std::vector<DataView> views;
  for (const Entry* e : block) {
    DataView v;
    v.e = e;
    v.elim = eliminatorName(e->name);
    v.motive = block.size() == 1 ? "P''" : "P''" + std::string(str(e->name));
    v.applied = std::string(str(e->name)) + paramsShown;
    Raw* t = e->ty;
    std::string mine;
    for (uint32_t i = 0; i < e->params; ++i, t = as<RPi>(t)->cod) {
      auto* p = as<RPi>(t);
      mine += binder(std::string(str(p->x)), Icit::Impl, show(p->dom)) + " → ";
    }
    if (mine != params) return ""; // (different parameters: no eliminator)
    std::string motiveIndices;
    for (uint32_t k = 1; t->kind == RKind::Pi; t = as<RPi>(t)->cod, ++k) {
      auto* p = as<RPi>(t);
      std::string i = p->x == names::underscore ? fmt::format("i''{}", k) : std::string(str(p->x));
      motiveIndices += binder(i, Icit::Expl, show(p->dom)) + " → ";
      v.targetIndices += binder(i, Icit::Impl, show(p->dom)) + " → ";
      v.indexArgs += " " + i;
      v.indexNames.push_back(i);
    }
    v.motiveTy = motiveIndices + v.applied + v.indexArgs + " → U";
    names.push_back(e->name);
    views.push_back(std::move(v));
  }
  std::string motives, methods, allArgs;
  for (const DataView& v : views) {
    motives += fmt::format("({} : {}) → ", v.motive, v.motiveTy);
    allArgs += " " + v.motive;
  }
  std::vector<std::vector<std::string>> clauses(views.size());
  for (size_t di = 0; di < views.size(); ++di) {
    const Entry& e = *views[di].e;
    for (const ConDecl& c : e.cons) {
      std::string con(str(c.name)), m = "m''" + con;
      std::vector<Field> fs = fieldsOf(c.ty, names, e.params);
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
        const DataView& to = views[size_t(f.target)];
        std::string tel, xs;
        for (auto& [y, dom] : f.args) {
          tel += fmt::format("({} : {}) → ", y, dom);
          xs += " " + y;
        }
        std::string target = xs.empty() ? f.name : "(" + f.name + xs + ")";
        const std::string& v = pv[i];
        mty += fmt::format("({}{}{} {}) → ", tel, to.motive, f.indices, target);
        std::string given = xs.empty() ? givenIndices(f, fs, pv, paramNames, to.indexNames) : "";
        std::string rec =
            fmt::format("{}\x01{} {}", to.elim, given, xs.empty() ? v : "(" + v + xs + ")");
        call += xs.empty() ? " (" + rec + ")" : fmt::format(" (λ{}. {})", xs, rec);
      }
      mty += fmt::format("{}{} {}", views[di].motive, indicesOf(resultOf(c.ty), e.params),
                         fs.empty() ? con : "(" + built + ")");
      methods += fmt::format("({} : {}) → ", m, mty);
      allArgs += " " + m;
      clauses[di].push_back(fmt::format("{}\x01 {} = {}\n", views[di].elim,
                                        fs.empty() ? pat : "(" + pat + ")", call));
    }
    if (e.cons.empty()) clauses[di].push_back(fmt::format("{}\x01 ()\n", views[di].elim)); // (absurd)
  }
  std::string indent = block.size() == 1 ? "" : "  ";
  std::string text = block.size() == 1 ? "" : "mutual\n";
  for (const DataView& v : views)
    text += fmt::format("{}{} : {}{}{}{}(t'' : {}{}) → {}{} t''\n", indent, v.elim, params, motives,
                        methods, v.targetIndices, v.applied, v.indexArgs, v.motive, v.indexArgs);
  for (auto& cs : clauses)
    for (std::string& c : cs) {
      // (\x01: the motives and methods, in every clause and recursive call;
      // a character no source text has)
      for (size_t at; (at = c.find('\x01')) != std::string::npos;)
        c.replace(at, 1, allArgs);
      text += indent + c;
    }
  return text;
}

void TopLevel::defineEliminators(const std::vector<const Entry*>& block,
                                 const std::vector<TopId>& datas, bool prelude) {
  std::string text = eliminatorText(block);
  if (text.empty()) return;
  std::string what(str(block[0]->name));
  for (size_t i = 1; i < block.size(); ++i)
    what += fmt::format(", {}", str(block[i]->name));
  const Source* src = w_.addSource(fmt::format("<the eliminator of {}>", what), std::move(text));
  Arena syntax(16 * 1024);
  Parser parser(*src, syntax);
  if (block.size() == 1) {
    Entry sig, clauses;
    parser.next(sig);
    parser.next(clauses);
    clauses.kind = EntryKind::Def;
    clauses.ty = sig.ty;
    define(clauses, prelude);
  } else {
    Entry mutual;
    parser.next(mutual);
    defineMutual(mutual, prelude);
  }
  for (size_t i = 0; i < block.size(); ++i) {
    auto* info = const_cast<DataInfo*>(w_.tops[datas[i]].data);
    info->elim = w_.lookupTop(intern(eliminatorName(block[i]->name)));
  }
}

// (A generated eliminator that does not check is thorin's bug, not the
// user's: the data types stay, without it, and the error is a warning.)
void TopLevel::tryEliminators(const std::vector<const Entry*>& block,
                              const std::vector<TopId>& datas, bool prelude) {
  World::Snapshot s = w_.snapshot();
  try {
    defineEliminators(block, datas, prelude);
  } catch (Error& err) {
    w_.rollback(s);
    for (TopId d : datas)
      const_cast<DataInfo*>(w_.tops[d].data)->elim = -1;
    Diagnostic warn{block[0]->nameSpan,
                    fmt::format("no eliminator for '{}': the generated one does not check ({})",
                                str(block[0]->name), err.diags.front().message),
                    {}};
    warn.warning = true;
    err_ << render(warn);
  }
}

} // namespace thorin

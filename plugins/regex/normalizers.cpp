// The regex plugin's elaboration side: a pattern given as a string literal
// is parsed while the program is checked — a malformed one is an error
// located inside the literal (core/elab.cpp, checkLiteral) — and the number
// of groups of a known pattern is computed there (the type of `captures`).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "combinators.hpp"
#include "core/axiom.hpp"
#include "core/eval.hpp"
#include "core/inspect.hpp"
#include "core/literal.hpp"
#include "core/pretty.hpp"
#include "core/unicode.hpp"
#include "core/world.hpp"
#include "matcher.hpp"
#include "regex_axioms.hpp"
#include "simplify.hpp"

namespace thorin::plug::regex {
namespace {

std::optional<LiteralError> checkPattern(std::string_view pattern) {
  try {
    parse(pattern);
  } catch (SyntaxError& e) {
    return LiteralError{"invalid regular expression: " + e.message, e.offset, e.length};
  }
  return std::nullopt;
}

// groups r of a known pattern: the number of capturing groups.
Val* groupsOf(World& w, Val* const* a) {
  uint32_t n = 0;
  if (!knownTree(w, a[0], &n)) return nullptr;
  return vLit(w, LitKind::Nat, n);
}

// `re "…"` or a combinator on known patterns: the normal form
// (combinators.cpp), built from the application as given.
template <ax A, size_t N> Val* toNormal(World& w, Val* const* a) {
  int32_t e = w.axiomEntry(id(A));
  if (e < 0) return nullptr;
  Val* app = w.topHead(TopId(e));
  for (size_t i = 0; i < N; ++i)
    app = vAppNormal(w, app, a[i], Icit::Expl);
  return normalForm(w, app);
}

// `:regex EXPR`: the pattern, its normal form, its groups, byte classes and
// the size of its search DFA (minimal, when it is small enough to build).
std::optional<std::string> inspect(World& w, Val* v, std::string& error) {
  Pattern p;
  p.root = knownTree(w, v, &p.groups);
  if (!p.root) {
    error = ":regex needs a pattern known while checking (re \"…\", or combinators of known "
            "patterns)";
    return std::nullopt;
  }
  simplify(p);
  std::string out = fmt::format("term         {}\ntree         {}\ngroups       {}\n",
                                show(w, quote(w, w.scratch, 0, v)), show(*p.root), p.groups);
  Matcher m(p);
  LazyDfa* d = m.forward();
  if (!d) return out + "matcher      Pike VM (a loop whose body can match the empty string)\n";
  std::vector<std::string> classes(d->numClasses());
  for (uint32_t c = 0; c < d->numClasses(); ++c) {
    ByteSet set;
    for (unsigned b = 0; b < 256; ++b)
      set.set(b, d->classOf(uint8_t(b)) == c);
    classes[c] = showSet(set);
  }
  out += fmt::format("byte classes {}: {}\n", classes.size(), fmt::join(classes, " "));
  for (bool atStart : {true, false})
    for (bool word : {false, true})
      d->start(m.unanchoredStart(), {atStart, word});
  constexpr size_t kLimit = 10000;
  if (!d->explore(kLimit))
    return out + fmt::format("search DFA   more than {} states: built lazily as the input needs "
                             "them, in a bounded cache\n",
                             kLimit);
  return out + fmt::format("search DFA   {} states, {} when minimal (the dead state included)\n",
                           d->states(), d->minimalStates());
}

} // namespace

void normalizers() {
  AxiomTable& t = AxiomTable::get();
  t[id(ax::re)].checkLiteral = checkPattern;
  t[id(ax::groups)].norm = groupsOf;
  t[id(ax::re)].norm = toNormal<ax::re, 1>;
  t[id(ax::lit)].norm = toNormal<ax::lit, 1>;
  t[id(ax::range)].norm = toNormal<ax::range, 2>;
  t[id(ax::seq)].norm = toNormal<ax::seq, 2>;
  t[id(ax::alt)].norm = toNormal<ax::alt, 2>;
  t[id(ax::rep)].norm = toNormal<ax::rep, 3>;
  t[id(ax::atLeast)].norm = toNormal<ax::atLeast, 2>;
  t[id(ax::lazy)].norm = toNormal<ax::lazy, 1>;
  t[id(ax::group)].norm = toNormal<ax::group, 1>;
  t[id(ax::anchor)].norm = toNormal<ax::anchor, 1>;
  t[id(ax::complement)].norm = toNormal<ax::complement, 1>;
  // A pattern built from known parts is a known value to the specializer
  // (a filter's `?r` holds; code specialized to it reads `re "…"` and gets
  // the pattern's own matcher).
  for (ax a : {ax::re, ax::lit, ax::range, ax::seq, ax::alt, ax::rep, ax::atLeast, ax::lazy,
               ax::group, ax::anchor, ax::complement})
    t[id(a)].staticValue = true;
  registerInspector({"regex", "a pattern's normal form, byte classes and DFA size", inspect});
}

} // namespace thorin::plug::regex

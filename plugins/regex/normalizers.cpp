// The regex plugin's elaboration side: a pattern given as a string literal
// is parsed while the program is checked — a malformed one is an error
// located inside the literal (core/elab.cpp, checkLiteral) — and the number
// of groups of a known pattern is computed there (the type of `captures`).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/axiom.hpp"
#include "core/eval.hpp"
#include "core/inspect.hpp"
#include "core/literal.hpp"
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

// The pattern text of `re "…"` (its argument normalized to a literal), if r is one.
const void* knownPattern(World& w, Val* r) {
  if (r->tag != VTag::Top || !r->sp || r->sp->prev || r->sp->kind != Elim::App) return nullptr;
  const Axiom* head = w.tops[r->n].axiom;
  if (!head || head->id != id(ax::re)) return nullptr;
  Val* s = forceAll(w, r->sp->arg);
  return s->tag == VTag::Lit && LitKind(s->n) == LitKind::Str ? s->big : nullptr;
}

// groups (re "…"): the number of capturing groups.
Val* groupsOf(World& w, Val* const* a) {
  const void* text = knownPattern(w, a[0]);
  if (!text) return nullptr;
  try {
    return vLit(w, LitKind::Nat, parse(litStr(text)).groups);
  } catch (SyntaxError&) {
    return nullptr; // (reported where the literal is given to re)
  }
}

// `:regex EXPR`: the pattern, its normal form, its groups, byte classes and
// the size of its search DFA (minimal, when it is small enough to build).
std::optional<std::string> inspect(World& w, Val* v, std::string& error) {
  const void* text = knownPattern(w, v);
  if (!text) {
    error =
        ":regex needs a pattern known while checking: an expression that normalizes to re \"…\"";
    return std::nullopt;
  }
  Pattern p;
  try {
    p = parse(litStr(text));
  } catch (SyntaxError& e) {
    error = "invalid regular expression: " + e.message;
    return std::nullopt;
  }
  simplify(p);
  std::string out = fmt::format("pattern      {}\nnormal form  {}\ngroups       {}\n",
                                unicode::visible(litStr(text)), show(*p.root), p.groups);
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
  registerInspector({"regex", "a pattern's normal form, byte classes and DFA size", inspect});
}

} // namespace thorin::plug::regex

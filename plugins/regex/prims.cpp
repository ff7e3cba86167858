// Run-time implementations of the regex plugin's axioms. A `Regex` is its
// pattern's text; each distinct pattern is parsed and compiled once per
// process (the cache is bounded) and run by its Matcher (matcher.hpp: lazy
// DFAs, and the Pike VM for the groups).
#include <memory>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "matcher.hpp"
#include "regex_axioms.hpp"
#include "runtime/primitive.hpp"

namespace thorin::plug::regex {
namespace {

using namespace rt;

// The compiled program of a pattern; a malformed one is a run-time error at
// the application (`span`).
Matcher& matcherOf(V pattern, uint32_t span) {
  static std::unordered_map<std::string, std::unique_ptr<Matcher>> cache;
  std::string key(toStr(pattern));
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  Pattern p;
  try {
    p = parse(key);
  } catch (SyntaxError& e) {
    fail(fmt::format("invalid regular expression: {} (at byte {} of the pattern)", e.message,
                     e.offset)
             .c_str(),
         span);
  }
  if (cache.size() >= 256) cache.clear(); // (no reference into it outlives a call)
  return *cache.emplace(std::move(key), std::make_unique<Matcher>(p)).first->second;
}

V cons(V x, V xs) { return mkCon2(1, x, xs); } // (the prelude's `cons x xs`)

V re(const V* a, uint32_t span) {
  matcherOf(a[0], span);
  return a[0];
}
V matches(const V* a, uint32_t span) {
  return ofBool(matcherOf(a[0], span).fullMatch(toStr(a[1])));
}
V searchFrom(const V* a, uint32_t span) { // r s i
  Matcher& m = matcherOf(a[0], span);
  std::string_view s = toStr(a[1]);
  if (!isImm(a[2]) || size_t(immVal(a[2])) > s.size()) return mkPair(ofI64(-1), ofI64(-1));
  auto found = m.search(s, size_t(immVal(a[2])));
  return found ? mkPair(ofI64(int64_t(found->first)), ofI64(int64_t(found->second)))
               : mkPair(ofI64(-1), ofI64(-1));
}
V count(const V* a, uint32_t span) {
  return imm(int64_t(matcherOf(a[0], span).count(toStr(a[1]))));
}
V findAllSpans(const V* a, uint32_t span) {
  auto spans = matcherOf(a[0], span).findAll(toStr(a[1]));
  V list = imm(0); // nil
  for (size_t i = spans.size(); i-- > 0;)
    list = cons(mkPair(imm(int64_t(spans[i].first)), imm(int64_t(spans[i].second))), list);
  return list;
}

} // namespace

void prims() {
  for (auto [x, f] : {std::pair<ax, PrimFn>{ax::re, re},
                      {ax::matches, matches},
                      {ax::searchFrom, searchFrom},
                      {ax::count, count},
                      {ax::findAll, findAllSpans}}) {
    registerPrim(id(x), f);
    primKeeps(id(x), x == ax::re ? 1u : 0u); // (re returns its pattern; the others only look)
  }
}

} // namespace thorin::plug::regex

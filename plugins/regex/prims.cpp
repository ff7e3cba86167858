// Run-time implementations of the regex plugin's axioms. A `Regex` is its
// pattern's text; each distinct pattern is parsed and compiled once per
// process (the cache is bounded) and run by the Pike VM (pike.hpp).
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "pike.hpp"
#include "regex_axioms.hpp"
#include "runtime/primitive.hpp"

namespace thorin::plug::regex {
namespace {

using namespace rt;

// The compiled program of a pattern; a malformed one is a run-time error at
// the application (`span`).
const Program& programOf(V pattern, uint32_t span) {
  static std::unordered_map<std::string, Program> cache;
  std::string key(toStr(pattern));
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Pattern p;
  try {
    p = parse(key);
  } catch (SyntaxError& e) {
    fail(fmt::format("invalid regular expression: {} (at byte {} of the pattern)", e.message,
                     e.offset)
             .c_str(),
         span);
  }
  if (cache.size() >= 4096) cache.clear(); // (no reference into it outlives a call)
  return cache.emplace(std::move(key), compile(p)).first->second;
}

V cons(V x, V xs) { return mkCon2(1, x, xs); } // (the prelude's `cons x xs`)

V re(const V* a, uint32_t span) {
  programOf(a[0], span);
  return a[0];
}
V matches(const V* a, uint32_t span) {
  return ofBool(fullMatch(programOf(a[0], span), toStr(a[1])));
}
V searchFrom(const V* a, uint32_t span) { // r s i
  const Program& p = programOf(a[0], span);
  std::string_view s = toStr(a[1]);
  if (!isImm(a[2]) || size_t(immVal(a[2])) > s.size()) return mkPair(ofI64(-1), ofI64(-1));
  auto m = search(p, s, size_t(immVal(a[2])), false);
  return m ? mkPair(ofI64((*m)[0]), ofI64((*m)[1])) : mkPair(ofI64(-1), ofI64(-1));
}
V count(const V* a, uint32_t span) {
  return imm(int64_t(findAll(programOf(a[0], span), toStr(a[1])).size()));
}
V findAllSpans(const V* a, uint32_t span) {
  auto spans = findAll(programOf(a[0], span), toStr(a[1]));
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

// Run-time implementations of the regex plugin's axioms. A `Regex` is its
// pattern's text; each distinct pattern is parsed and compiled once per
// process (the cache is bounded) and run by its Matcher (matcher.hpp: lazy
// DFAs, and the Pike VM for the groups).
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "core/unicode.hpp"
#include "known.hpp"
#include "matcher.hpp"
#include "regex_axioms.hpp"
#include "replace.hpp"
#include "runtime/engine.hpp"
#include "runtime/gc.hpp"
#include "runtime/primitive.hpp"
#include "simplify.hpp"

namespace thorin::plug::regex {
namespace {

using namespace rt;

struct Compiled {
  std::unordered_map<std::string, std::unique_ptr<Matcher>> byText;
  // The last patterns looked up, by their string object: a hot loop calls
  // with the same one. The objects are held here where the collector sees
  // them, so an address is never another string's; a string's bytes never
  // change below its length (appending in place changes the length).
  static constexpr size_t kRecent = 8;
  gc::RootedVector<V> objects = gc::RootedVector<V>(kRecent, 0);
  std::array<std::pair<size_t, Matcher*>, kRecent> recent{}; // (length, matcher)
};

// The matcher of a pattern, parsed and compiled once; a malformed one is a
// run-time error at the application (`span`).
Matcher& matcherOf(V pattern, uint32_t span) {
  static Compiled cache;
  std::string_view text = toStr(pattern);
  size_t at = (pattern >> 4) % Compiled::kRecent;
  if (cache.objects[at] == pattern && cache.recent[at].first == text.size())
    return *cache.recent[at].second;
  std::string key(text);
  auto it = cache.byText.find(key);
  if (it == cache.byText.end()) {
    Pattern p;
    try {
      p = parse(key);
    } catch (SyntaxError& e) {
      fail(fmt::format("invalid regular expression: {} (at byte {} of the pattern)", e.message,
                       e.offset)
               .c_str(),
           span);
    }
    simplify(p);
    if (cache.byText.size() >= 256) { // (no reference into it outlives a call)
      cache.byText.clear();
      cache.recent.fill({});
      std::fill(cache.objects.begin(), cache.objects.end(), 0);
    }
    auto t0 = std::chrono::steady_clock::now();
    auto m = std::make_unique<Matcher>(p);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (Runtime* rt = Runtime::current(); rt && rt->opts.stats)
      std::fprintf(stderr, "jit: regex %s compiled in %.3f ms (%s)\n",
                   unicode::visible(key).c_str(), ms, m->describe().c_str());
    it = cache.byText.emplace(std::move(key), std::move(m)).first;
  }
  cache.objects[at] = pattern;
  cache.recent[at] = {text.size(), it->second.get()};
  return *it->second;
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

V matchingLines(const V* a, uint32_t span) {
  std::string_view s = toStr(a[1]);
  auto found = matcherOf(a[0], span).matchingLines(s);
  V list = imm(0); // nil
  for (size_t i = found.size(); i-- > 0;)
    list = cons(ofStr(s.substr(found[i].first, found[i].second - found[i].first)), list);
  return list;
}

// The combinators at run time: each builds the pattern text of its tree
// (patternText), from the trees of its argument patterns — so a pattern
// built from them is matched as any other, compiled once per text.
std::unique_ptr<Node> treeOfText(V pattern, uint32_t span) {
  try {
    Pattern p = parse(toStr(pattern));
    simplify(p); // (as elaboration would: `reNot (reAlt (reLit "a") (reLit "b"))` is a set)
    return std::move(p.root);
  } catch (SyntaxError& e) {
    fail(fmt::format("invalid regular expression: {} (at byte {} of the pattern)", e.message,
                     e.offset)
             .c_str(),
         span);
  }
}
uint64_t natArg(V v, uint64_t most, const char* what, uint32_t span) {
  if (!isImm(v) || uint64_t(immVal(v)) > most)
    fail(fmt::format("{}: {} is above {}, the largest it takes", what, showNat(v), most).c_str(),
         span);
  return uint64_t(immVal(v));
}
V textOf(const Node& n) { return ofStr(patternText(n)); }

V lit(const V* a, uint32_t) {
  auto q = makeNode(Node::Seq);
  for (char c : toStr(a[0])) {
    auto b = makeNode(Node::Bytes);
    b->bytes.set(static_cast<unsigned char>(c));
    q->kids.push_back(std::move(b));
  }
  return textOf(*q);
}
V range(const V* a, uint32_t span) {
  uint64_t lo = natArg(a[0], 255, "reRange", span), hi = natArg(a[1], 255, "reRange", span);
  if (lo > hi) fail(fmt::format("reRange {} {}: an empty range", lo, hi).c_str(), span);
  auto b = makeNode(Node::Bytes);
  for (uint64_t c = lo; c <= hi; ++c)
    b->bytes.set(c);
  return textOf(*b);
}
template <Node::Kind K> V pairOf(const V* a, uint32_t span) { // seq, alt
  auto n = makeNode(K);
  n->kids.push_back(treeOfText(a[0], span));
  n->kids.push_back(treeOfText(a[1], span));
  return textOf(*n);
}
V rep(const V* a, uint32_t span) {
  auto n = makeNode(Node::Repeat);
  n->min = uint32_t(natArg(a[0], kMaxRepeat, "reRep", span));
  n->max = uint32_t(natArg(a[1], kMaxRepeat, "reRep", span));
  if (n->max < n->min)
    fail(fmt::format("reRep {} {}: min repeat greater than max repeat", n->min, n->max).c_str(),
         span);
  n->kids.push_back(treeOfText(a[2], span));
  return textOf(*n);
}
V atLeast(const V* a, uint32_t span) {
  auto n = makeNode(Node::Repeat);
  n->min = uint32_t(natArg(a[0], kMaxRepeat, "reAtLeast", span));
  n->max = kUnbounded;
  n->kids.push_back(treeOfText(a[1], span));
  return textOf(*n);
}
V lazy(const V* a, uint32_t span) {
  auto n = treeOfText(a[0], span);
  if (n->kind == Node::Repeat) n->lazy = true;
  return textOf(*n);
}
V group(const V* a, uint32_t span) {
  auto n = makeNode(Node::Group);
  n->group = 1;
  n->kids.push_back(treeOfText(a[0], span));
  return textOf(*n);
}
V anchor(const V* a, uint32_t span) {
  auto n = makeNode(Node::Assertion);
  n->assertion = Assert(natArg(a[0], 5, "reAnchor", span));
  return textOf(*n);
}
V complement(const V* a, uint32_t span) {
  auto n = treeOfText(a[0], span);
  if (n->kind != Node::Bytes) fail("reNot: the pattern is not a set of bytes", span);
  n->bytes = ~n->bytes;
  return textOf(*n);
}

V groups(const V* a, uint32_t span) { return imm(int64_t(matcherOf(a[0], span).groups())); }

V just(V x) {
  V c = mkCon(1, 1);
  static_cast<ConObj*>(obj(c))->fields[0] = x;
  return c;
}
const V kNothing = imm(0); // (the prelude's `nothing`)

// Maybe (Array (groups r) (Maybe String)): each group's text, nothing for a
// group that took no part.
V captures(const V* a, uint32_t span) {
  Matcher& m = matcherOf(a[0], span);
  std::string_view s = toStr(a[1]);
  auto caps = m.captures(s, 0);
  if (!caps) return kNothing;
  V arr = mkArr(m.groups());
  for (uint32_t g = 1; g <= m.groups(); ++g) {
    int64_t b = (*caps)[2 * g], e = (*caps)[2 * g + 1];
    V slot = b < 0 ? kNothing : just(ofStr(s.substr(size_t(b), size_t(e - b))));
    static_cast<ArrObj*>(obj(arr))->elems[g - 1] = slot;
  }
  return just(arr);
}

// Every match replaced by the template, its `$n` / `${n}` by group n's text
// (an unmatched group's: nothing), `$$` by '$' — over finditer's matches, as
// Python's re.sub.
V replaceAll(const V* a, uint32_t span) { // r s template
  Matcher& m = matcherOf(a[0], span);
  std::string_view s = toStr(a[1]);
  Template t;
  try {
    t = parseTemplate(toStr(a[2]), m.groups());
  } catch (TemplateError& e) {
    fail(fmt::format("{} (at byte {} of the replacement)", e.message, e.offset).c_str(), span);
  }
  std::string out;
  size_t done = 0;
  for (auto [b, e] : m.findAll(s)) {
    out.append(s.substr(done, b - done));
    if (t.usesGroups()) {
      expand(t, s, m.groupsOf(s, {b, e}), out);
    } else {
      expand(t, s, Captures{int64_t(b), int64_t(e)}, out);
    }
    done = e;
  }
  out.append(s.substr(done));
  return ofStr(out);
}

} // namespace

void prims() {
  knownHooks();
  for (auto [x, f] : {std::pair<ax, PrimFn>{ax::re, re},
                      {ax::matches, matches},
                      {ax::searchFrom, searchFrom},
                      {ax::count, count},
                      {ax::findAll, findAllSpans},
                      {ax::groups, groups},
                      {ax::matchingLines, matchingLines},
                      {ax::lit, lit},
                      {ax::range, range},
                      {ax::seq, pairOf<Node::Seq>},
                      {ax::alt, pairOf<Node::Alt>},
                      {ax::rep, rep},
                      {ax::atLeast, atLeast},
                      {ax::lazy, lazy},
                      {ax::group, group},
                      {ax::anchor, anchor},
                      {ax::complement, complement},
                      {ax::captures, captures},
                      {ax::replaceAll, replaceAll}}) {
    registerPrim(id(x), f);
    primKeeps(id(x), x == ax::re ? 1u : 0u); // (re returns its pattern; the others only look)
  }
}

} // namespace thorin::plug::regex

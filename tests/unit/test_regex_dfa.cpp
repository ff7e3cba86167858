// The regex plugin's lazy DFAs (plugins/regex/dfa.hpp, matcher.hpp) against
// its Pike VM on random patterns and strings: whole-string matches, search
// spans from every position, finditer's spans — and a pattern whose full
// DFA is huge, run in the bounded cache.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "plugins/regex/matcher.hpp"
#include "plugins/regex/simplify.hpp"

using namespace thorin::plug::regex;

namespace {

// Random patterns over a small alphabet; as the Python differential test,
// no loop over a part that can match the empty string (the Pike VM alone
// runs those).
struct Gen {
  std::mt19937 r;
  explicit Gen(unsigned seed) : r(seed) {}
  int pick(int n) { return int(r() % unsigned(n)); }
  bool chance(double p) { return std::uniform_real_distribution<>(0, 1)(r) < p; }

  std::pair<std::string, bool> atom(int depth) {
    double k = std::uniform_real_distribution<>(0, 1)(r);
    static const char* lits[] = {"a", "b", "c", "1", " "};
    static const char* cls[] = {"[ab]", "[^a]", "[a-c1]", "[\\s\\d]", "[^b ]"};
    static const char* esc[] = {"\\d", "\\w", "\\s", "\\D", "\\W", "\\S"};
    static const char* anch[] = {"^", "$", "\\b", "\\B", "\\A", "\\z"};
    if (k < 0.35) return {lits[pick(5)], false};
    if (k < 0.45) return {".", false};
    if (k < 0.6) return {cls[pick(5)], false};
    if (k < 0.7) return {esc[pick(6)], false};
    if (k < 0.78) return {anch[pick(6)], true};
    if (depth > 2) return {"a", false};
    auto [body, nullable] = alt(depth + 1);
    return {(chance(0.4) ? "(?:" : "(") + body + ")", nullable};
  }
  std::pair<std::string, bool> quantified(int depth) {
    auto [a, nullable] = atom(depth);
    if (chance(0.55)) return {a, nullable};
    if (nullable) return {a + "?", true};
    static const char* qs[] = {"*", "+", "?", "{2}", "{1,2}", "{0,3}", "{2,}"};
    int q = pick(7);
    std::string lazy = chance(0.3) ? "?" : "";
    return {a + qs[q] + lazy, q == 0 || q == 2 || q == 5};
  }
  std::pair<std::string, bool> seq(int depth) {
    std::string s;
    bool nullable = true;
    for (int i = pick(5); i > 0; --i) {
      auto [p, n] = quantified(depth);
      s += p;
      nullable = nullable && n;
    }
    return {s, nullable};
  }
  std::pair<std::string, bool> alt(int depth) {
    int n = chance(0.7) ? 1 : 2 + pick(2);
    std::string s;
    bool nullable = false;
    for (int i = 0; i < n; ++i) {
      auto [p, nl] = seq(depth);
      s += (i ? "|" : "") + p;
      nullable = nullable || nl;
    }
    return {s, nullable};
  }
  std::string text() {
    static const char* bytes[] = {"a", "b", "c", "1", " ", "\n", "\xe9"};
    static const int lens[] = {0, 1, 2, 3, 5, 8, 12, 30};
    std::string s;
    for (int i = lens[pick(8)]; i > 0; --i)
      s += bytes[pick(7)];
    return s;
  }
};

std::string spans(const std::vector<Span>& v) {
  std::string out;
  for (auto [b, e] : v)
    out += "(" + std::to_string(b) + "," + std::to_string(e) + ")";
  return out;
}

} // namespace

TEST_CASE("regex dfa: agrees with the Pike VM on random patterns") {
  Gen g(20261128);
  int checked = 0, parsed = 0, byDfa = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string pat = g.alt(0).first;
    Pattern p;
    try {
      p = parse(pat);
    } catch (SyntaxError&) {
      continue;
    }
    Program pike = compile(p);
    Matcher m(p);
    ++parsed;
    if (m.forward()) ++byDfa;
    for (int j = 0; j < 6; ++j) {
      std::string s = g.text();
      INFO("pattern ", pat, " on \"", s, "\"");
      CHECK(m.fullMatch(s) == fullMatch(pike, s));
      for (size_t from = 0; from <= s.size(); ++from) {
        auto want = search(pike, s, from, false);
        auto got = m.search(s, from);
        REQUIRE(bool(got) == bool(want));
        if (want) CHECK(*got == Span(size_t((*want)[0]), size_t((*want)[1])));
      }
      CHECK(spans(m.findAll(s)) == spans(findAll(pike, s)));
      CHECK(m.count(s) == findAll(pike, s).size());
      ++checked;
    }
  }
  CHECK(checked > 10000);
  MESSAGE(byDfa, " of ", parsed, " patterns on the DFAs");
  CHECK(byDfa * 10 > parsed * 9); // (the Pike VM alone: loops over empty iterations)
}

TEST_CASE("regex dfa: a huge DFA in a bounded cache") {
  Pattern p = parse("(a|b)*a(a|b){20}");
  Matcher m(p);
  REQUIRE(m.forward());
  std::mt19937 r(7);
  std::string s;
  for (int i = 0; i < 300000; ++i)
    s += r() % 2 ? 'a' : 'b';
  Program pike = compile(p);
  CHECK(m.fullMatch(s) == fullMatch(pike, s));
  CHECK(m.count(s) == 1);
  CHECK(m.forward()->flushes() > 0); // (the cache was flushed, not grown)
  CHECK(m.forward()->states() < 100000);
}

TEST_CASE("regex dfa: byte classes") {
  Matcher m(parse("[a-z]+@[a-z]+\\.com"));
  REQUIRE(m.forward());
  // The runs between the sets' edges: below '.', '.', '/'–'?', '@',
  // 'A'–'`', 'a'–'b', 'c', 'd'–'l', 'm', 'n', 'o', 'p'–'z', above 'z'.
  CHECK(m.forward()->numClasses() == 13);
  CHECK(m.forward()->classOf('e') == m.forward()->classOf('k'));
  CHECK(m.forward()->classOf('c') != m.forward()->classOf('b'));
  CHECK(m.forward()->classOf('A') == m.forward()->classOf('Z'));
}

TEST_CASE("regex simplify: the same matches, spans and groups") {
  Gen g(99);
  static const char* nested[] = {"(?:a*)*b",       "(?:[ab]+)*c?",
                                 "(?:a?)+",        "(?:a+)?b",
                                 "(?:x*)+",        "a(?:b|c|d)e|a(?:b|c|d)e",
                                 "aa*a{2}b",       "(a)(?:a|b)\\d\\d{3}",
                                 "a{2}?a",         "(?:a+){0,3}",
                                 "a*?a",           "(?:b{1,2}){1,}",
                                 "(?:[ab]{2}){3}c"};
  int checked = 0;
  for (int i = 0; i < 2000 + int(std::size(nested)); ++i) {
    std::string pat = i < int(std::size(nested)) ? nested[i] : g.alt(0).first;
    Pattern p;
    try {
      p = parse(pat);
    } catch (SyntaxError&) {
      continue;
    }
    Program before = compile(p);
    simplify(p);
    Program after = compile(p);
    for (int j = 0; j < 5; ++j) {
      std::string s = g.text();
      INFO("pattern ", pat, " → ", show(*p.root), " on \"", s, "\"");
      CHECK(fullMatch(before, s) == fullMatch(after, s));
      for (size_t from = 0; from <= s.size(); ++from) {
        auto a = search(before, s, from, false), b = search(after, s, from, false);
        REQUIRE(bool(a) == bool(b));
        if (a) { // (the groups' slots: a loop's own come after them)
          a->resize(2 * (p.groups + 1)), b->resize(2 * (p.groups + 1));
          CHECK(*a == *b);
        }
      }
      ++checked;
    }
  }
  CHECK(checked > 5000);
  CHECK(show(*[] {
          Pattern p = parse("(?:a|b|c)(?:x*)*\\d\\d{2}|foo|foo");
          simplify(p);
          return std::move(p.root);
        }()) == "alt(seq([a-c], rep{0,inf}([x]), rep{3,3}([0-9])), seq([f], [o], [o]))");
}

TEST_CASE("regex patternText: the text the combinators build means the same") {
  Gen g(4242);
  int checked = 0;
  for (int i = 0; i < 1500; ++i) {
    std::string pat = (i % 7 == 0 ? "(?i)" : "") + g.alt(0).first;
    Pattern p;
    try {
      p = parse(pat);
    } catch (SyntaxError&) {
      continue;
    }
    std::string text = patternText(*p.root);
    INFO("pattern ", pat, " → ", text);
    Pattern q = parse(text);
    REQUIRE(q.groups == p.groups);
    Program a = compile(p), b = compile(q);
    for (int j = 0; j < 4; ++j) {
      std::string s = g.text();
      CHECK(fullMatch(a, s) == fullMatch(b, s));
      auto x = search(a, s, 0, false), y = search(b, s, 0, false);
      REQUIRE(bool(x) == bool(y));
      if (x) {
        x->resize(2 * (p.groups + 1)), y->resize(2 * (p.groups + 1));
        CHECK(*x == *y);
      }
      ++checked;
    }
  }
  CHECK(checked > 4000);
}

// The regex plugin's reference matcher (plugins/regex/pike.hpp) on cases
// whose answers are Python's `re` (on bytes): leftmost-first alternation,
// lazy and counted quantifiers, anchors, empty matches in findall, captures,
// and a pattern that makes backtracking engines exponential.
#include <doctest/doctest.h>

#include <string>

#include "plugins/regex/pike.hpp"

using namespace thorin::plug::regex;

static Program prog(const char* p) { return compile(parse(p)); }

static std::string span(const char* p, std::string_view s) {
  auto m = search(prog(p), s, 0, false);
  if (!m) return "none";
  return std::to_string((*m)[0]) + "," + std::to_string((*m)[1]);
}

static std::string all(const char* p, std::string_view s) {
  std::string out;
  for (auto [b, e] : findAll(prog(p), s))
    out += "(" + std::to_string(b) + "," + std::to_string(e) + ")";
  return out;
}

TEST_CASE("regex pike: search spans as Python's re.search") {
  CHECK(span("a+", "baaac") == "1,4");
  CHECK(span("a|ab", "ab") == "0,1"); // leftmost-first, not longest
  CHECK(span("ab|a", "ab") == "0,2");
  CHECK(span("a*?b", "aaab") == "0,4");
  CHECK(span("a+?", "aaa") == "0,1");
  CHECK(span("a{2,3}", "aaaa") == "0,3");
  CHECK(span("a{2,3}?", "aaaa") == "0,2");
  CHECK(span("x", "abc") == "none");
  CHECK(span("", "abc") == "0,0");
  CHECK(span("a$", "a\n") == "0,1"); // $ before a final newline
  CHECK(span("a\\z", "a\n") == "none");
  CHECK(span("^b", "ab") == "none");
  CHECK(span("\\bcd", "ab cd") == "3,5");
  CHECK(span("\\Bb", "ab") == "1,2");
  CHECK(span("(?i)hello", "say HeLLo") == "4,9");
  CHECK(span("[^a-c]+", "abcxyz") == "3,6");
  CHECK(span("\\d{3}-\\d{4}", "call 555-1234 now") == "5,13");
  CHECK(span("é+", "caféé!") == "3,5"); // bytes: é+ is \xc3\xa9+
  CHECK(span("(?:é)+", "caféé!") == "3,7");
}

TEST_CASE("regex pike: findall as Python's re.finditer") {
  CHECK(all("x*", "abxd") == "(0,0)(1,1)(2,3)(3,3)(4,4)");
  CHECK(all("\\b", "ab cd") == "(0,0)(2,2)(3,3)(5,5)");
  CHECK(all("a??", "a") == "(0,0)(0,1)(1,1)");
  CHECK(all("aa", "aaaaa") == "(0,2)(2,4)"); // non-overlapping
  CHECK(all("", "") == "(0,0)");
}

TEST_CASE("regex pike: full matches and captures") {
  CHECK(fullMatch(prog("(a|ab)(c|bcd)"), "abcd"));
  CHECK_FALSE(fullMatch(prog("a|ab"), "abc"));
  CHECK(fullMatch(prog("[a-z]+@[a-z]+\\.com"), "ada@example.com"));
  auto m = search(prog("(a)(b)?"), "a", 0, false);
  REQUIRE(m);
  CHECK((*m == Captures{0, 1, 0, 1, -1, -1}));
  m = search(prog("(a*)+b"), "aab", 0, true);
  REQUIRE(m);
  CHECK((*m)[1] == 3);
}

TEST_CASE("regex pike: linear time on a pattern that backtracking makes exponential") {
  std::string s(20000, 'a');
  CHECK(span("(a|a)*b", s) == "none");
  CHECK(span("(a*)*b", s) == "none");
  CHECK_FALSE(fullMatch(prog("(a|aa)*c"), s));
}

// The regex plugin's pattern parser (plugins/regex/pattern.hpp): trees of
// well-formed patterns and the position of each syntax error.
#include <doctest/doctest.h>

#include "plugins/regex/pattern.hpp"

using namespace thorin::plug::regex;

static std::string tree(const char* p) { return show(*parse(p).root); }

static SyntaxError error(const char* p) {
  try {
    parse(p);
  } catch (SyntaxError& e) {
    return e;
  }
  FAIL("no error for ", p);
  return {};
}

TEST_CASE("regex: literals, classes, escapes") {
  CHECK(tree("") == "empty");
  CHECK(tree("ab") == "seq([a], [b])");
  CHECK(tree("[a-c0-9_]") == "[0-9_a-c]");
  CHECK(tree("[^\\x00-\\xfe]") == "[\\xff]");
  CHECK(tree("\\d\\.") == "seq([0-9], [.])");
  CHECK(tree("[]a]") == "[\\x5da]");
  CHECK(tree("[a-]") == "[\\x2da]");
  CHECK(tree("\\x41") == "[A]");
  CHECK(tree(".") == tree("[^\\n]"));
  CHECK(tree("(?s).") == "any");
  CHECK(tree("(?i)a[x-z]") == "seq([Aa], [X-Zx-z])");
}

TEST_CASE("regex: groups, alternation, quantifiers, anchors") {
  CHECK(tree("a|b|") == "alt([a], [b], empty)");
  CHECK(tree("(a)(?:b)(?P<n>c)") == "seq(group1([a]), nc([b]), group2([c]))");
  CHECK(parse("(a(b))(c)").groups == 3);
  CHECK(tree("a*?b+c?d{2}e{1,}f{,3}g{2,5}?") ==
        "seq(rep{0,inf}?([a]), rep{1,inf}([b]), rep{0,1}([c]), rep{2,2}([d]), rep{1,inf}([e]), "
        "rep{0,3}([f]), rep{2,5}?([g]))");
  CHECK(tree("a{x}") == "seq([a], [{], [x], [}])"); // (a '{' that starts no count is literal)
  CHECK(tree("^a$\\A\\z\\b\\B") == "seq(^, [a], $, \\A, \\z, \\b, \\B)");
}

TEST_CASE("regex: syntax errors and their positions") {
  auto at = [](const char* p, const char* msg, uint32_t off, uint32_t len) {
    SyntaxError e = error(p);
    CHECK(e.message == msg);
    CHECK(e.offset == off);
    CHECK(e.length == len);
  };
  at("ab(c", "missing ), unterminated subpattern", 2, 1);
  at("a)b", "unbalanced parenthesis: this ')' closes no group", 1, 1);
  at("*a", "nothing to repeat", 0, 1);
  at("a**", "multiple repeat", 2, 1);
  at("x[a-", "unterminated character set", 1, 1);
  at("[z-a]", "bad character range z-a", 1, 3);
  at("a\\q", "bad escape \\q", 1, 2);
  at("\\x4", "incomplete escape \\x (two hex digits: \\x41)", 0, 3);
  at("a{3,2}", "min repeat greater than max repeat", 1, 5);
  at("a{1001}", "the repetition count is too large (at most 1000)", 1, 6);
  at("^*", "nothing to repeat", 1, 1);
  at("(?ix)", "unknown flag (known: (?i), (?s))", 0, 4);
  at("a(?x)", "unknown extension (known: (?:…), (?P<name>…), and (?i) (?s) at the start)", 1, 3);
}

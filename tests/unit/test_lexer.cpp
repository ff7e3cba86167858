#include <doctest/doctest.h>

#include "core/diagnostic.hpp"
#include "core/lexer.hpp"

using namespace thorin;

static std::vector<Tok> kinds(const std::string& text) {
  Source src("t", text);
  Lexer lx(src);
  std::vector<Tok> out;
  for (auto& t : lx.all())
    out.push_back(t.kind);
  return out;
}

TEST_CASE("lexer: unicode and ASCII spellings of the same symbols") {
  CHECK(kinds("λ x. x") == kinds("\\x. x"));
  CHECK(kinds("A → B") == kinds("A -> B"));
  CHECK(kinds("A × B") == kinds("A ** B"));
  CHECK(kinds("λ x. x") ==
        std::vector<Tok>{Tok::Lambda, Tok::Ident, Tok::Dot, Tok::Ident, Tok::Eof});
}

TEST_CASE("lexer: UTF-8 identifiers, primes, digits") {
  Source src("t", "Γ σ' x₁ _foo _");
  Lexer lx(src);
  auto ts = lx.all();
  REQUIRE(ts.size() == 6);
  for (int i = 0; i < 4; ++i)
    CHECK(ts[i].kind == Tok::Ident);
  CHECK(ts[4].kind == Tok::Hole);
  CHECK(src.text.substr(ts[0].begin, ts[0].end - ts[0].begin) == "Γ");
  CHECK(src.text.substr(ts[2].begin, ts[2].end - ts[2].begin) == "x₁");
}

TEST_CASE("lexer: keywords are reserved, Type is not") {
  CHECK(kinds("let U if then else Type") ==
        std::vector<Tok>{Tok::Let, Tok::U, Tok::If, Tok::Then, Tok::Else, Tok::Ident, Tok::Eof});
}

TEST_CASE("lexer: nested and line comments") {
  CHECK(kinds("a {- x {- y -} z -} b -- c\nd") ==
        std::vector<Tok>{Tok::Ident, Tok::Ident, Tok::Ident, Tok::Eof});
}

TEST_CASE("lexer: unterminated comment is a located error") {
  Source src("t", "a {- b");
  Lexer lx(src);
  try {
    lx.all();
    FAIL("expected an error");
  } catch (Error& e) {
    CHECK(e.diags[0].message == "unterminated comment");
    CHECK(e.diags[0].span.begin == 2);
  }
}

TEST_CASE("lexer: projections lex as separate tokens") {
  CHECK(kinds("p.1.2") ==
        std::vector<Tok>{Tok::Ident, Tok::Dot, Tok::Number, Tok::Dot, Tok::Number, Tok::Eof});
}

TEST_CASE("lexer: layout — entries split at column-0 tokens") {
  Source src("t", "a : U\n  = U\nb = U\n");
  Lexer lx(src);
  std::vector<Token> e;
  REQUIRE(lx.nextEntry(e));
  CHECK(e.size() == 6); // a : U = U eof
  REQUIRE(lx.nextEntry(e));
  CHECK(e.size() == 4); // b = U eof
  CHECK_FALSE(lx.nextEntry(e));
}

TEST_CASE("lexer: directives and import paths") {
  Source src("t", ".import lib/foo.thorin\n.check x\n");
  Lexer lx(src);
  auto ts = lx.all();
  CHECK(ts[0].kind == Tok::Directive);
  CHECK(ts[1].kind == Tok::Path);
  CHECK(src.text.substr(ts[1].begin, ts[1].end - ts[1].begin) == "lib/foo.thorin");
  CHECK(ts[2].kind == Tok::Directive);
}

// The message of the error lexing `text` ("" if none).
static std::string lexError(const std::string& text) {
  Source src("t", text);
  Lexer lx(src);
  try {
    lx.all();
  } catch (Error& e) {
    return e.diags[0].message;
  }
  return "";
}

TEST_CASE("lexer: which characters beyond ASCII make identifiers") {
  for (const char* id : {"Γ", "ℕ", "𝔸", "名前", "cé", "x₁", "f⁻¹", "f′", "aᵢ", "Ω₀'"})
    CHECK(kinds(id) == std::vector<Tok>{Tok::Ident, Tok::Eof});
  CHECK(kinds("a\u3000b\u2003c\u00A0d").size() == 5); // Unicode spaces separate tokens
  CHECK(lexError("x\u202E") == "invisible or bidirectional control character U+202E");
  CHECK(lexError("a\u200Bb") == "invisible or bidirectional control character U+200B");
  CHECK(lexError("\u3164") == "invisible or bidirectional control character U+3164");
  CHECK(lexError("a \uFEFF") == "invisible or bidirectional control character U+FEFF");
  CHECK(lexError("x😀") == "unexpected character '😀' (U+1F600)");
  CHECK(lexError("₁x") == "unexpected character '₁' (U+2081)"); // (continues, not starts)
  CHECK(lexError("x \x7F") == "unexpected control character U+007F");
  CHECK(lexError("x `") == "unexpected character '`' (U+0060)");
}

TEST_CASE("lexer: comments and strings are UTF-8 without bidi controls") {
  CHECK(lexError("-- a\u200Db \uFEFF\nx") == ""); // joiners are fine in comments
  CHECK(lexError("\"👨\u200D👩\uFE0F\"") == "");    // and in strings
  CHECK(lexError("-- \u202E") == "invisible or bidirectional control character U+202E");
  CHECK(lexError("{- \u2067 -}") == "invisible or bidirectional control character U+2067");
  CHECK(lexError("\"a\u200F\"") == "invisible or bidirectional control character U+200F");
  CHECK(lexError("-- a\u2028b") == "invisible or bidirectional control character U+2028");
  CHECK(lexError("-- \xE9t\xE9") == "invalid UTF-8 (this byte does not begin a character)");
  CHECK(lexError("\"\xC3\"") == "invalid UTF-8 (this byte does not begin a character)");
}

TEST_CASE("source: LF, CR LF and a lone CR each end one line") {
  Source src("t", "a\rb\r\nc\n\rd");
  CHECK(src.lineCol(8).line == 5);
  CHECK(src.lineCol(8).col == 1);
  CHECK(src.lineText(1) == "a");
  CHECK(src.lineText(2) == "b");
  CHECK(src.lineText(4) == "");
  CHECK(kinds("a -- c\rb") == std::vector<Tok>{Tok::Ident, Tok::Ident, Tok::Eof});
  Lexer lx(src);
  auto ts = lx.all();
  for (size_t i = 0; i + 1 < ts.size(); ++i)
    CHECK(ts[i].col0); // (each letter starts its line)
}

// Hand-written lexer over the whole source text: no regexes, no allocation per
// token. Tokens know whether they start in column 0 (the layout rule: such a
// token starts a new top-level entry).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "source.hpp"

namespace thorin {

enum class Tok : uint8_t {
  Ident,
  Number,
  String,
  Path, // raw rest-of-line after `.import`
  Lambda,
  Arrow,
  LArrow, // `←` or `<-` (a `do` block's binding)
  Times,
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Colon,
  Eq,
  Semi,
  Comma,
  Dot,
  Hole,
  GoalBlock, // `{! … !}`: an anonymous goal (what is inside is ignored)
  Let,
  U,
  If,
  Then,
  Else,
  Op,        // any other operator symbol run (reserved for builtin operators)
  Directive, // `.name` in column 0
  AxiomName, // `%plugin.name`
  Eof,
};

const char* tokName(Tok t);

struct Token {
  Tok kind;
  bool col0; // first character is in column 0
  uint32_t begin, end;
};

class Lexer {
public:
  explicit Lexer(const Source& src) : src_(src), text_(src.text), start_(src.lexFrom) {
    pos_ = start_;
    // A script's `#!/usr/bin/env thorin` line is not part of the program.
    if (start_ == 0 && text_.starts_with("#!") && !src.path.starts_with("<interactive")) {
      size_t nl = text_.find_first_of("\r\n");
      pos_ = uint32_t(nl == std::string_view::npos ? text_.size() : nl);
    }
  }
  /// Lexes the next top-level entry (all tokens up to the next column-0 token)
  /// into `out`, terminated by an Eof token. Returns false at end of file.
  bool nextEntry(std::vector<Token>& out);
  /// Lexes everything remaining (used by tests and the REPL).
  std::vector<Token> all();
  const Source& source() const { return src_; }
  bool atEnd();

private:
  Token lex();
  void skipSpaceAndComments();
  [[noreturn]] void error(uint32_t begin, uint32_t end, const char* msg);
  uint32_t decode(uint32_t pos, uint32_t& len) const;
  bool identStart(uint32_t pos) const;
  bool identChar(uint32_t pos, uint32_t& len) const;
  uint32_t identEnd(uint32_t pos) const;
  uint32_t checkText(uint32_t pos);
  [[noreturn]] void invalidUtf8(uint32_t pos);
  [[noreturn]] void invisibleChar(uint32_t pos, uint32_t len, uint32_t cp);
  [[noreturn]] void unexpectedChar(uint32_t pos);

  const Source& src_;
  std::string_view text_;
  uint32_t start_; // where lexing starts (its token counts as in column 0)
  uint32_t pos_ = 0;
  bool afterDot_ = false;    // previous token was an attached '.', so lex `1.2` as `1`,`.`,`2`
  bool afterImport_ = false; // previous token was `.import`
  bool havePending_ = false;
  Token pending_{};
};

} // namespace thorin

#include "lexer.hpp"

#include <array>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "diagnostic.hpp"
#include "unicode.hpp"

namespace thorin {

const char* tokName(Tok t) {
  switch (t) {
  case Tok::Ident: return "identifier";
  case Tok::Number: return "number";
  case Tok::String: return "string";
  case Tok::Path: return "path";
  case Tok::Lambda: return "'λ'";
  case Tok::Arrow: return "'→'";
  case Tok::LArrow: return "'←'";
  case Tok::Times: return "'×'";
  case Tok::LParen: return "'('";
  case Tok::RParen: return "')'";
  case Tok::LBrace: return "'{'";
  case Tok::GoalBlock: return "a goal '{! !}'";
  case Tok::RBrace: return "'}'";
  case Tok::LBracket: return "'['";
  case Tok::RBracket: return "']'";
  case Tok::Colon: return "':'";
  case Tok::Eq: return "'='";
  case Tok::Semi: return "';'";
  case Tok::Comma: return "','";
  case Tok::Dot: return "'.'";
  case Tok::Hole: return "'_'";
  case Tok::Let: return "'let'";
  case Tok::U: return "'U'";
  case Tok::If: return "'if'";
  case Tok::Then: return "'then'";
  case Tok::Else: return "'else'";
  case Tok::Op: return "operator";
  case Tok::Directive: return "directive";
  case Tok::AxiomName: return "axiom name";
  case Tok::Eof: return "end of input";
  }
  return "?";
}

void Lexer::error(uint32_t begin, uint32_t end, const char* msg) {
  fail(Span{&src_, begin, end}, msg);
}

uint32_t Lexer::decode(uint32_t pos, uint32_t& len) const {
  return unicode::decode(text_, pos, len);
}

static constexpr uint32_t kLambda = 0x03BB, kArrow = 0x2192, kTimes = 0x00D7, kLArrow = 0x2190;

// ASCII characters by class: bit 1, may start an identifier; bit 2, may
// continue one. (A table: identifiers are most of a program's text.)
static constexpr auto kAsciiClass = [] {
  std::array<uint8_t, 128> t{};
  for (int c = 0; c < 128; ++c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    t[c] = uint8_t((letter ? 1 : 0) | (letter || (c >= '0' && c <= '9') || c == '\'' ? 2 : 0));
  }
  return t;
}();

bool Lexer::identStart(uint32_t pos) const {
  auto c = static_cast<unsigned char>(text_[pos]);
  if (c < 0x80) return kAsciiClass[c] & 1;
  uint32_t len, cp = decode(pos, len);
  return cp != kLambda && unicode::identStart(cp);
}

bool Lexer::identChar(uint32_t pos, uint32_t& len) const {
  auto c = static_cast<unsigned char>(text_[pos]);
  len = 1;
  if (c < 0x80) return kAsciiClass[c] & 2;
  uint32_t cp = decode(pos, len);
  return cp != kLambda && unicode::identContinue(cp);
}

// A non-ASCII character in a comment, a string or an import path: it must be
// UTF-8, and neither a bidirectional control nor a line or paragraph
// separator (they make the line look unlike what it is). Returns its length.
uint32_t Lexer::checkText(uint32_t pos) {
  uint32_t len, cp = decode(pos, len);
  if (cp == unicode::kInvalid) invalidUtf8(pos);
  if (unicode::bidiControl(cp) || cp == 0x2028 || cp == 0x2029) invisibleChar(pos, len, cp);
  return len;
}

void Lexer::invalidUtf8(uint32_t pos) {
  error(pos, pos + 1, "invalid UTF-8 (this byte does not begin a character)");
}

void Lexer::invisibleChar(uint32_t pos, uint32_t len, uint32_t cp) {
  fail(Span{&src_, pos, pos + len},
       fmt::format("invisible or bidirectional control character {}", unicode::codePointName(cp)),
       {unicode::bidiControl(cp)
            ? "it changes the order in which the line is displayed, so the code may not be what "
              "it looks like; remove it"
        : cp == 0x2028 || cp == 0x2029
            ? "an editor may show it as a line break, but it does not end the line; remove it"
            : "it is not displayed, so the code may not be what it looks like; remove it"});
}

// A character that begins no token (pos at its first byte).
void Lexer::unexpectedChar(uint32_t pos) {
  uint32_t len, cp = decode(pos, len);
  if (cp == unicode::kInvalid) invalidUtf8(pos);
  if (unicode::invisible(cp)) invisibleChar(pos, len, cp);
  Span at{&src_, pos, pos + len};
  if (unicode::control(cp))
    fail(at, fmt::format("unexpected control character {}", unicode::codePointName(cp)));
  std::vector<std::string> notes;
  // What people from other languages type for what thorin writes in ASCII.
  static constexpr struct {
    uint32_t cp;
    const char* note;
  } kHints[] = {
      {0x2200 /* ∀ */, "a Π type is written (x : A) → B, or {x : A} → B for an implicit x"},
      {0x2260 /* ≠ */, "not equal is written !="},
      {0x2264 /* ≤ */, "less or equal is written <="},
      {0x2265 /* ≥ */, "greater or equal is written >="},
      {0x2227 /* ∧ */, "and is written &&"},
      {0x2228 /* ∨ */, "or is written ||"},
      {0x00AC /* ¬ */, "negation is written not b"},
      {0x2018, "a prime in a name is written ' (or ′)"},
      {0x2019, "a prime in a name is written ' (or ′)"},
      {0x201C, "a string is written between ASCII quotes: \"…\""},
      {0x201D, "a string is written between ASCII quotes: \"…\""},
  };
  for (auto& h : kHints)
    if (h.cp == cp) notes.push_back(h.note);
  fail(at,
       fmt::format("unexpected character '{}' ({})", std::string_view(text_).substr(pos, len),
                   unicode::codePointName(cp)),
       std::move(notes));
}

// The end of the identifier characters from pos: ASCII in a tight loop.
uint32_t Lexer::identEnd(uint32_t pos) const {
  const auto* p = reinterpret_cast<const unsigned char*>(text_.data());
  uint32_t n = uint32_t(text_.size()), len;
  while (pos < n) {
    if (p[pos] < 0x80) {
      if (!(kAsciiClass[p[pos]] & 2)) break;
      ++pos;
    } else {
      if (!identChar(pos, len)) break;
      pos += len;
    }
  }
  return pos;
}

static bool isOpChar(char c) {
  switch (c) {
  case '!':
  case '#':
  case '$':
  case '%':
  case '&':
  case '*':
  case '+':
  case '/':
  case '<':
  case '=':
  case '>':
  case '?':
  case '@':
  case '^':
  case '|':
  case '~':
  case ':':
  case '-': return true;
  default: return false;
  }
}

void Lexer::skipSpaceAndComments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') {
      // `--` followed by more dashes or a non-symbol starts a line comment.
      uint32_t p = pos_;
      while (p < text_.size() && text_[p] == '-')
        ++p;
      if (p < text_.size() && isOpChar(text_[p])) return; // an operator like `-->`
      while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') {
        if (text_[pos_] & 0x80)
          pos_ += checkText(pos_);
        else
          ++pos_;
      }
    } else if (c == '{' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') {
      uint32_t start = pos_;
      int depth = 0;
      do {
        if (pos_ + 1 < text_.size() && text_[pos_] == '{' && text_[pos_ + 1] == '-') {
          ++depth;
          pos_ += 2;
        } else if (pos_ + 1 < text_.size() && text_[pos_] == '-' && text_[pos_ + 1] == '}') {
          --depth;
          pos_ += 2;
        } else if (pos_ >= text_.size()) {
          error(start, start + 2, "unterminated comment");
        } else if (text_[pos_] & 0x80) {
          pos_ += checkText(pos_);
        } else {
          ++pos_;
        }
      } while (depth > 0);
    } else if (c & 0x80) {
      uint32_t len; // a space beyond ASCII (no-break, ideographic, …)
      if (!unicode::space(decode(pos_, len))) return;
      pos_ += len;
    } else {
      return;
    }
  }
}

// s == lit, inlined (GCC called string_view::compare for each of the
// lexer's comparisons).
static inline bool is(std::string_view s, std::string_view lit) {
  return s.size() == lit.size() && std::memcmp(s.data(), lit.data(), s.size()) == 0;
}

// A word's token: a keyword's, or Ident (by length first: most words are
// names, and this runs for each).
static Tok keyword(std::string_view s) {
  switch (s.size()) {
  case 1: return s[0] == '_' ? Tok::Hole : s[0] == 'U' ? Tok::U : Tok::Ident;
  case 2: return s[0] == 'i' && s[1] == 'f' ? Tok::If : Tok::Ident;
  case 3: return is(s, "let") ? Tok::Let : Tok::Ident;
  case 4: return is(s, "then") ? Tok::Then : is(s, "else") ? Tok::Else : Tok::Ident;
  default: return Tok::Ident;
  }
}

bool Lexer::atEnd() {
  if (havePending_) return pending_.kind == Tok::Eof;
  skipSpaceAndComments();
  return pos_ >= text_.size();
}

Token Lexer::lex() {
  skipSpaceAndComments();
  uint32_t b = pos_;
  bool col0 = b == start_ || text_[b - 1] == '\n' || text_[b - 1] == '\r';
  auto tok = [&](Tok k) {
    afterDot_ = false;
    return Token{k, col0, b, pos_};
  };
  if (pos_ >= text_.size()) return Token{Tok::Eof, true, b, b};

  if (afterImport_) {
    afterImport_ = false;
    if (text_[pos_] != '"') {
      while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') {
        if (text_[pos_] == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') break;
        pos_ += text_[pos_] & 0x80 ? checkText(pos_) : 1;
      }
      uint32_t e = pos_;
      while (e > b && (text_[e - 1] == ' ' || text_[e - 1] == '\t' || text_[e - 1] == '\r'))
        --e;
      afterDot_ = false;
      return Token{Tok::Path, col0, b, e};
    }
  }

  unsigned char c = static_cast<unsigned char>(text_[pos_]);
  // Directives: `.name` in column 0.
  if (c == '.' && col0 && pos_ + 1 < text_.size() && identStart(pos_ + 1)) {
    pos_ = identEnd(pos_ + 1);
    if (is(text_.substr(b, pos_ - b), ".import")) afterImport_ = true;
    return tok(Tok::Directive);
  }
  if (c >= '0' && c <= '9') {
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
      ++pos_;
    // `t.1.2` are projections (the number touches a projection's dot); in
    // `λ x. 1.5` the dot ends the binders and 1.5 is a number.
    bool projection = afterDot_ && b > 0 && text_[b - 1] == '.';
    if (!projection && pos_ + 1 < text_.size() && text_[pos_] == '.' && text_[pos_ + 1] >= '0' &&
        text_[pos_ + 1] <= '9') {
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
        ++pos_;
    }
    // An exponent: 1e9, 2.5E-3.
    if (!projection && pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      uint32_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '-' || text_[p] == '+')) ++p;
      if (p < text_.size() && text_[p] >= '0' && text_[p] <= '9') {
        pos_ = p;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
          ++pos_;
      }
    }
    if (pos_ < text_.size() && (identStart(pos_) || text_[pos_] == '\''))
      error(b, pos_ + 1, "invalid numeric literal");
    return tok(Tok::Number);
  }
  if (c == '"') {
    ++pos_;
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n' || text_[pos_] == '\r')
        error(b, b + 1, "unterminated string literal");
      if (text_[pos_] == '\\') {
        char e = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\n';
        if (e == 'x') { // `\xHH`: any byte
          auto hex = [&](size_t i) {
            return i < text_.size() && std::isxdigit((unsigned char)text_[i]);
          };
          if (!hex(pos_ + 2) || !hex(pos_ + 3))
            error(pos_, pos_ + 2, "\\x in a string needs two hex digits (\\x00 to \\xff)");
          pos_ += 4;
          continue;
        }
        if (e != 'n' && e != 't' && e != 'r' && e != '0' && e != '\\' && e != '"') {
          if (e == '\n' || e == '\r') error(b, b + 1, "unterminated string literal");
          uint32_t len = 1;
          if (e & 0x80) decode(pos_ + 1, len);
          error(pos_, pos_ + 1 + len,
                "unknown escape in a string (known: \\n \\t \\r \\0 \\\\ \\\" \\xHH)");
        }
        pos_ += 2;
        continue;
      }
      if (text_[pos_] & 0x80) {
        pos_ += checkText(pos_);
        continue;
      }
      if (text_[pos_++] == '"') break;
    }
    return tok(Tok::String);
  }
  if (c == '%' && pos_ + 1 < text_.size() && identStart(pos_ + 1)) {
    // Identifier characters and dots: %core.nat.add.
    pos_ = identEnd(pos_ + 1);
    while (pos_ < text_.size() && text_[pos_] == '.')
      pos_ = identEnd(pos_ + 1);
    return tok(Tok::AxiomName);
  }
  if (c < 0x80 && (kAsciiClass[c] & 1)) {
    pos_ = identEnd(pos_ + 1);
    return tok(keyword(text_.substr(b, pos_ - b)));
  }
  if (c >= 0x80) {
    uint32_t len;
    uint32_t cp = decode(pos_, len);
    if (cp == kLambda || cp == kArrow || cp == kTimes || cp == kLArrow) {
      pos_ += len;
      return tok(cp == kLambda  ? Tok::Lambda
                 : cp == kArrow ? Tok::Arrow
                 : cp == kTimes ? Tok::Times
                                : Tok::LArrow);
    }
    if (cp != unicode::kInvalid && unicode::identStart(cp)) {
      pos_ = identEnd(pos_ + len);
      return tok(Tok::Ident); // (no keyword begins beyond ASCII)
    }
    unexpectedChar(b);
  }
  ++pos_;
  switch (c) {
  case '(': return tok(Tok::LParen);
  case ')': return tok(Tok::RParen);
  case '{': {
    if (pos_ < text_.size() && text_[pos_] == '!') { // Agda's `{! … !}`
      size_t close = text_.find("!}", pos_ + 1);
      if (close == std::string_view::npos)
        error(b, b + 2, "unterminated goal '{!' (close it with '!}')");
      pos_ = uint32_t(close + 2);
      return tok(Tok::GoalBlock);
    }
    return tok(Tok::LBrace);
  }
  case '}': return tok(Tok::RBrace);
  case '[': return tok(Tok::LBracket);
  case ']': return tok(Tok::RBracket);
  case ';': return tok(Tok::Semi);
  case ',': return tok(Tok::Comma);
  case '\\': return tok(Tok::Lambda);
  case '.': {
    Token t = tok(Tok::Dot);
    afterDot_ = true;
    return t;
  }
  default: break;
  }
  if (isOpChar(static_cast<char>(c))) {
    while (pos_ < text_.size() && isOpChar(text_[pos_]))
      ++pos_;
    std::string_view s = text_.substr(b, pos_ - b);
    if (is(s, "->")) return tok(Tok::Arrow);
    if (is(s, "<-")) return tok(Tok::LArrow); // (was no operator: `a<-1` never parsed)
    if (is(s, "=")) return tok(Tok::Eq);
    if (is(s, ":")) return tok(Tok::Colon);
    if (is(s, "**")) return tok(Tok::Times);
    return tok(Tok::Op);
  }
  unexpectedChar(b);
}

bool Lexer::nextEntry(std::vector<Token>& out) {
  out.clear();
  Token t = havePending_ ? pending_ : lex();
  havePending_ = false;
  if (t.kind == Tok::Eof) return false;
  out.push_back(t);
  while (true) {
    Token n = lex();
    if (n.kind == Tok::Eof || n.col0) {
      pending_ = n;
      havePending_ = true;
      // The entry's Eof sits at the end of its last token (for error positions).
      out.push_back(Token{Tok::Eof, false, out.back().end, out.back().end});
      return true;
    }
    out.push_back(n);
  }
}

std::vector<Token> Lexer::all() {
  std::vector<Token> out;
  while (true) {
    Token t = havePending_ ? pending_ : lex();
    havePending_ = false;
    out.push_back(t);
    if (t.kind == Tok::Eof) return out;
  }
}

} // namespace thorin

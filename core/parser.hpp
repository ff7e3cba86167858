// Recursive-descent parser for one top-level entry at a time (the layout rule
// is applied by the lexer: an entry ends before the next column-0 token).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "arena.hpp"
#include "lexer.hpp"
#include "syntax.hpp"

namespace thorin {

/// Puts a definition's filter (`name @(e)`) on the innermost binder of its
/// body's leading λs; an error if the body does not start with λ.
void attachFilter(Raw* body, Raw* filter, bool always, Span where);

class Parser {
public:
  Parser(const Source& src, Arena& arena) : src_(src), lexer_(src), arena_(arena) {}
  /// Parses the next entry of a file; returns false at end of file. Throws Error.
  bool next(Entry& out);
  /// Parses REPL input: a definition, a directive, or an expression.
  void replInput(Entry& out);
  /// Whether the lexer has reached the end of the source.
  bool atEnd() { return lexer_.atEnd(); }
  /// Parses the whole source as one term (for tests and `:type EXPR`).
  Raw* wholeTerm();

private:
  // Token access within the current entry.
  // Tokens from `limit_` on read as the end of the entry (a constructor's
  // type ends where the next constructor's line starts).
  size_t bound() const { return limit_ < toks_.size() - 1 ? limit_ : toks_.size() - 1; }
  const Token& peek(size_t k = 0) const {
    size_t i = pos_ + k;
    if (i < bound()) return toks_[i];
    return bound() < toks_.size() - 1 ? limitTok_ : toks_.back();
  }
  bool at(Tok k) const { return peek().kind == k; }
  Token advance() { return pos_ < bound() ? toks_[pos_++] : peek(); }
  template <class F> void withLimit(size_t end, F f) {
    size_t saved = limit_;
    Token savedTok = limitTok_;
    limit_ = end;
    limitTok_ = Token{Tok::Eof, false, toks_[end].begin, toks_[end].begin};
    f();
    limit_ = saved;
    limitTok_ = savedTok;
  }
  bool accept(Tok k) {
    if (!at(k)) return false;
    advance();
    return true;
  }
  Token expect(Tok k, const char* what);
  [[noreturn]] void unexpected(const char* expected, std::string note = "");
  bool inputContinues() const;
  Span span(uint32_t b, uint32_t e) const { return Span{&src_, b, e}; }
  Span spanFrom(uint32_t b) const { return span(b, prevEnd()); }
  uint32_t prevEnd() const { return pos_ > 0 ? toks_[pos_ - 1].end : peek().begin; }
  Name ident(const Token& t) const;
  bool attached(const Token& a, const Token& b) const { return a.end == b.begin; }

  void entry(Entry& out, bool repl);
  void definition(Entry& out);
  bool atClause() const;
  void clause(Entry& out);
  void moreClauses(Entry& out);
  void finishClauses(Entry& out);
  void mutualBlock(Entry& out);
  bool atCase() const;
  bool atDo() const;
  Raw* doBlock();
  RDoStmt statement();
  void statementsUntil(size_t end, std::vector<RDoStmt>& out);
  size_t statementEnd(size_t from, uint32_t col) const;
  static bool hasAbsurd(Raw* p);
  Raw* caseOf();
  RClause alternative();
  size_t alternativeEnd(size_t from, uint32_t col) const;
  bool atData(bool repl) const;
  void dataDecl(Entry& out);
  Raw* dataParams(Entry& out);
  void constructors(Entry& out);
  size_t findWord(std::string_view w, size_t from) const;
  bool firstOnLine(const Token& t) const;
  uint32_t column(const Token& t) const;
  std::string_view text(const Token& t) const {
    return std::string_view(src_.text).substr(t.begin, t.end - t.begin);
  }
  void directive(Entry& out);
  void checkDepth();
  Raw* term();
  Raw* lambda();
  Raw* let();
  Raw* piOrSigma();
  Raw* tryTelescope();
  Raw* sigmaLevel();
  Raw* operators(int minPrec);
  Raw* ifThenElse();
  Raw* application();
  Raw* atom();
  Raw* postfix(Raw* t);
  bool atomStart() const;
  bool atOp(std::string_view op) const;
  /// `@(e)` or `@` after a definition's name or a λ's binders.
  bool filter(Raw*& e, bool& always);
  void startEntry();
  void finishEntry();

  template <class T> T* node(RKind k, Span s) {
    T* n = arena_.make<T>();
    n->kind = k;
    n->span = s;
    return n;
  }

  const Source& src_;
  Lexer lexer_;
  Arena& arena_;
  std::vector<Token> toks_;
  std::vector<Token> pending_; // an entry read ahead (after clauses), parsed next
  bool havePending_ = false;
  size_t pos_ = 0;
  size_t limit_ = SIZE_MAX;
  Token limitTok_{};
  std::vector<uint8_t> notTelescope_; // by token position: tryTelescope failed there
  // Stacks shared by the nested calls of lambda() and tryTelescope() (each
  // works above the size it found, and leaves it as it found it): no
  // allocation per λ or telescope.
  struct Binder {
    Name x;
    ArgInfo info;
    Raw* ty;
    uint32_t begin, end;
  };
  std::vector<Binder> binders_;
  std::vector<Name> teleNames_;
  struct Group {
    uint32_t first, count; // in teleNames_
    Icit icit;
    Raw* ty;
    uint32_t begin;
  };
  std::vector<Group> groups_;
  bool inFile_ = false;         // parsing a file entry (vs. a REPL input)
  bool inPattern_ = false;      // a clause's left-hand side: `f -1` applies f to -1
  bool signatureAtEnd_ = false; // REPL: `f : A` alone, its definition may follow
};

} // namespace thorin

#include "parser.hpp"

#include <fmt/format.h>

#include "diagnostic.hpp"
#include "guard.hpp"

namespace thorin {

Name Parser::ident(const Token& t) const {
  return intern(std::string_view(src_.text).substr(t.begin, t.end - t.begin));
}

void Parser::unexpected(const char* expected, std::string note) {
  const Token& t = peek();
  std::string found;
  if (t.kind == Tok::Eof && bound() < toks_.size() - 1)
    found = fmt::format("'{}'", text(toks_[bound()])); // (a limit: what lies beyond it)
  else if (t.kind == Tok::Eof)
    found = inFile_ && !lexer_.atEnd() ? "the end of this entry (the next line starts in column 0)"
                                       : "end of input";
  else
    found = fmt::format("'{}'{}", std::string_view(src_.text).substr(t.begin, t.end - t.begin),
                        t.kind == Tok::Let || t.kind == Tok::U || t.kind == Tok::If ||
                                t.kind == Tok::Then || t.kind == Tok::Else
                            ? " (a reserved word)"
                            : "");
  Error e(
      Diagnostic{span(t.begin, t.end), fmt::format("expected {}, found {}", expected, found), {}});
  if (!note.empty()) e.diags.back().notes.push_back(std::move(note));
  e.incomplete =
      t.kind == Tok::Eof && (!inFile_ || lexer_.atEnd()) && (inputContinues() || signatureAtEnd_);
  e.awaitsDefinition = e.incomplete && signatureAtEnd_ && !inputContinues();
  throw e;
}

// At the end of the input, does it clearly go on (an open bracket, or a last
// token such as `=`, `→`, `:` that needs something after it)? The REPL then
// reads another line instead of reporting an error.
bool Parser::inputContinues() const {
  int depth = 0;
  for (auto& t : toks_) {
    if (t.kind == Tok::LParen || t.kind == Tok::LBrace || t.kind == Tok::LBracket) ++depth;
    if (t.kind == Tok::RParen || t.kind == Tok::RBrace || t.kind == Tok::RBracket) --depth;
  }
  if (depth > 0) return true;
  size_t n = toks_.size();
  if (n < 2) return false;
  switch (toks_[n - 2].kind) {
  case Tok::Eq:
  case Tok::Colon:
  case Tok::Arrow:
  case Tok::Times:
  case Tok::Dot:
  case Tok::Comma:
  case Tok::Semi:
  case Tok::Lambda:
  case Tok::Let:
  case Tok::Op:
  case Tok::If:
  case Tok::Then:
  case Tok::Else: return true;
  default: return false;
  }
}

Token Parser::expect(Tok k, const char* what) {
  if (!at(k)) unexpected(what);
  return advance();
}

bool Parser::next(Entry& out) {
  if (havePending_) {
    toks_.swap(pending_);
    havePending_ = false;
  } else if (!lexer_.nextEntry(toks_)) {
    return false;
  }
  startEntry();
  inFile_ = true;
  if (!toks_[0].col0)
    fail(span(toks_[0].begin, toks_[0].end),
         "this line is indented, but there is no entry before it to continue",
         {"top-level entries start in column 0"});
  entry(out, false);
  if (out.kind == EntryKind::Clauses) {
    moreClauses(out);
    finishClauses(out);
  }
  return true;
}

// The clauses as one term (an RClauses).
void Parser::finishClauses(Entry& out) {
  auto* r = node<RClauses>(RKind::Clauses, out.span);
  r->fn = out.name;
  r->n = uint32_t(out.clauses.size());
  r->clauses = arena_.array<RClause>(out.clauses.size());
  std::copy(out.clauses.begin(), out.clauses.end(), r->clauses);
  out.def = r;
}

// `mutual` alone on its line, then entries indented under it at one column:
// data types, signatures, clauses and definitions, checked together.
void Parser::mutualBlock(Entry& out) {
  Token m = advance();
  out.kind = EntryKind::Mutual;
  out.name = ident(m);
  out.nameSpan = span(m.begin, m.end);
  if (at(Tok::Eof))
    fail(out.nameSpan, "this mutual block is empty",
         {"indent the data types and definitions that refer to each other under `mutual`"});
  uint32_t col = column(peek());
  while (!at(Tok::Eof)) {
    const Token& t = peek();
    if (!firstOnLine(t) || column(t) != col)
      fail(span(t.begin, t.end),
           fmt::format("this line is indented by {}, the first entry of the mutual block by {}",
                       column(t), col),
           {"the entries of a mutual block start their lines at the same column"});
    size_t end = alternativeEnd(pos_ + 1, col);
    Entry sub;
    uint32_t b = t.begin;
    withLimit(end, [&] {
      if (atData(false))
        dataDecl(sub);
      else if (atClause())
        clause(sub);
      else if (at(Tok::Ident) && (peek(1).kind == Tok::Colon || peek(1).kind == Tok::Eq))
        definition(sub);
      else
        unexpected("a data type, a signature, a clause or a definition in the mutual block");
      if (!at(Tok::Eof)) unexpected("the end of this entry of the mutual block");
    });
    sub.span = spanFrom(b);
    Entry* last = out.block.empty() ? nullptr : &out.block.back();
    if (sub.kind == EntryKind::Clauses && last && last->kind == EntryKind::Clauses &&
        last->name == sub.name) {
      last->clauses.push_back(sub.clauses[0]);
      last->span.end = sub.span.end;
    } else {
      out.block.push_back(std::move(sub));
    }
  }
  for (Entry& sub : out.block)
    if (sub.kind == EntryKind::Clauses) finishClauses(sub);
}

// The following entries that are clauses of the same function join it (the
// first other entry is kept for the next call).
void Parser::moreClauses(Entry& out) {
  while (lexer_.nextEntry(pending_)) {
    const Token& t = pending_[0];
    if (t.kind != Tok::Ident || ident(t) != out.name || pending_[1].kind == Tok::Colon) {
      havePending_ = true;
      return;
    }
    toks_.swap(pending_);
    startEntry();
    clause(out);
    finishEntry();
    out.span.end = prevEnd();
  }
}

// `f p₁ … pₙ = t` in a file: a name, then something other than `:`, and a `=`
// outside brackets.
bool Parser::atClause() const {
  if (!inFile_ || !at(Tok::Ident) || peek(1).kind == Tok::Colon) return false;
  int depth = 0;
  for (size_t i = pos_; i < bound(); ++i) {
    Tok k = toks_[i].kind;
    if (k == Tok::LParen || k == Tok::LBrace || k == Tok::LBracket) ++depth;
    if (k == Tok::RParen || k == Tok::RBrace || k == Tok::RBracket) --depth;
    if (depth == 0 && k == Tok::Eq) return true;
    if (k == Tok::LParen && i + 1 < bound() && toks_[i + 1].kind == Tok::RParen)
      return true; // an absurd clause (no right-hand side)
  }
  return false;
}

void Parser::clause(Entry& out) {
  uint32_t b = peek().begin;
  Token n = peek();
  if (out.clauses.empty()) {
    out.kind = EntryKind::Clauses;
    out.name = ident(n);
    out.nameSpan = span(n.begin, n.end);
  }
  RClause c;
  inPattern_ = true;
  c.lhs = application();
  inPattern_ = false;
  // (An absurd clause `f ()` has none: its pattern says there is no value.)
  c.rhs = at(Tok::Eof) && hasAbsurd(c.lhs)
              ? nullptr
              : (expect(Tok::Eq, "'=' and the clause's right-hand side"), term());
  c.span = spanFrom(b);
  out.clauses.push_back(c);
}

bool Parser::hasAbsurd(Raw* p) {
  if (p->kind == RKind::Absurd) return true;
  if (p->kind == RKind::App) return hasAbsurd(as<RApp>(p)->fn) || hasAbsurd(as<RApp>(p)->arg);
  return false;
}

// `case` starts a case expression when `of` follows on the same line (it
// stays an ordinary name otherwise: smalltt's files bind it).
bool Parser::atCase() const {
  if (!at(Tok::Ident) || text(peek()) != "case") return false;
  int depth = 0;
  for (size_t i = pos_ + 1; i < bound(); ++i) {
    const Token& t = toks_[i];
    if (firstOnLine(t)) return false;
    if (t.kind == Tok::LParen || t.kind == Tok::LBrace || t.kind == Tok::LBracket) ++depth;
    if (t.kind == Tok::RParen || t.kind == Tok::RBrace || t.kind == Tok::RBracket) --depth;
    if (depth < 0) return false;
    if (depth == 0 && t.kind == Tok::Ident && text(t) == "of") return true;
  }
  return false;
}

// The first token from `from` that starts a line at a column ≤ col (or the
// limit): where an alternative of a laid-out case ends.
size_t Parser::alternativeEnd(size_t from, uint32_t col) const {
  for (size_t i = from; i < bound(); ++i)
    if (firstOnLine(toks_[i]) && column(toks_[i]) <= col) return i;
  return bound();
}

RClause Parser::alternative() {
  uint32_t b = peek().begin;
  RClause c;
  inPattern_ = true;
  c.lhs = application();
  inPattern_ = false;
  if ((at(Tok::Eof) || at(Tok::Semi) || at(Tok::RBrace)) && hasAbsurd(c.lhs)) {
    c.rhs = nullptr;
  } else {
    expect(Tok::Arrow, "'→' and the alternative's result");
    c.rhs = term();
  }
  c.span = spanFrom(b);
  return c;
}

// `case e of` and its alternatives `p → t`, each on a line of its own (at one
// column), or `{ p → t; … }`.
Raw* Parser::caseOf() {
  uint32_t b = advance().begin; // case
  auto* r = node<RCase>(RKind::Case, span(b, b));
  size_t of = findWord("of", pos_);
  withLimit(of, [&] {
    r->scrut = term();
    if (!at(Tok::Eof)) unexpected("'of'");
  });
  advance(); // of
  std::vector<RClause> alts;
  if (accept(Tok::LBrace)) {
    if (!at(Tok::RBrace)) {
      alts.push_back(alternative());
      while (accept(Tok::Semi))
        alts.push_back(alternative());
    }
    expect(Tok::RBrace, alts.empty() ? "'}'" : "';' or '}'");
  } else {
    if (at(Tok::Eof) || !firstOnLine(peek()))
      unexpected("the alternatives on the lines after 'of'",
                 "write each `pattern → result` on a line of its own, indented, or "
                 "`case e of { p → t; … }`");
    uint32_t col = column(peek());
    while (!at(Tok::Eof) && firstOnLine(peek()) && column(peek()) == col) {
      size_t end = alternativeEnd(pos_ + 1, col);
      bool last = end >= bound() || column(toks_[end]) < col;
      if (last) {
        alts.push_back(alternative());
        break;
      }
      withLimit(end, [&] {
        alts.push_back(alternative());
        if (!at(Tok::Eof)) unexpected("the end of this alternative (the next one starts a line)");
      });
    }
  }
  r->n = uint32_t(alts.size());
  r->alts = arena_.array<RClause>(alts.size());
  std::copy(alts.begin(), alts.end(), r->alts);
  r->span = spanFrom(b);
  return r;
}

// `do` starts a block where a term starts and a block follows: `{`, a
// statement on the next line, or statements on this line — separated by `;`,
// binding with `←`, or continued below at the column of the first. Elsewhere
// it stays an ordinary name (`λ do x. do (do x)` binds and applies one).
bool Parser::atDo() const {
  if (!at(Tok::Ident) || text(peek()) != "do") return false;
  const Token& next = peek(1);
  if (next.kind == Tok::LBrace) return true;
  if (pos_ + 1 >= bound()) return false;
  if (firstOnLine(next)) return true;
  int depth = 0;
  for (size_t i = pos_ + 1; i < bound(); ++i) {
    const Token& t = toks_[i];
    if (i > pos_ + 1 && firstOnLine(t)) return column(t) == column(next);
    if (t.kind == Tok::LParen || t.kind == Tok::LBracket || t.kind == Tok::LBrace) ++depth;
    if (t.kind == Tok::RParen || t.kind == Tok::RBracket || t.kind == Tok::RBrace) --depth;
    if (depth < 0) return false;
    if (depth == 0 && (t.kind == Tok::Semi || t.kind == Tok::LArrow)) return true;
  }
  return false;
}

// `x ← e`, `let x = e` (or `let x : A = e`), or an action `e`.
RDoStmt Parser::statement() {
  uint32_t b = peek().begin;
  RDoStmt s{DoKind::Expr, names::underscore, {}, nullptr, nullptr, {}};
  if (accept(Tok::Let)) {
    s.kind = DoKind::Let;
    Token x = at(Tok::Hole) ? advance() : expect(Tok::Ident, "a name after 'let'");
    s.x = ident(x);
    s.xSpan = span(x.begin, x.end);
    if (accept(Tok::Colon)) s.ty = term();
    expect(Tok::Eq, "'='");
  } else if ((at(Tok::Ident) || at(Tok::Hole)) && peek(1).kind == Tok::LArrow) {
    s.kind = DoKind::Bind;
    Token x = advance();
    s.x = ident(x);
    s.xSpan = span(x.begin, x.end);
    advance(); // ←
  }
  s.e = term();
  s.span = spanFrom(b);
  return s;
}

// Statements separated by `;` up to token `end` (one line's, or a block's
// in braces up to its `}`).
void Parser::statementsUntil(size_t end, std::vector<RDoStmt>& out) {
  withLimit(end, [&] {
    out.push_back(statement());
    while (accept(Tok::Semi))
      out.push_back(statement());
    if (!at(Tok::Eof))
      unexpected("the end of this statement",
                 "statements of a do block start their lines at the same column, or are "
                 "separated by ';'");
  });
}

// Where a laid-out statement ends: at the next line that starts at a column
// ≤ col, or at a closing bracket, comma, `then` or `else` of an enclosing
// term (`(do a; b)`, `if c then do a else b` on one line).
size_t Parser::statementEnd(size_t from, uint32_t col) const {
  int depth = 0, ifs = 0; // (`then`, `else` of an `if` inside the statement are its own)
  for (size_t i = from; i < bound(); ++i) {
    const Token& t = toks_[i];
    // (`then` and `else` of an `if` of this statement may start a line at
    // the statement's column, as in Haskell's do blocks.)
    if ((t.kind == Tok::Then || t.kind == Tok::Else) && ifs > 0) {
      ifs -= t.kind == Tok::Else;
      continue;
    }
    if (i > from && firstOnLine(t) && column(t) <= col) return i;
    if (t.kind == Tok::If) ++ifs;
    switch (t.kind) {
    case Tok::LParen:
    case Tok::LBracket:
    case Tok::LBrace: ++depth; break;
    case Tok::RParen:
    case Tok::RBracket:
    case Tok::RBrace:
      if (depth-- == 0) return i;
      break;
    case Tok::Comma:
    case Tok::Then:
    case Tok::Else:
      if (depth == 0) return i;
      break;
    default: break;
    }
  }
  return bound();
}

// `do` and its statements: laid out, each starting a line at the column of
// the first (a line indented further continues the statement above), or in
// braces, separated by `;`.
Raw* Parser::doBlock() {
  Token d = advance(); // do
  auto* r = node<RDo>(RKind::Do, span(d.begin, d.end));
  std::vector<RDoStmt> stmts;
  if (accept(Tok::LBrace)) {
    if (at(Tok::RBrace)) unexpected("a statement");
    stmts.push_back(statement());
    while (accept(Tok::Semi))
      stmts.push_back(statement());
    expect(Tok::RBrace, "';' or '}'");
  } else {
    uint32_t col = column(peek());
    bool first = true;
    while (!at(Tok::Eof) && (first || (firstOnLine(peek()) && column(peek()) == col))) {
      first = false;
      statementsUntil(statementEnd(pos_, col), stmts);
    }
    // A line that starts left of the block, inside the same entry, and is
    // no closing word of an enclosing term: a statement misplaced.
    if (!at(Tok::Eof) && firstOnLine(peek()) && column(peek()) < col && atomStart())
      fail(span(peek().begin, peek().end),
           fmt::format("this line is indented by {}, but the statements of the do block above "
                       "start in column {}",
                       column(peek()), col),
           {"the statements of a do block start their lines at the same column"});
  }
  r->n = uint32_t(stmts.size());
  r->stmts = arena_.array<RDoStmt>(stmts.size());
  std::copy(stmts.begin(), stmts.end(), r->stmts);
  r->span = spanFrom(d.begin);
  return r;
}

void Parser::replInput(Entry& out) {
  toks_ = lexer_.all();
  startEntry();
  if (at(Tok::Eof)) {
    out = Entry{};
    out.kind = EntryKind::Other;
    return;
  }
  entry(out, true);
}

Raw* Parser::wholeTerm() {
  toks_ = lexer_.all();
  startEntry();
  Raw* t = term();
  if (!at(Tok::Eof)) unexpected("end of input");
  return t;
}

void Parser::startEntry() {
  pos_ = 0;
  limit_ = SIZE_MAX;
  notTelescope_.assign(toks_.size(), 0);
  binders_.clear();
  teleNames_.clear();
  groups_.clear();
}

void Parser::finishEntry() {
  if (at(Tok::Eof)) return;
  unexpected("end of entry (a new top-level entry starts in column 0)");
}

static bool isPragma(std::string_view s) { return s == "elabtime" || s == "nftime"; }

void Parser::entry(Entry& out, bool repl) {
  out = Entry{};
  uint32_t b = peek().begin;
  if (at(Tok::Directive)) {
    directive(out);
  } else if (atData(repl)) {
    dataDecl(out);
  } else if (at(Tok::Ident) && text(peek()) == "mutual" && !repl &&
             (peek(1).kind == Tok::Eof || firstOnLine(peek(1)))) {
    mutualBlock(out);
  } else if (at(Tok::Ident) && (peek(1).kind == Tok::Colon || peek(1).kind == Tok::Eq ||
                                (peek(1).kind == Tok::Op &&
                                 std::string_view(src_.text).substr(peek(1).begin, 1) == "@" &&
                                 peek(1).end == peek(1).begin + 1) ||
                                (peek(1).kind == Tok::LBracket && peek(2).kind == Tok::Ident &&
                                 (!repl || peek(3).kind == Tok::RBracket ||
                                  isPragma(std::string_view(src_.text).substr(
                                      peek(2).begin, peek(2).end - peek(2).begin)))))) {
    definition(out);
  } else if (atClause()) {
    clause(out);
  } else if (repl) {
    out.kind = EntryKind::Expr;
    out.def = term();
  } else if (at(Tok::Ident)) {
    advance();
    unexpected("':' or '=' after the name of a definition");
  } else {
    unexpected("a definition or a directive at the start of a top-level entry");
  }
  finishEntry();
  out.span = spanFrom(b);
}

void Parser::definition(Entry& out) {
  Token n = advance();
  out.kind = EntryKind::Def;
  out.name = ident(n);
  out.nameSpan = span(n.begin, n.end);
  while (accept(Tok::LBracket)) {
    Token p = expect(Tok::Ident, "a pragma (elabtime or nftime)");
    std::string_view s = std::string_view(src_.text).substr(p.begin, p.end - p.begin);
    if (s == "elabtime")
      out.elabtime = true;
    else if (s == "nftime")
      out.nftime = true;
    else
      fail(span(p.begin, p.end), fmt::format("unknown pragma '{}' (known: elabtime, nftime)", s));
    expect(Tok::RBracket, "']'");
  }
  if (atOp("@")) {
    uint32_t fb = peek().begin;
    filter(out.filter, out.filterAlways);
    out.filterSpan = spanFrom(fb);
  }
  if (accept(Tok::Colon)) out.ty = term();
  if (!accept(Tok::Eq)) {
    if (out.ty && at(Tok::Eof) && inFile_) {
      out.kind = EntryKind::Signature; // Agda style: its definition is the next entry
      return;
    }
    signatureAtEnd_ = out.ty && at(Tok::Eof); // (the REPL reads on: `= …` or `f = …`)
    unexpected(out.ty ? "'=' and the definition" : "':' or '='");
  }
  out.def = term();
  if (out.filter || out.filterAlways)
    attachFilter(out.def, out.filter, out.filterAlways, out.filterSpan);
}

// `data` is a keyword only at the start of an entry, before a name (a file's
// entry cannot start so otherwise; at the prompt, `data x` is an expression
// unless a `where` follows).
bool Parser::atData(bool repl) const {
  return at(Tok::Ident) && text(peek()) == "data" && peek(1).kind == Tok::Ident &&
         (!repl || findWord("where", pos_ + 2) < toks_.size() - 1);
}

// `data T (A : U) {B : U} : A → U where` and its constructors, one per line.
void Parser::dataDecl(Entry& out) {
  advance(); // data
  Token n = expect(Tok::Ident, "the name of the data type");
  out.kind = EntryKind::Data;
  out.name = ident(n);
  out.nameSpan = span(n.begin, n.end);
  size_t where = findWord("where", pos_);
  if (where >= toks_.size() - 1)
    fail(out.nameSpan, fmt::format("the data type '{}' has no 'where'", str(out.name)),
         {"write `data T : U where` and then its constructors, one per line"});
  withLimit(where, [&] {
    out.ty = dataParams(out);
    if (!at(Tok::Eof)) unexpected("'where' and the constructors");
  });
  advance(); // where
  constructors(out);
}

// The parameters `(A B : U) {n : Nat}` and `: type` (U if omitted), as one Π.
Raw* Parser::dataParams(Entry& out) {
  struct Param {
    Name x;
    Icit icit;
    Raw* ty;
    uint32_t begin;
  };
  std::vector<Param> ps;
  while (at(Tok::LParen) || at(Tok::LBrace)) {
    Token open = advance();
    bool impl = open.kind == Tok::LBrace;
    size_t first = ps.size();
    while (at(Tok::Ident))
      ps.push_back({ident(advance()), impl ? Icit::Impl : Icit::Expl, nullptr, open.begin});
    if (ps.size() == first) unexpected("a parameter's name");
    expect(Tok::Colon, "':' and the parameter's type");
    Raw* ty = term();
    expect(impl ? Tok::RBrace : Tok::RParen, impl ? "'}'" : "')'");
    for (size_t i = first; i < ps.size(); ++i)
      ps[i].ty = ty;
  }
  Raw* r;
  if (accept(Tok::Colon)) {
    r = term();
  } else {
    uint32_t at = prevEnd();
    r = node<Raw>(RKind::U, span(at, at));
  }
  out.params = uint32_t(ps.size());
  for (size_t i = ps.size(); i-- > 0;) {
    auto* p = node<RPi>(RKind::Pi, span(ps[i].begin, r->span.end));
    p->x = ps[i].x;
    p->icit = ps[i].icit;
    p->dom = ps[i].ty;
    p->cod = r;
    r = p;
  }
  return r;
}

// `name : type` lines after `where`, each starting a line at the column of
// the first; a type goes on over more-indented lines.
void Parser::constructors(Entry& out) {
  uint32_t col = 0;
  while (!at(Tok::Eof)) {
    const Token& c = peek();
    if (!firstOnLine(c))
      unexpected("a constructor on a line of its own",
                 "each constructor starts a line: `  name : type`");
    if (out.cons.empty())
      col = column(c);
    else if (column(c) != col)
      fail(span(c.begin, c.end),
           fmt::format("this constructor is indented by {}, the first one by {}", column(c), col),
           {"the constructors of a data type start their lines at the same column"});
    Token n = expect(Tok::Ident, "the name of a constructor");
    expect(Tok::Colon, "':' and the constructor's type");
    size_t end = pos_;
    while (end < toks_.size() - 1 && !(firstOnLine(toks_[end]) && column(toks_[end]) <= col))
      ++end;
    Raw* ty = nullptr;
    withLimit(end, [&] {
      ty = term();
      if (!at(Tok::Eof))
        unexpected("the end of the constructor's type",
                   "a line indented more than the first constructor continues the type before "
                   "it: start each constructor at the same column");
    });
    out.cons.push_back({ident(n), span(n.begin, n.end), ty});
  }
}

// The first token from `from` on that is the word `w` outside brackets.
size_t Parser::findWord(std::string_view w, size_t from) const {
  int depth = 0;
  for (size_t i = from; i < bound(); ++i) {
    Tok k = toks_[i].kind;
    if (k == Tok::LParen || k == Tok::LBrace || k == Tok::LBracket) ++depth;
    if (k == Tok::RParen || k == Tok::RBrace || k == Tok::RBracket) --depth;
    if (depth == 0 && k == Tok::Ident && text(toks_[i]) == w) return i;
  }
  return toks_.size() - 1;
}

bool Parser::firstOnLine(const Token& t) const {
  for (uint32_t i = t.begin; i-- > 0;) {
    char ch = src_.text[i];
    if (ch == '\n') return true;
    if (ch != ' ' && ch != '\t' && ch != '\r') return false;
  }
  return true;
}

uint32_t Parser::column(const Token& t) const {
  uint32_t i = t.begin;
  while (i > 0 && src_.text[i - 1] != '\n')
    --i;
  return t.begin - i;
}

void attachFilter(Raw* body, Raw* filter, bool always, Span where) {
  // The leading λs up to the first one that has a filter of its own.
  RLam* last = nullptr;
  for (Raw* r = body; r->kind == RKind::Lam; r = static_cast<RLam*>(r)->body) {
    auto* l = static_cast<RLam*>(r);
    if (l->filter || l->filterAlways) break;
    last = l;
  }
  if (!last && body->kind == RKind::Lam) fail(where, "this definition's λ has a filter already");
  if (!last)
    fail(where, "a filter is about parameters, but this definition's body is not a λ",
         {"write it as `name @(…) : A = λ x … . body`"});
  last->filter = filter;
  last->filterAlways = always;
}

bool Parser::atOp(std::string_view op) const {
  return at(Tok::Op) &&
         std::string_view(src_.text).substr(peek().begin, peek().end - peek().begin) == op;
}

// `@(e)`: specialize calls for which e holds; `@` alone: always.
bool Parser::filter(Raw*& e, bool& always) {
  if (!atOp("@")) return false;
  Token at = advance();
  if (accept(Tok::LParen)) {
    if (at.end != toks_[pos_ - 1].begin)
      fail(span(at.begin, at.end), "write a filter as `@(…)`, without a space after '@'");
    e = term();
    expect(Tok::RParen, "')' after the filter");
  } else {
    always = true;
  }
  return true;
}

void Parser::directive(Entry& out) {
  Token d = advance();
  std::string_view name = std::string_view(src_.text).substr(d.begin, d.end - d.begin);
  if (name == ".import") {
    out.kind = EntryKind::Import;
    if (at(Tok::Path)) {
      Token p = advance();
      out.path = std::string(std::string_view(src_.text).substr(p.begin, p.end - p.begin));
      out.nameSpan = span(p.begin, p.end);
    } else if (at(Tok::String)) {
      Token p = advance();
      out.path = std::string(std::string_view(src_.text).substr(p.begin + 1, p.end - p.begin - 2));
      out.nameSpan = span(p.begin, p.end);
    } else {
      unexpected("a file name after .import");
    }
    if (out.path.empty()) fail(span(d.begin, d.end), "expected a file name after .import");
  } else if (name == ".plugin") {
    out.kind = EntryKind::Plugin;
    Token n = expect(Tok::Ident, "the name of a plugin after .plugin");
    out.path = std::string(str(ident(n)));
    out.nameSpan = span(n.begin, n.end);
  } else if (name == ".check" || name == ".nf" || name == ".eval") {
    out.kind = name == ".check" ? EntryKind::Check
               : name == ".nf"  ? EntryKind::Nf
                                : EntryKind::Eval;
    out.def = term();
  } else if (name == ".ax") {
    out.kind = EntryKind::Postulate;
    Token n = at(Tok::AxiomName) ? advance() : expect(Tok::Ident, "the name of the postulate");
    out.name = ident(n);
    out.nameSpan = span(n.begin, n.end);
    expect(Tok::Colon, "':'");
    out.ty = term();
  } else {
    fail(span(d.begin, d.end),
         fmt::format("unknown directive '{}' (known: .import, .plugin, .check, .nf, .eval, .ax)",
                     name));
  }
}

// Past the stack's limit a located error, not a crash.
void Parser::checkDepth() {
  char probe;
  if (&probe < gStackLimit) [[unlikely]] {
    const Token& t = peek();
    throw Error(Diagnostic{span(t.begin, t.end),
                           "this expression is nested too deeply to parse",
                           {"THORIN_STACK_MB raises the limit"}});
  }
}

Raw* Parser::term() {
  // Every nesting (brackets, λs, tuples, arguments) comes back through here,
  // except chains of `×` (sigmaLevel).
  checkDepth();
  if (at(Tok::Lambda)) return lambda();
  if (at(Tok::Let)) return let();
  if (at(Tok::If)) return ifThenElse();
  if (atCase()) return caseOf();
  if (atDo()) return doBlock();
  return piOrSigma();
}

Raw* Parser::ifThenElse() {
  uint32_t b = advance().begin;
  auto* r = node<RIf>(RKind::If, span(b, b));
  r->cond = term();
  expect(Tok::Then, "'then'");
  r->then = term();
  expect(Tok::Else, "'else'");
  r->els = term();
  r->span = spanFrom(b);
  return r;
}

// Binary operators by precedence climbing; comparisons do not associate.
Raw* Parser::operators(int minPrec) {
  uint32_t b = peek().begin;
  Raw* lhs = application();
  while (at(Tok::Op)) {
    Token o = peek();
    std::string_view s = std::string_view(src_.text).substr(o.begin, o.end - o.begin);
    int p = operatorPrecedence(s);
    if (p == 0)
      fail(span(o.begin, o.end), fmt::format("unknown operator '{}'", s),
           {"operators: || && == != < <= > >= + - * / %"});
    if (p < minPrec) break;
    advance();
    Raw* rhs = operators(p + 1); // left-associative
    auto* r = node<RBinOp>(RKind::BinOp, spanFrom(b));
    r->op = intern(s);
    r->opSpan = span(o.begin, o.end);
    r->lhs = lhs;
    r->rhs = rhs;
    lhs = r;
    if (p == 3 && at(Tok::Op) &&
        operatorPrecedence(
            std::string_view(src_.text).substr(peek().begin, peek().end - peek().begin)) == 3)
      fail(span(peek().begin, peek().end), "comparisons do not chain",
           {"add parentheses: (a < b) && (b < c)"});
  }
  return lhs;
}

Raw* Parser::lambda() {
  uint32_t b = advance().begin;
  size_t base = binders_.size(); // this λ's binders: binders_[base..]
  auto nBinders = [&] { return binders_.size() - base; };
  auto binderName = [&] {
    return ident(at(Tok::Hole) ? advance() : expect(Tok::Ident, "a binder name"));
  };
  Raw* filt = nullptr;
  bool always = false;
  while (!at(Tok::Dot)) {
    uint32_t bb = peek().begin;
    if (nBinders() && filter(filt, always)) {
      if (!at(Tok::Dot)) unexpected("'.' after the filter");
      break;
    }
    if (at(Tok::Ident) || at(Tok::Hole)) {
      Token t = advance();
      binders_.push_back({ident(t), {}, nullptr, t.begin, t.end});
    } else if (accept(Tok::LBrace)) {
      uint32_t nb = peek().begin;
      Name x = binderName();
      uint32_t ne = prevEnd();
      if (accept(Tok::Eq)) {
        uint32_t yb = peek().begin;
        Name y = binderName();
        binders_.push_back({y, {Icit::Impl, x, span(nb, ne)}, nullptr, yb, prevEnd()});
      } else {
        // `{A B}` and `{A B : U}` bind several, as `(A B : U)` does.
        std::vector<std::pair<Name, std::pair<uint32_t, uint32_t>>> xs{{x, {nb, ne}}};
        while (at(Tok::Ident) || at(Tok::Hole)) {
          Token t = advance();
          xs.push_back({ident(t), {t.begin, t.end}});
        }
        Raw* ty = accept(Tok::Colon) ? term() : nullptr;
        for (auto& [y, s] : xs)
          binders_.push_back({y, {Icit::Impl, {}, {}}, ty, s.first, s.second});
      }
      expect(Tok::RBrace, "'}'");
    } else if (accept(Tok::LParen)) {
      std::vector<std::pair<Name, Token>> xs;
      do {
        Token t = at(Tok::Hole) ? advance() : expect(Tok::Ident, "a binder name");
        xs.push_back({ident(t), t});
      } while (at(Tok::Ident) || at(Tok::Hole));
      expect(Tok::Colon, "':'");
      Raw* ty = term();
      expect(Tok::RParen, "')'");
      for (auto& [x, t] : xs)
        binders_.push_back({x, {}, ty, t.begin, t.end});
    } else {
      (void)bb;
      if (at(Tok::Arrow) && nBinders()) // Agda's and Haskell's λ x → t
        fail(span(peek().begin, peek().end), "expected a binder or '.', found '→'",
             {"a lambda is written `λ x y. t` (or `\\x y. t`)"});
      unexpected(nBinders() ? "a binder or '.'" : "a binder after 'λ'");
    }
  }
  if (!nBinders()) unexpected("a binder after 'λ'");
  advance(); // '.'
  Raw* body = term();
  for (size_t i = binders_.size(); i-- > base;) {
    const Binder& x = binders_[i];
    auto* l = node<RLam>(RKind::Lam, span(i == base ? b : x.begin, body->span.end));
    l->x = x.x;
    l->info = x.info;
    l->ty = x.ty;
    l->body = body;
    l->binderSpan = span(x.begin, x.end);
    if (i + 1 == binders_.size()) {
      l->filter = filt;
      l->filterAlways = always;
    }
    body = l;
  }
  binders_.resize(base);
  return body;
}

Raw* Parser::let() {
  uint32_t b = advance().begin;
  Name x = ident(at(Tok::Hole) ? advance() : expect(Tok::Ident, "a name after 'let'"));
  Raw* ty = accept(Tok::Colon) ? term() : nullptr;
  expect(Tok::Eq, ty ? "'='" : "':' or '='");
  Raw* def = term();
  expect(Tok::Semi, "';' after the let-bound definition");
  Raw* body = term();
  auto* l = node<RLet>(RKind::Let, span(b, body->span.end));
  l->x = x;
  l->ty = ty;
  l->def = def;
  l->body = body;
  return l;
}

Raw* Parser::piOrSigma() {
  if (at(Tok::LParen) || at(Tok::LBrace))
    if (Raw* t = tryTelescope()) return t;
  uint32_t b = peek().begin;
  Raw* t = sigmaLevel();
  if (accept(Tok::Arrow)) {
    Raw* cod = term();
    auto* p = node<RPi>(RKind::Pi, span(b, cod->span.end));
    p->x = names::underscore;
    p->icit = Icit::Expl;
    p->dom = t;
    p->cod = cod;
    return p;
  }
  return t;
}

// `(x y : A) {z} ... → B` or `(x : A) × B`; returns nullptr (and rewinds) when
// the parentheses turn out to be an ordinary expression.
Raw* Parser::tryTelescope() {
  // Where this failed before, it fails again: without this, `(a : (a : …))`
  // nested n deep was tried 2^n times (as telescopes, then as annotations).
  if (notTelescope_[pos_]) return nullptr;
  size_t save = pos_;
  // This telescope's groups are groups_[gBase..], their names teleNames_[nBase..].
  size_t gBase = groups_.size(), nBase = teleNames_.size();
  struct Restore {
    Parser& p;
    size_t g, n;
    ~Restore() {
      p.groups_.resize(g);
      p.teleNames_.resize(n);
    }
  } restore{*this, gBase, nBase};
  bool anyImplicit = false;
  while (at(Tok::LParen) || at(Tok::LBrace)) {
    uint32_t gb = peek().begin;
    bool impl = at(Tok::LBrace);
    size_t groupStart = pos_;
    advance();
    uint32_t first = uint32_t(teleNames_.size());
    while (at(Tok::Ident) || at(Tok::Hole))
      teleNames_.push_back(ident(advance()));
    uint32_t count = uint32_t(teleNames_.size() - first);
    Raw* ty = nullptr;
    if (!count || !(at(Tok::Colon) || (impl && at(Tok::RBrace)))) {
      teleNames_.resize(first);
      pos_ = groupStart;
      break;
    }
    if (accept(Tok::Colon))
      ty = term();
    else {
      ty = node<Raw>(RKind::Hole, span(gb, peek().end));
    }
    expect(impl ? Tok::RBrace : Tok::RParen, impl ? "'}'" : "')'");
    anyImplicit |= impl;
    groups_.push_back({first, count, impl ? Icit::Impl : Icit::Expl, ty, gb});
  }
  size_t nGroups = groups_.size() - gBase;
  if (!nGroups) {
    pos_ = save;
    notTelescope_[save] = 1;
    return nullptr;
  }
  // `body` under one binder per name of this telescope's groups.
  auto wrap = [&](Raw* body, auto make) {
    for (size_t i = groups_.size(); i-- > gBase;)
      for (size_t j = groups_[i].count; j-- > 0;)
        body = make(groups_[i], teleNames_[groups_[i].first + j], body);
    return body;
  };
  if (accept(Tok::Arrow))
    return wrap(term(), [&](const Group& g, Name x, Raw* cod) {
      auto* p = node<RPi>(RKind::Pi, span(g.begin, cod->span.end));
      p->x = x;
      p->icit = g.icit;
      p->dom = g.ty;
      p->cod = cod;
      return p;
    });
  if (!anyImplicit && at(Tok::Times)) {
    advance();
    return wrap(piOrSigma(), [&](const Group& g, Name x, Raw* snd) {
      auto* s = node<RSigma>(RKind::Sigma, span(g.begin, snd->span.end));
      s->x = x;
      s->fst = g.ty;
      s->snd = snd;
      return s;
    });
  }
  if (anyImplicit) unexpected("'→' after implicit binders");
  // `(x : A)` alone is an annotated variable, parsed as an atom.
  bool single = nGroups == 1 && groups_[gBase].count == 1;
  if (!single && (nGroups > 1 || at(Tok::Eof))) unexpected("'→' or '×' after the binders");
  pos_ = save;
  notTelescope_[save] = 1;
  return nullptr;
}

Raw* Parser::sigmaLevel() {
  checkDepth();
  uint32_t b = peek().begin;
  Raw* t = operators(1);
  if (accept(Tok::Times)) {
    Raw* snd = nullptr;
    if (at(Tok::LParen)) snd = tryTelescope();
    if (!snd) snd = sigmaLevel();
    auto* s = node<RSigma>(RKind::Sigma, span(b, snd->span.end));
    s->x = names::underscore;
    s->fst = t;
    s->snd = snd;
    return s;
  }
  return t;
}

bool Parser::atomStart() const {
  switch (peek().kind) {
  case Tok::Ident:
  case Tok::U:
  case Tok::Hole:
  case Tok::GoalBlock:
  case Tok::LParen:
  case Tok::Number:
  case Tok::String:
  case Tok::AxiomName:
  case Tok::LBracket: return true;
  case Tok::Op: return atOp("?");
  default: return false;
  }
}

Raw* Parser::application() {
  uint32_t b = peek().begin;
  Raw* t;
  if (atOp("-") && peek(1).kind == Tok::Number) {
    // A negative literal where a term starts (`x * -1`, `f (-5)`); after a
    // term, `-` is subtraction (`f -5` is `f - 5`, as in Haskell).
    advance();
    Token n = advance();
    t = node<RLit>(RKind::Number, span(b, n.end));
  } else {
    if (!atomStart())
      unexpected("a term",
                 atOp("-") ? "only literals have a prefix '-' (-5, -2.5); negate x as 0 - x" : "");
    t = atom();
  }
  while (true) {
    Raw* arg;
    ArgInfo info;
    if (atomStart()) {
      arg = atom();
    } else if (at(Tok::LBrace)) {
      advance();
      if (at(Tok::Ident) && peek(1).kind == Tok::Eq) {
        Token n = advance();
        info.named = ident(n);
        info.nameSpan = span(n.begin, n.end);
        advance();
      }
      info.icit = Icit::Impl;
      arg = term();
      expect(Tok::RBrace, "'}'");
    } else if (at(Tok::Lambda) || at(Tok::Let) || at(Tok::If)) {
      arg = term();
    } else if (inPattern_ && at(Tok::Dot) && attached(peek(), peek(1)) &&
               (peek(1).kind == Tok::LParen || peek(1).kind == Tok::Ident)) {
      uint32_t db = advance().begin; // `.(t)`, `.x`: a dot pattern
      auto* d = node<RDot>(RKind::Dot, span(db, db));
      d->t = atom();
      d->span = spanFrom(db);
      arg = d;
    } else if (inPattern_ && atOp("-") && peek(1).kind == Tok::Number &&
               attached(peek(), peek(1))) {
      uint32_t nb = advance().begin; // (`f -1` in a pattern: a negative literal)
      arg = node<RLit>(RKind::Number, span(nb, advance().end));
    } else {
      break;
    }
    auto* a = node<RApp>(RKind::App, spanFrom(b));
    a->fn = t;
    a->arg = arg;
    a->info = info;
    t = a;
  }
  return t;
}

Raw* Parser::atom() {
  Token t = peek();
  Raw* r;
  switch (t.kind) {
  case Tok::LBracket: {
    advance();
    std::vector<Raw*> items;
    if (!at(Tok::RBracket)) {
      items.push_back(term());
      while (accept(Tok::Comma))
        items.push_back(term());
    }
    Token close = expect(Tok::RBracket, items.empty() ? "']'" : "',' or ']'");
    auto* a = node<RArray>(RKind::Array, span(t.begin, close.end));
    a->n = uint32_t(items.size());
    a->elems = arena_.array<Raw*>(items.size());
    for (size_t i = 0; i < items.size(); ++i)
      a->elems[i] = items[i];
    r = a;
    break;
  }
  case Tok::Ident:
  case Tok::AxiomName: {
    advance();
    auto* v = node<RVar>(RKind::Var, span(t.begin, t.end));
    v->name = ident(t);
    r = v;
    break;
  }
  case Tok::U:
    advance();
    r = node<Raw>(RKind::U, span(t.begin, t.end));
    break;
  case Tok::Op: {
    if (!atOp("?")) unexpected("a term");
    advance();
    // `?x`: in a filter, "is x known"; elsewhere a goal named x (`?` alone:
    // an anonymous one).
    auto* k = node<RKnown>(RKind::Known, span(t.begin, t.end));
    if (at(Tok::Ident) && attached(t, peek())) {
      Token x = advance();
      k->name = ident(x);
      k->span = span(t.begin, x.end);
    }
    r = k;
    break;
  }
  case Tok::Hole:
    advance();
    r = node<Raw>(RKind::Hole, span(t.begin, t.end));
    break;
  case Tok::GoalBlock: // (an anonymous goal, as `?`)
    advance();
    r = node<RKnown>(RKind::Known, span(t.begin, t.end));
    break;
  case Tok::Number:
    advance();
    r = node<RLit>(RKind::Number, span(t.begin, t.end));
    break;
  case Tok::String:
    advance();
    r = node<RLit>(RKind::String, span(t.begin, t.end));
    break;
  case Tok::LParen: {
    advance();
    if (at(Tok::RParen)) { // `()`: an absurd pattern
      r = node<Raw>(RKind::Absurd, span(t.begin, advance().end));
      break;
    }
    Raw* first = term();
    if (accept(Tok::Colon)) { // a type annotation
      auto* an = node<RAnn>(RKind::Ann, span(t.begin, t.begin));
      an->t = first;
      an->ty = term();
      an->span = span(t.begin, expect(Tok::RParen, "')'").end);
      r = an;
      break;
    }
    if (!at(Tok::Comma)) { // (most parentheses: no tuple, no vector)
      expect(Tok::RParen, "')'");
      r = first;
      break;
    }
    std::vector<Raw*> items{first};
    while (accept(Tok::Comma))
      items.push_back(term());
    Token close = expect(Tok::RParen, "',' or ')'");
    r = items.back();
    for (size_t i = items.size() - 1; i-- > 0;) {
      auto* p = node<RPair>(RKind::Pair, span(i == 0 ? t.begin : items[i]->span.begin, close.end));
      p->fst = items[i];
      p->snd = r;
      r = p;
    }
    break;
  }
  default: unexpected("a term");
  }
  return postfix(r);
}

Raw* Parser::postfix(Raw* t) {
  while (at(Tok::Dot) && pos_ > 0 && attached(toks_[pos_ - 1], peek()) &&
         attached(peek(), peek(1)) && (peek(1).kind == Tok::Number || peek(1).kind == Tok::Ident)) {
    advance();
    Token f = advance();
    auto* p = node<RProj>(RKind::Proj, span(t->span.begin, f.end));
    p->t = t;
    std::string_view s = std::string_view(src_.text).substr(f.begin, f.end - f.begin);
    if (f.kind == Tok::Number) {
      if (s == "1")
        p->proj = ProjKind::Fst;
      else if (s == "2")
        p->proj = ProjKind::Snd;
      else
        fail(span(f.begin, f.end), "a pair has only the projections .1 and .2");
    } else {
      p->proj = ProjKind::Field;
      p->field = ident(f);
    }
    t = p;
  }
  return t;
}

} // namespace thorin

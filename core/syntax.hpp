// Surface syntax ("raw" terms): what the parser produces. Names are interned,
// every node carries its source span. Allocated in the per-entry arena.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "names.hpp"
#include "source.hpp"

namespace thorin {

enum class Icit : uint8_t { Expl, Impl };

/// How an argument or lambda binder is given: `t`, `{t}`, or `{x = t}`.
struct ArgInfo {
  Icit icit = Icit::Expl;
  Name named;      // non-empty for `{x = t}`
  Span nameSpan{}; // the span of that name
};

enum class RKind : uint8_t {
  Var,
  Lam,
  App,
  U,
  Pi,
  Sigma,
  Pair,
  Proj,
  Let,
  Hole,
  Number,
  String,
  If,
  BinOp,
  Array,
  Ann,     // (t : A)
  Known,   // ?x in a partial-evaluation filter
  Case,    // case e of alternatives
  Clauses, // a definition by clauses (the entries `f p₁ … pₙ = t` after `f : A`)
  Absurd,  // `()` in a pattern
  Dot,     // `.(t)` or `.x` in a pattern: the value other patterns force
  Do       // `do` and its statements
};
enum class ProjKind : uint8_t { Fst, Snd, Field };

struct Raw {
  RKind kind;
  Span span;
};
struct RVar : Raw {
  Name name;
};
struct RLam : Raw {
  Name x; // binder (for `{A = y}`: x = y, info.named = A)
  ArgInfo info;
  Raw* ty; // optional annotation
  Raw* body;
  Span binderSpan; // the binder itself, for errors about its type
  // A partial-evaluation filter over the binders of its λ group (on the
  // innermost binder): `λ x n @(?n). t`; `@` alone is `filterAlways`.
  Raw* filter = nullptr;
  bool filterAlways = false;
};
struct RKnown : Raw {
  Name name;
};
struct RApp : Raw {
  Raw* fn;
  Raw* arg;
  ArgInfo info;
};
struct RPi : Raw {
  Name x;
  Icit icit;
  Raw* dom;
  Raw* cod;
};
struct RSigma : Raw {
  Name x;
  Raw* fst;
  Raw* snd;
};
struct RPair : Raw {
  Raw* fst;
  Raw* snd;
};
struct RProj : Raw {
  Raw* t;
  ProjKind proj;
  Name field;
};
struct RLet : Raw {
  Name x;
  Raw* ty; // optional
  Raw* def;
  Raw* body;
};
/// A statement of a `do` block: `x ← e`, `let x = e` (x may have a type),
/// or `e`.
enum class DoKind : uint8_t { Bind, Let, Expr };
struct RDoStmt {
  DoKind kind;
  Name x;    // Bind, Let: the name bound (`_` binds none)
  Span xSpan;
  Raw* ty;   // Let: optional
  Raw* e;
  Span span; // the whole statement
};
struct RDo : Raw {
  uint32_t n;
  RDoStmt* stmts;
};
struct RLit : Raw {}; // Number/String: text is the span
struct RIf : Raw {
  Raw* cond;
  Raw* then;
  Raw* els;
};
/// Binding strength of a binary operator, loosest first: || 1, && 2,
/// comparisons 3 (non-associative), + - 4, * / % 5; 0 for an unknown one.
inline int operatorPrecedence(std::string_view s) {
  if (s == "||") return 1;
  if (s == "&&") return 2;
  if (s == "==" || s == "!=" || s == "<" || s == "<=" || s == ">" || s == ">=") return 3;
  if (s == "+" || s == "-") return 4;
  if (s == "*" || s == "/" || s == "%") return 5;
  return 0;
}

struct RBinOp : Raw {
  Name op; // "+", "==", …
  Span opSpan;
  Raw* lhs;
  Raw* rhs;
};
struct RAnn : Raw {
  Raw* t;
  Raw* ty;
};
struct RArray : Raw {
  Raw** elems;
  uint32_t n;
};

/// `pattern → rhs` of a case, or `f p₁ … pₙ = rhs` (pattern: that application).
struct RClause {
  Raw* lhs;
  Raw* rhs;
  Span span; // the whole clause
};
struct RDot : Raw {
  Raw* t;
};
struct RCase : Raw {
  Raw* scrut;
  RClause* alts;
  uint32_t n;
};
struct RClauses : Raw {
  Name fn;
  RClause* clauses;
  uint32_t n;
};

template <class T> T* as(Raw* r) { return static_cast<T*>(r); }

/// A top-level entry of a file or a REPL input.
// Signature: `x : A` alone, completed by a following entry `x = t` (Agda style).
enum class EntryKind : uint8_t {
  Def,
  Clauses, // `f p₁ … pₙ = t` lines (one entry): completed by the signature before them
  Mutual,  // `mutual` and the entries indented under it, checked together
  Data, // `data T tel : A where` and its constructors
  Signature,
  Import,
  Plugin,
  Check,
  Nf,
  Eval,
  Postulate,
  Expr,
  Other
};

/// Does an entry of this kind add definitions to the world (and so stay)?
inline bool makesDefinitions(EntryKind k) {
  return k == EntryKind::Def || k == EntryKind::Postulate || k == EntryKind::Data ||
         k == EntryKind::Mutual;
}

/// A constructor of a `data` declaration: `name : type` on a line of its own.
struct ConDecl {
  Name name;
  Span nameSpan;
  Raw* ty;
};

struct Entry {
  EntryKind kind;
  Span span; // the whole entry
  Name name; // Def / Postulate
  Span nameSpan;
  Raw* ty = nullptr;  // Def (optional) / Postulate
  Raw* def = nullptr; // Def body / Check / Nf / Expr term
  bool elabtime = false, nftime = false;
  // `name @(e) : A = λ …`: a filter, moved onto the body's λ group.
  Raw* filter = nullptr;
  bool filterAlways = false;
  Span filterSpan;
  std::string path;      // Import: the file; Plugin: the plugin's name
  std::string directive; // Other: the directive's name, e.g. ".eval"
  // Data: `ty` is Π (parameters) → the type after the colon; the first
  // `params` binders of it are the parameters.
  uint32_t params = 0;
  std::vector<ConDecl> cons;
  std::vector<RClause> clauses; // Clauses
  std::vector<Entry> block;     // Mutual: its entries (signatures, data types, definitions)
};

} // namespace thorin

// Core terms: de Bruijn indices, no names except for printing. Produced by the
// elaborator, stored per top-level entry.
#pragma once
#include <cstdint>

#include "arena.hpp"
#include "names.hpp"
#include "syntax.hpp"

namespace thorin {

using Ix = uint32_t;  // de Bruijn index
using Lvl = uint32_t; // de Bruijn level
using MetaId = uint32_t;
using TopId = uint32_t;

enum class TTag : uint8_t {
  Var,          // n = index
  Top,          // n = top-level id
  Meta,         // n = meta id
  InsertedMeta, // n = meta id applied to the bound variables selected by mask[0..len)
  App,          // a b, icit
  Lam,          // name, icit, a = body; c = partial-evaluation filter (or null)
  Pi,           // name, icit, a = domain, b = codomain
  Sigma,        // name, a = first, b = second
  Pair,         // a, b
  Proj1,        // a
  Proj2,        // a
  Field,        // a.name: n = number of .2 before the final .1 (printing only)
  Let,          // name, a = type, b = definition, c = body
  U,
  Irrelevant, // placeholder that unifies with anything (never in user terms)
  Lit,        // n = LitKind, bits / big: the literal (see literal.hpp)
  If,         // a = condition, b = then, c = else (only the branch taken is evaluated)
  Arr,        // array literal: n = length, elems
  Known,      // ?x in a filter: n = index of x (only under a Lam's filter)
  // A case tree node: a = scrutinee (a value of data type m), n alternatives
  // in `alts`, each's body under its constructor's fields (parameters left
  // out) as binders, the first field outermost. Only the alternative taken is
  // evaluated; on a neutral scrutinee it is stuck (Elim::Case).
  Case,
  // The codomain of a Π or Σ the elaborator inferred (of `λ x. t`, of a
  // pair) as the value it already has: `val`, computed in `env` extended by
  // the variable of level n (m = 1: by anything, it does not depend on it).
  // Evaluated in such an environment it is `val`; in any other, the term `b`,
  // quoted from `val` the first time it is needed. (Quoting every inferred codomain made inferring
  // n nested λs or an n-tuple quadratic.) Only ever the body of such a closure: never in a stored
  // term.
  Embed,
};

/// An Irrelevant node with this n stands for a part of a term cut for
/// printing (QuoteOpts::budget): printed "…".
constexpr uint32_t kCutTerm = 1;

struct Tm {
  TTag tag;
  Icit icit = Icit::Expl;
  mutable uint8_t usesVar0 = 0; // cache for dependsOnVar0(): 0 unknown, 1 yes, 2 no
  // Cache for freeIn(): 0 unknown, else 1 + a bound B on the variables the
  // term mentions (indices < B); 255: no useful bound. With it, asking
  // about each codomain of an n-fold Π (f applied to n arguments) costs
  // O(n) in all, not O(n²).
  mutable uint8_t freeBound1 = 0;
  Name name;
  uint32_t n = 0;
  uint32_t m = 0; // InsertedMeta: mask length; App of a builtin: World::spans index + 1
  union {
    Tm* a = nullptr;
    const uint8_t* mask; // InsertedMeta: 1 = bound variable, 0 = let-defined
    uint64_t bits;       // Lit: small Nat, I64, F64 (bit pattern), Bool, Idx
    const void* big;     // Lit: big Nat (BigNat*) or String (StrLit*)
    Tm** elems;          // Arr
    struct Val* val;     // Embed
  };
  union {
    Tm* b = nullptr;
    struct CaseAlt* alts; // Case
  };
  union {
    Tm* c = nullptr;
    struct Env* env; // Embed
  };
};

/// One alternative of a Case: the constructor (kDefaultAlt: any other
/// value, no fields), its fields' names (printing) and the body under them.
struct CaseAlt {
  TopId con;
  uint32_t arity;
  const Name* names;
  Tm* body;
};
constexpr TopId kDefaultAlt = 0xffffffffu;

/// Does `t` mention the variable with de Bruijn index `ix`?
bool freeIn(const Tm* t, Ix ix);
/// Does `t` mention the top-level entry `id` (a definition calling itself)?
bool mentionsTop(const Tm* t, TopId id);
/// `freeIn(body, 0)`, cached in the term: does a Π/Σ codomain depend on its
/// variable? (If not, the argument's value is never needed to instantiate it.)
inline bool dependsOnVar0(const Tm* body) {
  if (!body->usesVar0) body->usesVar0 = freeIn(body, 0) ? 1 : 2;
  return body->usesVar0 == 1;
}

inline Tm* mkTm(Arena& a, TTag tag) {
  Tm* t = a.make<Tm>();
  t->tag = tag;
  return t;
}

inline Tm* mkIf(Arena& a, Tm* c, Tm* t, Tm* e) {
  Tm* r = mkTm(a, TTag::If);
  r->a = c;
  r->b = t;
  r->c = e;
  return r;
}

inline Tm* mkApp(Arena& a, Tm* f, Tm* x, Icit i) {
  Tm* t = mkTm(a, TTag::App);
  t->a = f;
  t->b = x;
  t->icit = i;
  return t;
}

} // namespace thorin

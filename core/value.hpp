// Values: de Bruijn levels, closures, neutral spines, and glued top-level
// applications that keep both the folded head+spine and a lazily computed
// unfolding. Allocated in the per-entry scratch arena.
#pragma once
#include "term.hpp"

namespace thorin {

struct Val;

struct Env {
  Env* prev;
  Val* v;
};

// `If` is a stuck conditional: arg is a Thunk holding the If term and its
// environment; the branches are evaluated once the condition is known.
// `Case` likewise: a stuck case tree node, arg a Thunk of the Case term.
enum class Elim : uint8_t { App, Proj1, Proj2, If, Case };

/// Eliminations applied to a neutral head, innermost first via `prev`.
struct Spine {
  Spine* prev;
  Val* arg; // App only
  Elim kind;
  Icit icit;
  uint32_t len;
};

enum class VTag : uint8_t {
  Rigid, // n = level, sp
  Flex,  // n = meta, sp; a = cached unfolding once solved; b = prefix (see neutral())
  Top,   // n = top id, sp; a = cached unfolding (glued); b = prefix
  Lam,   // name, icit, env, body
  Pi,    // name, icit, a = domain, env, body (codomain closure)
  Sigma, // name, a = first, env, body
  Pair,  // a, b
  U,
  Irrelevant,
  Lit,   // n = LitKind, bits / big
  Arr,   // n = length, elems
  Thunk, // env, body (the If or Case term of a stuck conditional or case)
};

struct Val {
  VTag tag;
  Icit icit = Icit::Expl;
  uint8_t axiom = 0; // Top: the head is an axiom with a normalizer
  // Top: facts about the definition found so far (copied from the head to the
  // applications built on it), sparing the hot paths a look-up in World::tops.
  uint8_t topFacts = 0;
  Name name;
  uint32_t n = 0;
  uint32_t gen = 0; // the nursery it was made in (0: none); fills padding
  union {
    Val* a = nullptr;
    uint64_t bits;   // Lit
    const void* big; // Lit: BigNat* / StrLit*
  };
  union {
    Spine* sp = nullptr;
    Env* env;
    Val** elems; // Arr
  };
  union {
    Tm* body = nullptr;
    Val* b;
  };
};

enum TopFact : uint8_t { kTopNotRecursive = 1, kTopNotClosedCallable = 2 };

struct Closure {
  Env* env;
  Tm* body;
};

} // namespace thorin

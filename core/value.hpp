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

enum class Elim : uint8_t { App, Proj1, Proj2 };

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
};

struct Val {
  VTag tag;
  Icit icit = Icit::Expl;
  Name name;
  uint32_t n = 0;
  uint32_t gen = 0; // the nursery it was made in (0: none); fills padding
  Val* a = nullptr;
  union {
    Spine* sp = nullptr;
    Env* env;
  };
  union {
    Tm* body = nullptr;
    Val* b;
  };
};

struct Closure {
  Env* env;
  Tm* body;
};

} // namespace thorin

// Core terms: de Bruijn indices, no names except for printing. Produced by the
// elaborator, stored per top-level entry.
#pragma once
#include <cstdint>

#include "arena.hpp"
#include "names.hpp"
#include "syntax.hpp"

namespace thorin {

using Ix = uint32_t;     // de Bruijn index
using Lvl = uint32_t;    // de Bruijn level
using MetaId = uint32_t;
using TopId = uint32_t;

enum class TTag : uint8_t {
  Var,          // n = index
  Top,          // n = top-level id
  Meta,         // n = meta id
  InsertedMeta, // n = meta id applied to the bound variables selected by mask[0..len)
  App,          // a b, icit
  Lam,          // name, icit, a = body
  Pi,           // name, icit, a = domain, b = codomain
  Sigma,        // name, a = first, b = second
  Pair,         // a, b
  Proj1,        // a
  Proj2,        // a
  Field,        // a.name: n = number of .2 before the final .1 (printing only)
  Let,          // name, a = type, b = definition, c = body
  U,
  Irrelevant,   // placeholder that unifies with anything (never in user terms)
};

struct Tm {
  TTag tag;
  Icit icit = Icit::Expl;
  Name name;
  uint32_t n = 0;
  uint32_t m = 0; // InsertedMeta: mask length
  union {
    Tm* a = nullptr;
    const uint8_t* mask; // InsertedMeta: 1 = bound variable, 0 = let-defined
  };
  Tm* b = nullptr;
  Tm* c = nullptr;
};

inline Tm* mkTm(Arena& a, TTag tag) {
  Tm* t = a.make<Tm>();
  t->tag = tag;
  return t;
}

} // namespace thorin

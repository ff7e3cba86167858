// Literals of the builtin data (Nat, I64, F64, Bool, Unit, Idx, String): their
// representation in terms and values, and how they print. Small naturals are
// unboxed in `bits`; naturals of 2^64 and more live in GMP numbers.
#pragma once
#include <gmp.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "world.hpp"

namespace thorin {

enum class LitKind : uint32_t { Nat, BigNat, I64, F64, Bool, Unit, Idx, Str };

struct StrLit {
  uint32_t len;
  char data[1]; // len bytes follow
};

/// An immutable GMP natural, kept for the whole process (big literals are rare).
struct BigNat {
  mpz_t z;
};
const BigNat* internBig(const mpz_t z);

/// Literal values. Naturals below 2^64 are always `LitKind::Nat`.
Val* vLit(World& w, LitKind k, uint64_t bits);
Val* vNat(World& w, const mpz_t z);
Val* vStr(World& w, std::string_view s);
Val* vF64(World& w, double d);
Val* vBool(World& w, bool b);
double litF64(const Val* v);
std::string_view litStr(const void* big);
/// The natural in `v` (Nat or BigNat) as a GMP number.
void litNat(const Val* v, mpz_t out);

Tm* tmOfLit(Arena& a, const Val* v);
Val* valOfLit(World& w, const Tm* t);

/// Printing, as `.eval` and normal forms show them.
std::string showLit(LitKind k, uint64_t bits, const void* big);
std::string showF64(double d);
std::string quoteString(std::string_view s);

/// Decodes the escapes of a string literal's text (without the quotes).
std::string unescape(std::string_view s);

} // namespace thorin

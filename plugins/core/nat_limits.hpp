// Naturals are as large as memory allows, but a product of more than 2^30
// bits (128 MB) is refused: GMP aborts the whole process when an allocation
// fails, which a REPL session must not do. (Sums grow by one bit at a time.)
#pragma once
#include <gmp.h>

#include <cstddef>

namespace thorin::plug::core {

constexpr size_t kMaxNatBits = size_t(1) << 30;

inline bool productTooLarge(const mpz_t x, const mpz_t y) {
  return mpz_sizeinbase(x, 2) + mpz_sizeinbase(y, 2) > kMaxNatBits;
}

} // namespace thorin::plug::core

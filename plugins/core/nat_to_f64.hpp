// A big Nat to the nearest F64, shared by the normalizer (elaboration time)
// and the run-time primitive. GMP's mpz_get_d truncates; glibc's strtod
// rounds correctly (to nearest, ties to even; past the range, infinity).
#pragma once
#include <gmp.h>

#include <cstdlib>
#include <memory>

namespace thorin::plug::core {

inline double natToF64Nearest(const mpz_t z) {
  std::unique_ptr<char[]> digits(new char[mpz_sizeinbase(z, 10) + 2]);
  mpz_get_str(digits.get(), 10, z);
  return std::strtod(digits.get(), nullptr);
}

} // namespace thorin::plug::core

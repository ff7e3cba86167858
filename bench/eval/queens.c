/* n-queens 10: counts the solutions (724), row by row, with the attacked
   columns and diagonals as bit sets. The bit operations are written with the
   arithmetic that queens.thorin uses (the language has no bit operations):
   bit b of m is (m / b) % 2, setting it adds b, the diagonals shift by * 2
   and / 2. `lim` is 2^n, `b` runs over 1, 2, 4, ... < lim. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int64_t queens(int64_t lim, int64_t cols, int64_t ld, int64_t rd, int64_t b) {
  if (cols == lim - 1) return 1;
  if (b == lim) return 0;
  int64_t here = (cols / b) % 2 == 0 && (ld / b) % 2 == 0 && (rd / b) % 2 == 0
                     ? queens(lim, cols + b, (ld + b) * 2, (rd + b) / 2, 1)
                     : 0;
  return here + queens(lim, cols, ld, rd, b * 2);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  printf("%lld\n", (long long)queens((int64_t)1 << n, 0, 0, 0, 1));
  return 0;
}

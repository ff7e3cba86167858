/* ackermann(3, 9) on 64-bit integers (as ack.thorin). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int64_t ack(int64_t m, int64_t n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

int main(int argc, char **argv) {
  int64_t m = argc > 2 ? atoll(argv[1]) : 3, n = argc > 2 ? atoll(argv[2]) : 9;
  printf("%lld\n", (long long)ack(m, n));
  return 0;
}

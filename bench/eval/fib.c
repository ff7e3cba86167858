/* fib 32 on 64-bit integers, naive and doubly recursive (as fib.thorin).
   The argument comes from the command line (default 32) so that gcc cannot
   fold the call at compile time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int64_t fib(int64_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 32;
  printf("%lld\n", (long long)fib(n));
  return 0;
}

// Σ x^13 for x = 1 … 500 000 000, wrapping: the exponent written in.
#include <stdint.h>
#include <stdio.h>
static uint64_t pow13(uint64_t x) { return x * x * x * x * x * x * x * x * x * x * x * x * x; }
int main(void) {
  uint64_t acc = 0;
  for (uint64_t x = 500000000; x > 0; --x) acc += pow13(x);
  printf("%lld\n", (long long)acc);
  return 0;
}

// A 4×4 matrix times each window of 4 of a 1024-element signal, 100 000 times;
// Σ yᵣ² of y = M x. The sizes written in.
#include <stdint.h>
#include <stdio.h>
static int64_t mv4(const int64_t* m, const int64_t* x) {
  int64_t s = 0;
  for (int r = 0; r < 4; ++r) {
    int64_t y = m[4 * r] * x[0] + m[4 * r + 1] * x[1] + m[4 * r + 2] * x[2] + m[4 * r + 3] * x[3];
    s += y * y;
  }
  return s;
}
int main(int argc, char** argv) {
  (void)argv;
  // k is 0, but the compiler cannot know it: the data stay data, as in the
  // thorin program (only the sizes and constants named above are written in).
  int64_t k = argc - 1;
  static int64_t xs[1024], m[16];
  for (int i = 0; i < 1024; ++i) xs[i] = i * 7 % 13 + k;
  for (int i = 0; i < 16; ++i) m[i] = i % 5 - 2 + k;
  int64_t acc = 0;
  for (int r = 0; r < 100000; ++r)
    for (int off = 0; off + 4 <= 1024; ++off) acc += mv4(m, xs + off);
  printf("%lld\n", (long long)acc);
  return 0;
}

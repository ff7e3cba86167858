// Sliding dot products of 8 weights with a 1024-element signal, 200 000 times:
// the size written in; weights and signal are data.
#include <stdint.h>
#include <stdio.h>
static int64_t dot8(const int64_t* xs, const int64_t* w, int off) {
  return xs[off] * w[0] + xs[off + 1] * w[1] + xs[off + 2] * w[2] + xs[off + 3] * w[3] +
         xs[off + 4] * w[4] + xs[off + 5] * w[5] + xs[off + 6] * w[6] + xs[off + 7] * w[7];
}
int main(int argc, char** argv) {
  (void)argv;
  // k is 0, but the compiler cannot know it: the data stay data, as in the
  // thorin program (only the sizes and constants named above are written in).
  int64_t k = argc - 1;
  static int64_t xs[1024], w[8];
  for (int i = 0; i < 1024; ++i) xs[i] = i * 7 % 13 + k;
  for (int i = 0; i < 8; ++i) w[i] = i - 3 + k;
  int64_t acc = 0;
  for (int r = 0; r < 200000; ++r)
    for (int off = 0; off + 8 <= 1024; ++off) acc += dot8(xs, w, off);
  printf("%lld\n", (long long)acc);
  return 0;
}

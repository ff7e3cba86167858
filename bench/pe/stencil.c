// A 5-point blur with the kernel [1, 4, 6, 4, 1] written in, over a
// 1024-element signal, 200 000 times.
#include <stdint.h>
#include <stdio.h>
int main(int argc, char** argv) {
  (void)argv;
  // k is 0, but the compiler cannot know it: the data stay data, as in the
  // thorin program (only the sizes and constants named above are written in).
  int64_t k = argc - 1;
  static int64_t xs[1024];
  for (int i = 0; i < 1024; ++i) xs[i] = i * 7 % 13 + k;
  int64_t acc = 0;
  for (int r = 0; r < 200000; ++r)
    for (int j = 0; j + 5 <= 1024; ++j)
      acc += (xs[j] + 4 * xs[j + 1] + 6 * xs[j + 2] + 4 * xs[j + 3] + xs[j + 4]) / 16;
  printf("%lld\n", (long long)acc);
  return 0;
}

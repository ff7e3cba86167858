/* Binary-trees (the Benchmarks Game), one thread, as bintrees.thorin: a
   tree node per malloc, freed after its tree is checked; a leaf is NULL
   (a tree of depth d: 2^d - 1 nodes, 2^d leaves, checksum 2^(d+1) - 1).
   Depth from the command line (default 21); prints the sum of the
   checksums (the stretch tree's, each depth's over its iterations, the
   long-lived tree's). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct node { struct node *l, *r; } node;  /* a leaf is NULL */

static node *make(int d) {
  if (d == 0) return NULL;
  node *t = malloc(sizeof *t);
  if (!t) abort();
  t->l = make(d - 1);
  t->r = make(d - 1);
  return t;
}

static uint64_t check(const node *t) { return t ? 1 + check(t->l) + check(t->r) : 1; }

static void release(node *t) {
  if (t) {
    release(t->l);
    release(t->r);
    free(t);
  }
}

static uint64_t check_and_free(node *t) {
  uint64_t c = check(t);
  release(t);
  return c;
}

int main(int argc, char **argv) {
  int min_d = 4, n = argc > 1 ? atoi(argv[1]) : 21;
  int max_d = n < min_d + 2 ? min_d + 2 : n;
  uint64_t total = check_and_free(make(max_d + 1));  /* the stretch tree */
  node *long_lived = make(max_d);
  for (int d = min_d; d <= max_d; d += 2) {
    uint64_t iterations = (uint64_t)1 << (max_d - d + min_d);
    for (uint64_t i = 0; i < iterations; i++) total += check_and_free(make(d));
  }
  total += check_and_free(long_lived);
  printf("%llu\n", (unsigned long long)total);
  return 0;
}

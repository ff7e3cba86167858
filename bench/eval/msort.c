/* Merge sort of 10^6 pseudo-random numbers on a singly linked list, as
   msort.thorin: a cons cell per malloc. The sort does what the functional
   versions do, with malloc and free for the collector: each merge builds
   new cells onto an accumulator (so it gives the reverse order, and the
   halves are sorted the other way round) and frees the cells it has read.
   Size from the command line (default 1000000); prints the checksum of the
   sorted list. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct cell { uint64_t head; struct cell *tail; } cell;  /* nil is NULL */

static cell *cons(uint64_t x, cell *t) {
  cell *c = malloc(sizeof *c);
  if (!c) abort();
  c->head = x;
  c->tail = t;
  return c;
}

/* The head of *xs, whose cell is freed; *xs moves on. */
static uint64_t pop(cell **xs) {
  cell *c = *xs;
  uint64_t x = c->head;
  *xs = c->tail;
  free(c);
  return x;
}

static cell *gen(uint64_t n, uint64_t s, cell *acc) {
  for (; n > 0; n--, s = (s * 1103515245 + 12345) % 2147483648) acc = cons(s, acc);
  return acc;
}

/* xs and ys, ascending (up = 0) or descending (up = 1), merged onto acc in
   the other order. */
static cell *merge(int up, cell *xs, cell *ys, cell *acc) {
  while (xs && ys) {
    int x_first = up ? ys->head <= xs->head : xs->head <= ys->head;
    acc = cons(pop(x_first ? &xs : &ys), acc);
  }
  while (xs) acc = cons(pop(&xs), acc);
  while (ys) acc = cons(pop(&ys), acc);
  return acc;
}

typedef struct { cell *sorted, *rest; } run;

/* The first n (>= 1) cells of xs sorted ascending (asc) or descending, and
   the rest of xs; the halves are sorted the other way round. */
static run srt(int asc, uint64_t n, cell *xs) {
  if (n == 1) {
    if (!xs) return (run){NULL, NULL};
    uint64_t x = pop(&xs);
    return (run){cons(x, NULL), xs};
  }
  run a = srt(!asc, n / 2, xs);
  run b = srt(!asc, n - n / 2, a.rest);
  return (run){merge(asc, a.sorted, b.sorted, NULL), b.rest};
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000, acc = 0, i = 1;
  cell *xs = srt(1, n, gen(n, 42, NULL)).sorted;
  while (xs) acc = (acc + i++ * pop(&xs)) % 1000000007;
  printf("%llu\n", (unsigned long long)acc);
  return 0;
}

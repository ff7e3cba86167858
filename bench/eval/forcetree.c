/* ForceTree (as forcetree.thorin): the complete binary tree of depth d
   (argument, default 20), built as the Church-encoded fullTree builds it —
   d nodes, each with both children the same subtree — and folded with
   boolean and by a generic fold (leaf value and node function), which
   visits all 2^d leaves like the Church tree applied to its algebra. */
#include <stdio.h>
#include <stdlib.h>

typedef struct Tree {
  const struct Tree *l, *r; /* a leaf has l == r == NULL */
} Tree;

typedef int (*Node)(int, int);

static int fold(const Tree *t, int leaf, Node node) {
  if (!t->l) return leaf;
  int a = fold(t->l, leaf, node);
  int b = fold(t->r, leaf, node);
  return node(a, b);
}

static int and_(int a, int b) { return a ? b : 0; }

int main(int argc, char **argv) {
  int d = argc > 1 ? atoi(argv[1]) : 20;
  Tree *t = calloc(1, sizeof *t); /* leaf */
  for (int i = 0; i < d; i++) {
    Tree *n = malloc(sizeof *n);
    n->l = n->r = t;
    t = n;
  }
  puts(fold(t, 1, and_) ? "true" : "false");
  return 0;
}

/* NfTree (as nftree.thorin): the normal form of the complete Church tree of
   depth d (argument, default 20), λ T l n. n (n … …) (n … …), built from the
   shared tree (d nodes whose children are one subtree) by folding it into a
   fresh, unshared term: 2^d - 1 application nodes over the one variable `l`,
   allocated from a bump arena as a normalizer would. Prints "normalized" and
   the number of nodes of the normal form. */
#include <stdio.h>
#include <stdlib.h>

typedef struct Tree {
  const struct Tree *l, *r; /* a leaf has l == r == NULL */
} Tree;

static Tree *arena, *next;

static const Tree *mk(const Tree *a, const Tree *b) {
  Tree *n = next++;
  n->l = a;
  n->r = b;
  return n;
}

static const Tree *fold(const Tree *t, const Tree *leaf) {
  if (!t->l) return leaf;
  const Tree *a = fold(t->l, leaf);
  const Tree *b = fold(t->r, leaf);
  return mk(a, b);
}

static long count(const Tree *t) { return t->l ? 1 + count(t->l) + count(t->r) : 0; }

int main(int argc, char **argv) {
  int d = argc > 1 ? atoi(argv[1]) : 20;
  static Tree var_l; /* the bound variable `l` */
  Tree *t = calloc(1, sizeof *t);
  for (int i = 0; i < d; i++) {
    Tree *n = malloc(sizeof *n);
    n->l = n->r = t;
    t = n;
  }
  next = arena = malloc(sizeof(Tree) << d);
  const Tree *nf = fold(t, &var_l);
  printf("normalized: %ld nodes\n", count(nf));
  return 0;
}

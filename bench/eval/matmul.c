/* 256×256 double matrix multiply (as matmul.thorin): A[i][j] = (i*j) mod 7,
   B[i][j] = (i + 2j) mod 5, C = A B by the naive i-j-k loops; prints the sum
   of C's entries, row by row. */
#include <stdio.h>
#include <stdlib.h>

#define N 256
static double A[N][N], B[N][N], C[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (double)((i * j) % 7);
      B[i][j] = (double)((i + 2 * j) % 5);
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0.0;
      for (int k = 0; k < N; k++) s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += C[i][j];
  printf("%.1f\n", sum);
  return 0;
}

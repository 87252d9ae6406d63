#include <stdio.h>
void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    printf("%d", i); // want "call to printf with side effects"
#pragma endscop
}

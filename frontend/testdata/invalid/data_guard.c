void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    if (x[i] > 0)
      x[i] = 0; // want "condition is not affine: x\[i\] > 0 reads memory, and a data-dependent if may only assign scalar variables"
#pragma endscop
}

void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n*m; i++) // want "bound is not affine: n\s*\*\s*m"
    x[0] = 0;
#pragma endscop
}

void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    m = i; // want "assignment to function parameter m"
    for (j = 0; j < m; j++) // want "bound is not affine: m"
      x[j] = 0;
  }
#pragma endscop
}

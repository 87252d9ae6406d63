void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    x[i*i] = 0; // want "non-affine subscript i\*i"
#pragma endscop
}

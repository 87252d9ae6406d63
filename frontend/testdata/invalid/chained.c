void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = A[i][i] = 0; // want "chained assignment"
#pragma endscop
}

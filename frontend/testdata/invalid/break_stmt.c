void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    if (i > 3) break; // want "break"
    x[i] = 0;
  }
#pragma endscop
}

void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = foo(x[i]); // want "call to foo, which may have side effects"
#pragma endscop
}

void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i += 2)
    x[i] = 0;
  x[0] = i; // want "after its loop needs a floor division"
#pragma endscop
}

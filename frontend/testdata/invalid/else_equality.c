void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    if (i == 2)
      x[i] = 0;
    else // want "else branch"
      x[i] = 1;
#pragma endscop
}

void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    i = i + 1; // want "assignment to loop counter i"
#pragma endscop
}

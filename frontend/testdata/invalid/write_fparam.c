void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  alpha = 2; // want "assignment to function parameter alpha"
#pragma endscop
}

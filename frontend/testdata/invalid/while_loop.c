void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  while (n > 0) { // want "while loop"
    x[0] = 1;
  }
#pragma endscop
}

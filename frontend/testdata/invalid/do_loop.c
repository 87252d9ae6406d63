void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  do { // want "do-while loop"
    x[0] = 1;
  } while (0);
#pragma endscop
}

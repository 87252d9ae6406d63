void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < 10; i++)
    n = i; // want "assignment to (loop counter|function parameter) n"
#pragma endscop
}

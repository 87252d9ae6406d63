#define MIN(a,b) ((a) < (b) ? (a) : (b))
void f(int n, int m, double A[n][n], double x[n], double alpha) {
  int i, j;
#pragma scop
  for (i = MIN(n, m > 2 * n ? m : 2 * n); i < n; i++) // want "not convex"
    x[i] = 0;
#pragma endscop
}

#include <math.h>
#define MIN(a,b) ((a) < (b) ? (a) : (b))
double G[100];
void kernel(int n, int m, double alpha, double A[n][m], double x[m], double y[n]) {
  int i, j;
  double s;
#pragma scop
  for (i = n - 1; i >= 0; i -= 2) {
    s = 0;
    for (j = 0; j <= MIN(i, m - 1) && j < 100; j++) {
      double t = A[i][j] * x[j];
      s += t;
      if (j >= 1)
        G[j] = G[j-1] + sqrt(fabs(t));
    }
    y[i] = alpha * s;
  }
#pragma endscop
}

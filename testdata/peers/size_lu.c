// LU without pivoting with a constant size, #define N 500: the scheduler's exact arithmetic overflowed int64 here (N = 300 did not).
#define N 500
double a[N][N];

void kernel(void) {
#pragma scop
  for (int k = 0; k < N; k++) {
    for (int j = k + 1; j < N; j++)
      a[k][j] = a[k][j] / a[k][k];
    for (int i = k + 1; i < N; i++)
      for (int j = k + 1; j < N; j++)
        a[i][j] = a[i][j] - a[i][k] * a[k][j];
  }
#pragma endscop
}

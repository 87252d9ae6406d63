// Remainders in guards (i % 3 == 0) and in subscripts with an offset ((j + 2) % 3), over a symbolic size.
#define N 40
void kernel(int n, double A[n][3], double B[n][n], double x[n]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0)
      x[i] = 2.0 * x[i];
    for (int j = 0; j < n; j++)
      A[i][(j + 2) % 3] += B[i][j] * x[j];
  }
#pragma endscop
}

// Subscripts that divide a counter by the step of its loop (i / 3 in a loop "i += 3"), going up and going
// down, with a first value that is not a multiple of the step, next to a guard on the same counter.
#define N 40
void kernel(int n, double A[n], double B[3 * n + 3], double C[n][2 * n]) {
#pragma scop
  for (int i = 0; i < 3 * n; i += 3)
    A[i / 3] = B[i] + i;
  for (int i = 3 * n - 1; i >= 2; i -= 3)
    A[(i - 2) / 3] += B[i + 1] * 0.5;
  for (int i = 1; i < n; i++)
    for (int j = 1; j < 2 * n; j += 2) {
      C[i][j / 2] = C[i - 1][j / 2] + A[j / 2 % 5];
      if (j % 4 == 1)
        C[i][j / 2 + 1] -= A[i];
    }
#pragma endscop
}

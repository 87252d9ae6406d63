/* Single-precision row sums, and their total through a pointer. */
#define N 50
#define M 1000

static void kernel_fsum(int n, int m, float A[N][M], float s[N], float *total)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    s[i] = 0.0f;
    for (int j = 0; j < m; j++)
      s[i] += A[i][j];
  }
  for (int i = 0; i < n; i++)
    *total += s[i];
#pragma endscop
}

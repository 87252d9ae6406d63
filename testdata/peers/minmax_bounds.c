// Min and max bounds on both sides: a min on the lower side and a max on the upper side run a union of pieces.
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define N 40
#define M 25
void kernel(int n, int m, double A[n][n], double x[n]) {
#pragma scop
  for (int i = MIN(m, n / 2); i < n; i++)
    for (int j = 0; j <= MAX(i - 3, m - i); j++)
      if (j < n)
        A[i][j] = A[i][j] * 0.5 + x[j];
  for (int i = 0; i < n; i++)
    for (int j = MAX(0, i - 4); j < MIN(n, i + 5); j++)
      x[i] += A[i][j];
#pragma endscop
}

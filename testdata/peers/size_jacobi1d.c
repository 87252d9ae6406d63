// Pluto's jacobi-1d-imper shape with constant sizes N = 4000, T = 100 (the loops start at 2): overflowed int64 before.
#define N 4000
#define T 100
double a[N], b[N];

void kernel(void) {
  int t, i;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 2; i < N - 1; i++)
      b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
    for (i = 2; i < N - 1; i++)
      a[i] = b[i];
  }
#pragma endscop
}

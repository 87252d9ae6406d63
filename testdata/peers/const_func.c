// Calls of functions declared __attribute__((const)) (a value of the arguments) and pure (the region writes only locals).
#define N 48
double x[N][N], y[N];
double total;

__attribute__((const)) static inline double weight(int i, int j) { return 1.0 / (1 + i + 2 * j); }
__attribute__((pure)) static double norm2(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i];
  return s;
}

void kernel(void) {
  double s = 0.0;
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i][j] = x[i][j] * weight(i, j) + y[j];
#pragma endscop
#pragma scop
  for (int i = 0; i < N; i++)
    s += norm2(i) * 0.5;
#pragma endscop
  total = s;
}

// Loop counters read after their loops: the final value is affine piecewise (n, or 0 when the loop never ran).
#define N 30
#define M 7
void kernel(int n, int m, double x[n + m + 1], double y[n + m + 3]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = 2.0 * x[i];
  x[i] = x[i] + 1.0;
  for (j = i; j < n + m; j += 3)
    y[j] = x[j - i] + 1.0;
  for (int k = j; k < n + m + 3; k++)
    y[k] = 7.0;
  x[i] += 1.0;
  y[0] = 0.5 * i;
#pragma endscop
}

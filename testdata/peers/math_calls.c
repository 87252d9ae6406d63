// Pure math functions of math.h (double, float and their mix) inside a stencil.
#include <math.h>
#define N 64
#define T 4
double a[N], b[N], c[N];
float f[N], g[N];

void kernel(double s) {
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < N - 1; i++)
      b[i] = log10(1.0 + a[i - 1] * a[i - 1]) + log2(2.0 + fabs(a[i + 1])) + log1p(fabs(a[i])) * s
           + expm1(a[i] * 0.01) + exp2(a[i] * 0.1) + tan(a[i] * 0.3) + atan2(a[i], 1.0 + a[i + 1] * a[i + 1]);
    for (int i = 1; i < N - 1; i++)
      a[i] = asin(tanh(b[i])) + acos(tanh(b[i - 1])) / 4 + atan(b[i + 1]) + sinh(b[i] * 0.01) + cosh(b[i] * 0.01)
           + cbrt(b[i]) + fmod(b[i], 0.7) + hypot(b[i], b[i - 1]) + erf(b[i]) + erfc(b[i + 1]) * 0.5;
  }
  for (int i = 0; i < N; i++) {
    c[i] = round(a[i] * 8) + trunc(b[i] * 8) + floor(a[i]) + ceil(b[i]) + pow(fabs(a[i]), 0.3);
    f[i] = sqrtf(fabsf(g[i])) + log10f(1.0f + g[i] * g[i]) + atan2f(g[i], 2.0f) + fmodf(g[i], 0.5f) + (float)c[i] * 0.001f;
  }
#pragma endscop
}

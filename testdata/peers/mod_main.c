// Pluto-style two-buffer stencil in main: subscripts (t+1)%2 and t%2, the region in main.
#include <stdio.h>
#define N 100
#define T 12
double a[2][N];

int main(void) {
  for (int i = 0; i < N; i++)
    a[0][i] = a[1][i] = (double)(i % 7) / 7.0;
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      a[(t + 1) % 2][i] = 0.25 * (a[t % 2][i - 1] + 2.0 * a[t % 2][i] + a[t % 2][i + 1]);
#pragma endscop
  printf("%f\n", a[T % 2][N / 2]);
  return 0;
}

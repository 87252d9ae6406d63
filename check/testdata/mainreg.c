/* A region in main over global arrays, as in every Pluto example: main
   initializes, runs the region, prints. */
#include <stdio.h>
#define N 100
#define T 20
double a[2][N];
double b[N];

int main(int argc, char **argv)
{
  int t, i;
  for (i = 0; i < N; i++)
    a[0][i] = i * 0.5 + argc;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      a[1][i] = 0.33 * (a[0][i - 1] + a[0][i] + a[0][i + 1]);
    for (i = 1; i < N - 1; i++)
      a[0][i] = a[1][i] + b[i];
  }
#pragma endscop
  printf("%f\n", a[0][N / 2]);
  return 0;
}

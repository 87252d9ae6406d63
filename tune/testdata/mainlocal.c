// A region in main whose results live in main's local variables only.
#include <stdio.h>
#define N 40
int main(void) {
  double a[N][N], s[N];
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = (i * j % 7) / 7.0;
#pragma scop
  for (i = 0; i < N; i++) {
    s[i] = 0.0;
    for (j = 0; j < N; j++)
      s[i] = s[i] + a[j][i] * 2.0;
  }
#pragma endscop
  printf("%f\n", s[3]);
  return 0;
}

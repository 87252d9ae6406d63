/* bigsum.c's long single-precision sum, in main over main's own
   variables: the sum is a local, the data a local array main fills. */
#include <stdio.h>
#define N 1000000

int main(void)
{
  static float A[N];
  float total = 16777216.0f;
  for (int i = 0; i < N; i++)
    A[i] = (float)(i % 1000) / 1000.0f;
#pragma scop
  for (int i = 0; i < N; i++)
    total += A[i];
#pragma endscop
  printf("%f\n", total);
  return 0;
}

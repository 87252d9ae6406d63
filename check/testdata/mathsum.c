/* bigsum.c's long single-precision sum of math function values: the
   reference computes the calls in long double too. */
#include <math.h>
#define N 1000000

static void kernel_mathsum(int n, float A[N], float *total)
{
#pragma scop
  *total = 16777216.0f;
  for (int i = 0; i < n; i++)
    *total += expf(A[i]) + sqrt(A[i]);
#pragma endscop
}

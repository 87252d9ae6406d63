/* A long single-precision sum that starts at 2^24, sequential (the
   original) or in 16 partial sums added at the end (as nestor factors it
   under --assoc-math): in the sequential sum every term below 1 rounds
   away, so the original's own rounding is far beyond float's tolerance. */
#define N 1000000

static void kernel_bigsum(int n, float A[N], float *total)
{
#pragma scop
  *total = 16777216.0f;
  for (int i = 0; i < n; i++)
    *total += A[i];
#pragma endscop
}

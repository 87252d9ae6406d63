/*
 * sumsq: the sum of squares of x (a float sum: reassociated only with
 * --assoc-math, then equal to the original within rounding).
 */

/* Problem sizes.  -D MINI_DATASET, SMALL_DATASET, MEDIUM_DATASET,
   LARGE_DATASET or EXTRALARGE_DATASET picks a preset (LARGE if none is
   given); -D N=value overrides the extent. */
#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) && \
    !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 1000
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 20000
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 1000000
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 20000000
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef N
#  define N 100000000
# endif
#endif

#include "../kernels/polybench.h"

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

void kernel_sumsq(int n,
                  DATA_TYPE POLYBENCH_1D(x, N, n),
                  DATA_TYPE POLYBENCH_1D(sum, 1, 1))
{
  int i;
  DATA_TYPE s;

#pragma scop
  s = SCALAR_VAL(0.0);
  for (i = 0; i < _PB_N; i++)
    s += x[i] * x[i];
  sum[0] = s;
#pragma endscop
}

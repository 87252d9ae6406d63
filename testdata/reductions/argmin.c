/*
 * argmin: the smallest element of x and the first index where it occurs
 * (the values repeat, so the first index on ties matters: the operator is
 * associative but not commutative, and partial results combine in order).
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

void init_array(int n, DATA_TYPE POLYBENCH_1D(x, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    x[i] = (DATA_TYPE)((i % 1009 * 7919 + 13) % 1009) / 8;
}

void kernel_argmin(int n,
                   DATA_TYPE POLYBENCH_1D(x, N, n),
                   DATA_TYPE POLYBENCH_1D(best, 1, 1),
                   int POLYBENCH_1D(where, 1, 1))
{
  int i, k;
  DATA_TYPE m;

#pragma scop
  m = x[0];
  k = 0;
  for (i = 1; i < _PB_N; i++)
    if (x[i] < m)
      {
        m = x[i];
        k = i;
      }
  best[0] = m;
  where[0] = k;
#pragma endscop
}

/*
 * lexargmin: the smallest element and the least index where it occurs,
 * written with || and &&: the least index wins ties whatever the order,
 * so the operator is commutative. The loop runs downward.
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

void kernel_lexargmin(int n,
                      int POLYBENCH_1D(c, N, n),
                      int POLYBENCH_1D(out, 2, 2))
{
  int i;
  int m, k;

#pragma scop
  m = 2147483647;
  k = n;
  for (i = _PB_N - 1; i >= 0; i--)
    if (c[i] < m || c[i] == m && i < k)
      {
        m = c[i];
        k = i;
      }
  out[0] = m;
  out[1] = k;
#pragma endscop
}

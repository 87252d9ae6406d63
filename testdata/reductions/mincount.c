/*
 * mincount: the smallest element and how many times it occurs (ties add
 * the counts).
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

void kernel_mincount(int n,
                     int POLYBENCH_1D(c, N, n),
                     int POLYBENCH_1D(out, 2, 2))
{
  int i;
  int m, k;

#pragma scop
  m = 2147483647;
  k = 0;
  for (i = 0; i < _PB_N; i++)
    {
      k = c[i] < m ? 1 : (c[i] == m ? k + 1 : k);
      m = c[i] < m ? c[i] : m;
    }
  out[0] = m;
  out[1] = k;
#pragma endscop
}

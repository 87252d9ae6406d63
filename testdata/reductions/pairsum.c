/*
 * pairsum: a 2-tuple whose second element reads the first: the sum x0 of
 * c, and x1, the sum of each c[i] times the sum before it (in long: x1
 * grows as the square of n).
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

void kernel_pairsum(int n,
                    long POLYBENCH_1D(c, N, n),
                    long POLYBENCH_1D(out, 2, 2))
{
  int i;
  long x0, x1;

#pragma scop
  x0 = 0;
  x1 = 0;
  for (i = 0; i < _PB_N; i++)
    {
      x1 = x1 + x0 * c[i];
      x0 = x0 + c[i];
    }
  out[0] = x0;
  out[1] = x1;
#pragma endscop
}

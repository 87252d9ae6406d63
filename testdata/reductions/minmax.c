/*
 * minmax: the smallest and the largest element of x, two reductions
 * updated in consecutive statements (fmin and fmax are associative and
 * commutative in IEEE arithmetic, NaN being their identity).
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

#include <math.h>

void kernel_minmax(int n,
                   DATA_TYPE POLYBENCH_1D(x, N, n),
                   DATA_TYPE POLYBENCH_1D(range, 2, 2))
{
  int i;
  DATA_TYPE lo, hi;

#pragma scop
  lo = x[0];
  hi = x[0];
  for (i = 1; i < _PB_N; i++)
    {
      lo = fmin(lo, x[i]);
      hi = fmax(hi, x[i]);
    }
  range[0] = lo;
  range[1] = hi;
#pragma endscop
}

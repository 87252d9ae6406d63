/*
 * dot4: the dot product of x and y, its loop unrolled by hand four times
 * with a stride of 4 (the other form of legacy unrolling; see daxpy4.c),
 * for n a multiple of 4 (every preset is). nestor opt --reroll turns the
 * four copies back into a loop; each adds to the same scalar, in the
 * original order.
 */

/* Problem sizes.  -D MINI_DATASET, SMALL_DATASET, MEDIUM_DATASET,
   LARGE_DATASET or EXTRALARGE_DATASET picks a preset (LARGE if none is
   given); -D N=value overrides the extent, a multiple of 4. */
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

void kernel_dot4(int n,
                 DATA_TYPE POLYBENCH_1D(x, N, n),
                 DATA_TYPE POLYBENCH_1D(y, N, n),
                 DATA_TYPE POLYBENCH_1D(dot, 1, 1))
{
  int i;
  DATA_TYPE s;

#pragma scop
  s = SCALAR_VAL(0.0);
  for (i = 0; i < _PB_N; i += 4)
    {
      s += x[i] * y[i];
      s += x[i + 1] * y[i + 1];
      s += x[i + 2] * y[i + 2];
      s += x[i + 3] * y[i + 3];
    }
  dot[0] = s;
#pragma endscop
}

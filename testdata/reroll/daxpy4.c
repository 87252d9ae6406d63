/*
 * daxpy4: y := alpha*x + y, unrolled by hand four times as legacy BLAS
 * code does, for n a multiple of 4 (every preset is): iteration i of the
 * loop updates the four elements 4i ... 4i+3. nestor opt --reroll turns
 * the four copies back into a loop.
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

void kernel_daxpy4(int n,
                   DATA_TYPE alpha,
                   DATA_TYPE POLYBENCH_1D(x, N, n),
                   DATA_TYPE POLYBENCH_1D(y, N, n))
{
  int i;

#pragma scop
  for (i = 0; i < _PB_N / 4; i++)
    {
      y[4 * i] = y[4 * i] + alpha * x[4 * i];
      y[4 * i + 1] = y[4 * i + 1] + alpha * x[4 * i + 1];
      y[4 * i + 2] = y[4 * i + 2] + alpha * x[4 * i + 2];
      y[4 * i + 3] = y[4 * i + 3] + alpha * x[4 * i + 3];
    }
#pragma endscop
}

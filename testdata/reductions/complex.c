/*
 * complex: the product of n complex numbers of modulus 1, (re[i], im[i]),
 * with the real part kept in a temporary while the imaginary part is
 * updated (associative over the reals: factored with --assoc-math).
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
#  define N 10000000
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef N
#  define N 50000000
# endif
#endif

#include "../kernels/polybench.h"

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#include <math.h>

void init_array(int n,
                DATA_TYPE POLYBENCH_1D(re, N, n),
                DATA_TYPE POLYBENCH_1D(im, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    {
      re[i] = cos((i % 997) * 0.001);
      im[i] = sin((i % 997) * 0.001);
    }
}

void kernel_complex(int n,
                    DATA_TYPE POLYBENCH_1D(re, N, n),
                    DATA_TYPE POLYBENCH_1D(im, N, n),
                    DATA_TYPE POLYBENCH_1D(prod, 2, 2))
{
  int i;
  DATA_TYPE pr, pi, t;

#pragma scop
  pr = SCALAR_VAL(1.0);
  pi = SCALAR_VAL(0.0);
  for (i = 0; i < _PB_N; i++)
    {
      t = pr * re[i] - pi * im[i];
      pi = pr * im[i] + pi * re[i];
      pr = t;
    }
  prod[0] = pr;
  prod[1] = pi;
#pragma endscop
}

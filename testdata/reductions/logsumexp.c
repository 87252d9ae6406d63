/*
 * logsumexp: the running maximum m of v and the sum s of exp(v[i] - m),
 * rescaled when the maximum grows (log(s) + m is log-sum-exp without
 * overflow). Associative over the reals: factored with --assoc-math.
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

#include <math.h>
#include "../kernels/polybench.h"

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

void kernel_logsumexp(int n,
                      DATA_TYPE POLYBENCH_1D(v, N, n),
                      DATA_TYPE POLYBENCH_1D(out, 2, 2))
{
  int i;
  DATA_TYPE m, s, old;

#pragma scop
  m = v[0];
  s = SCALAR_VAL(0.0);
  for (i = 0; i < _PB_N; i++)
    {
      old = m;
      m = fmax(m, v[i]);
      s = s * exp(old - m) + exp(v[i] - m);
    }
  out[0] = m;
  out[1] = s;
#pragma endscop
}

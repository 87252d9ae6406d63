/*
 * diffsum: a running difference, s = s - a[i] + b[i]: a sum whose value
 * folded in is b[i] - a[i] (the operator +, the input map synthesized).
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

void kernel_diffsum(int n,
                    int POLYBENCH_1D(a, N, n),
                    int POLYBENCH_1D(b, N, n),
                    int POLYBENCH_1D(out, 1, 1))
{
  int i;
  int s;

#pragma scop
  s = 0;
  for (i = 0; i < _PB_N; i++)
    s = s - a[i] + b[i];
  out[0] = s;
#pragma endscop
}

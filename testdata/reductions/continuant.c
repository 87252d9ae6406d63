/*
 * continuant: the numerators and denominators of a continued fraction,
 * p' = c[i] p + p_prev (a 2x2 matrix product per element), in unsigned
 * long arithmetic (modulo 2^64): associative, not commutative.
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

void kernel_continuant(int n,
                       unsigned long POLYBENCH_1D(c, N, n),
                       unsigned long POLYBENCH_1D(out, 4, 4))
{
  int i;
  unsigned long p0, p1, q0, q1, t, w;

#pragma scop
  p0 = 1;
  p1 = 0;
  q0 = 0;
  q1 = 1;
  for (i = 0; i < _PB_N; i++)
    {
      t = p0 * c[i] + p1;
      p1 = p0;
      p0 = t;
      w = q0 * c[i] + q1;
      q1 = q0;
      q0 = w;
    }
  out[0] = p0;
  out[1] = p1;
  out[2] = q0;
  out[3] = q1;
#pragma endscop
}

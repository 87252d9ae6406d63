/*
 * kadane: the largest sum of a run of consecutive elements (Kadane), with
 * the total and the largest prefix sum: a 4-tuple, associative but not
 * commutative (partial results combine in order).
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

void init_array(int n, int POLYBENCH_1D(c, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    c[i] = (i % 1009 * 7919 + 13) % 1009 - 504;
}

void kernel_kadane(int n,
                   int POLYBENCH_1D(c, N, n),
                   int POLYBENCH_1D(out, 4, 4))
{
  int i;
  int s, p, u, m;

#pragma scop
  s = 0;
  p = 0;
  u = 0;
  m = 0;
  for (i = 0; i < _PB_N; i++)
    {
      s = s + c[i];
      p = p > s ? p : s;
      u = u + c[i] > c[i] ? u + c[i] : c[i];
      m = m > u ? m : u;
    }
  out[0] = s;
  out[1] = p;
  out[2] = u;
  out[3] = m;
#pragma endscop
}

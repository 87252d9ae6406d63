/*
 * segsum: a segmented sum (Blelloch): f[i] > 0 starts a segment, s is
 * the sum since the last start, and fl the largest flag seen.
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

void init_array(int n, int POLYBENCH_1D(f, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    f[i] = i % 1000 == 999 ? 1 : 0;
}

void kernel_segsum(int n,
                   int POLYBENCH_1D(c, N, n),
                   int POLYBENCH_1D(f, N, n),
                   int POLYBENCH_1D(out, 2, 2))
{
  int i;
  int s, fl;

#pragma scop
  s = 0;
  fl = 0;
  for (i = 0; i < _PB_N; i++)
    {
      s = f[i] > 0 ? c[i] : s + c[i];
      fl = fl > f[i] ? fl : f[i];
    }
  out[0] = s;
  out[1] = fl;
#pragma endscop
}

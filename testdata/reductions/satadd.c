/*
 * satadd: saturating additions of small counts, as C computes them: the
 * 8- and 16-bit accumulators are promoted to int, added, clamped and
 * converted back (u8(min(i32(x) + i32(y), 255))). One count in 97 is 1:
 * the 8-bit sum saturates at the larger sizes, the 16-bit one at
 * EXTRALARGE.
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

void init_array(int n, unsigned char POLYBENCH_1D(p, N, n), unsigned short POLYBENCH_1D(q, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    {
      p[i] = i % 97 == 0;
      q[i] = i % 61 == 0 ? 4 : 0;
    }
}

void kernel_satadd(int n,
                   unsigned char POLYBENCH_1D(p, N, n),
                   unsigned short POLYBENCH_1D(q, N, n),
                   unsigned short POLYBENCH_1D(out, 2, 2))
{
  int i;
  unsigned char s;
  unsigned short w;

#pragma scop
  s = 0;
  w = 0;
  for (i = 0; i < _PB_N; i++)
    {
      s = s + p[i] > 255 ? 255 : s + p[i];
      w = w + q[i] > 65535 ? 65535 : w + q[i];
    }
  out[0] = s;
  out[1] = w;
#pragma endscop
}

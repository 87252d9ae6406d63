/*
 * bytesum: bytes summed into an int (each widened), and an 8-bit checksum
 * held in an int, x = (unsigned char)(x + p[i]), which wraps at 256
 * whatever the int could hold.
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

void kernel_bytesum(int n,
                    unsigned char POLYBENCH_1D(p, N, n),
                    int POLYBENCH_1D(out, 2, 2))
{
  int i;
  int f0, x;

#pragma scop
  f0 = 0;
  x = 0;
  for (i = 0; i < _PB_N; i++)
    {
      f0 += p[i];
      x = (unsigned char)(x + p[i]);
    }
  out[0] = f0;
  out[1] = x;
#pragma endscop
}

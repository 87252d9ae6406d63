/*
 * products: updates whose operator is a product hidden in a sum:
 * x = x + c[i] * x is x * (1 + c[i]), and u = u + d[i] + 2 * u * d[i] is
 * (1 + 2u)(1 + 2d[i]) in disguise, the operator x + y + 2xy. The inputs
 * keep the products small (1 + c[i] and 1 + 2d[i] are 1 or -1).
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

void init_array(int n, int POLYBENCH_1D(c, N, n), int POLYBENCH_1D(d, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    {
      c[i] = i % 7 == 3 ? -2 : 0;
      d[i] = i % 5 == 1 ? -1 : 0;
    }
}

void kernel_products(int n,
                     int POLYBENCH_1D(c, N, n),
                     int POLYBENCH_1D(d, N, n),
                     int POLYBENCH_1D(out, 2, 2))
{
  int i;
  int x, u;

#pragma scop
  x = 3;
  for (i = 0; i < _PB_N; i++)
    x = x + c[i] * x;
  u = 2;
  for (i = 0; i < _PB_N; i++)
    u = u + d[i] + 2 * u * d[i];
  out[0] = x;
  out[1] = u;
#pragma endscop
}

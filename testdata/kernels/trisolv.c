/*
 * trisolv: forward substitution, solving L x = b for lower-triangular L
 * (only the lower triangle, diagonal included, is read).
 */

/* Problem sizes.  -D MINI_DATASET, SMALL_DATASET, MEDIUM_DATASET,
   LARGE_DATASET or EXTRALARGE_DATASET picks a preset (LARGE if none is
   given); -D NAME=value overrides a single extent. */
#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET) && \
    !defined(EXTRALARGE_DATASET)
# define LARGE_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 40
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 400
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2000
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef N
#  define N 4000
# endif
#endif

#include "polybench.h"

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* Well-scaled, non-singular L: shrink the random off-diagonal entries by
   1/n and move the diagonal into [1,2).  Every row is then strictly
   diagonally dominant and x stays of the order of b. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(L, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++)
      L[i][j] = L[i][j] / (DATA_TYPE)n;
    L[i][i] = L[i][i] + SCALAR_VAL(1.0);
  }
}

void kernel_trisolv(int n,
                    DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                    DATA_TYPE POLYBENCH_1D(x, N, n),
                    DATA_TYPE POLYBENCH_1D(b, N, n))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++)
    {
      x[i] = b[i];
      for (j = 0; j < i; j++)
        x[i] -= L[i][j] * x[j];
      x[i] = x[i] / L[i][i];
    }
#pragma endscop
}

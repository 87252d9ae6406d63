/*
 * trmm: triangular matrix multiply B := alpha * A^T * B, where the m x m
 * matrix A is unit lower triangular (the diagonal is implied, only the
 * strictly lower part is read) and B is m x n.
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
# ifndef M
#  define M 20
# endif
# ifndef N
#  define N 30
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 60
# endif
# ifndef N
#  define N 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 200
# endif
# ifndef N
#  define N 240
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 1000
# endif
# ifndef N
#  define N 1200
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef M
#  define M 2000
# endif
# ifndef N
#  define N 2600
# endif
#endif

#include "polybench.h"

#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

void kernel_trmm(int m, int n,
                 DATA_TYPE alpha,
                 DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                 DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_M; i++)
    for (j = 0; j < _PB_N; j++) {
      for (k = i + 1; k < _PB_M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
#pragma endscop
}

/*
 * symm: symmetric matrix multiply C := alpha*A*B + beta*C, where the m x m
 * matrix A is symmetric and only its lower triangle (diagonal included) is
 * read.  The scalar temp2 accumulates the contribution of the triangle.
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

void kernel_symm(int m, int n,
                 DATA_TYPE alpha,
                 DATA_TYPE beta,
                 DATA_TYPE POLYBENCH_2D(C, M, N, m, n),
                 DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                 DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
  int i, j, k;
  DATA_TYPE temp2;

  /* A is m x m, B and C are m x n; A multiplies from the left. */
#pragma scop
  for (i = 0; i < _PB_M; i++)
    for (j = 0; j < _PB_N; j++)
      {
        temp2 = 0;
        for (k = 0; k < i; k++) {
          C[k][j] += alpha * B[i][j] * A[i][k];
          temp2 += B[k][j] * A[i][k];
        }
        C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
      }
#pragma endscop
}

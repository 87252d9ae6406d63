/*
 * cholesky: in-place Cholesky factorisation A = L L^T of a symmetric
 * positive-definite matrix; L overwrites the lower triangle (diagonal
 * included), the strict upper triangle is left alone.
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

/* Make A symmetric positive definite from its random contents: average it
   with its transpose (entries stay in [0,1)) and add n on the diagonal, so
   every row is strictly diagonally dominant. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      A[i][j] = (A[i][j] + A[j][i]) / SCALAR_VAL(2.0);
      A[j][i] = A[i][j];
    }
    A[i][i] += (DATA_TYPE)n;
  }
}

void kernel_cholesky(int n,
                     DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_N; i++) {
    /* entries left of the diagonal */
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++) {
        A[i][j] -= A[i][k] * A[j][k];
      }
      A[i][j] /= A[j][j];
    }
    /* the diagonal entry */
    for (k = 0; k < i; k++) {
      A[i][i] -= A[i][k] * A[i][k];
    }
    A[i][i] = SQRT_FUN(A[i][i]);
  }
#pragma endscop
}

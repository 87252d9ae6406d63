/*
 * atax: y := A^T (A x), computed row by row through the temporary tmp.
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
#  define M 38
# endif
# ifndef N
#  define N 42
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 116
# endif
# ifndef N
#  define N 124
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 390
# endif
# ifndef N
#  define N 410
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 1900
# endif
# ifndef N
#  define N 2100
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef M
#  define M 1800
# endif
# ifndef N
#  define N 2200
# endif
#endif

#include "polybench.h"

#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

void kernel_atax(int m, int n,
                 DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                 DATA_TYPE POLYBENCH_1D(x, N, n),
                 DATA_TYPE POLYBENCH_1D(y, N, n),
                 DATA_TYPE POLYBENCH_1D(tmp, M, m))
{
  int i, j;

#pragma scop
  for (i = 0; i < _PB_N; i++)
    y[i] = 0;
  for (i = 0; i < _PB_M; i++)
    {
      /* tmp[i] = row i of A times x ... */
      tmp[i] = SCALAR_VAL(0.0);
      for (j = 0; j < _PB_N; j++)
        tmp[i] = tmp[i] + A[i][j] * x[j];
      /* ... scattered back through the same row */
      for (j = 0; j < _PB_N; j++)
        y[j] = y[j] + A[i][j] * tmp[i];
    }
#pragma endscop
}

/*
 * durbin: Levinson-Durbin recursion solving the Yule-Walker system
 * T y = -r, with T the symmetric Toeplitz matrix whose diagonal is 1 and
 * whose off-diagonals are r[0], r[1], ...  Scalar state (alpha, beta, sum)
 * is carried across iterations of the outer loop, and the local array z
 * stages each update of y.
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

/* The recursion stays bounded (|alpha| < 1, beta > 0) when T is positive
   definite.  Scaling the random r[i] by 1/(4 (i+1)^2) keeps
   2 * sum |r[i]| < pi^2/12 < 1, so T is strictly diagonally dominant. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_1D(r, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    r[i] = r[i] / (SCALAR_VAL(4.0) * (DATA_TYPE)(i + 1) * (DATA_TYPE)(i + 1));
}

void kernel_durbin(int n,
                   DATA_TYPE POLYBENCH_1D(r, N, n),
                   DATA_TYPE POLYBENCH_1D(y, N, n))
{
  DATA_TYPE z[N];
  DATA_TYPE alpha;
  DATA_TYPE beta;
  DATA_TYPE sum;

  int i, k;

#pragma scop
  y[0] = -r[0];
  beta = SCALAR_VAL(1.0);
  alpha = -r[0];

  for (k = 1; k < _PB_N; k++) {
    beta = (1 - alpha * alpha) * beta;
    sum = SCALAR_VAL(0.0);
    for (i = 0; i < k; i++) {
      sum += r[k-i-1] * y[i];
    }
    alpha = -(r[k] + sum) / beta;

    for (i = 0; i < k; i++) {
      z[i] = y[i] + alpha * y[k-i-1];
    }
    for (i = 0; i < k; i++) {
      y[i] = z[i];
    }
    y[k] = alpha;
  }
#pragma endscop
}

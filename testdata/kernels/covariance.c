/*
 * covariance: sample covariance matrix of the m columns (variables) of the
 * n x m data matrix; the data is centred in place first.
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
#  define M 28
# endif
# ifndef N
#  define N 32
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 80
# endif
# ifndef N
#  define N 100
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 240
# endif
# ifndef N
#  define N 260
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 1200
# endif
# ifndef N
#  define N 1400
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef M
#  define M 2600
# endif
# ifndef N
#  define N 3000
# endif
#endif

#include "polybench.h"

#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* float_n is the number of observations; the kernel divides by float_n
   and by float_n - 1, so it must not be left random. */
static void init_array(int n,
                       DATA_TYPE *float_n)
{
  *float_n = (DATA_TYPE)n;
}

void kernel_covariance(int m, int n,
                       DATA_TYPE float_n,
                       DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                       DATA_TYPE POLYBENCH_2D(cov, M, M, m, m),
                       DATA_TYPE POLYBENCH_1D(mean, M, m))
{
  int i, j, k;

#pragma scop
  /* column means */
  for (j = 0; j < _PB_M; j++)
    {
      mean[j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_N; i++)
        mean[j] += data[i][j];
      mean[j] /= float_n;
    }

  /* centre */
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
      data[i][j] -= mean[j];

  /* upper triangle (diagonal included), mirrored below */
  for (i = 0; i < _PB_M; i++)
    for (j = i; j < _PB_M; j++)
      {
        cov[i][j] = SCALAR_VAL(0.0);
        for (k = 0; k < _PB_N; k++)
          cov[i][j] += data[k][i] * data[k][j];
        cov[i][j] /= (float_n - SCALAR_VAL(1.0));
        cov[j][i] = cov[i][j];
      }
#pragma endscop
}

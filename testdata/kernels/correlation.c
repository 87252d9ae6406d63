/*
 * correlation: Pearson correlation matrix of the m columns (variables) of
 * the n x m data matrix.  Columns are centred and scaled in place, then
 * corr gets their pairwise dot products (a symmetric m x m matrix).
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

/* float_n is the number of observations as a floating value; the kernel
   divides by it, so it must not be left random. */
static void init_array(int n,
                       DATA_TYPE *float_n)
{
  *float_n = (DATA_TYPE)n;
}

void kernel_correlation(int m, int n,
                        DATA_TYPE float_n,
                        DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                        DATA_TYPE POLYBENCH_2D(corr, M, M, m, m),
                        DATA_TYPE POLYBENCH_1D(mean, M, m),
                        DATA_TYPE POLYBENCH_1D(stddev, M, m))
{
  int i, j, k;

  DATA_TYPE eps = SCALAR_VAL(0.1);

#pragma scop
  /* column means */
  for (j = 0; j < _PB_M; j++)
    {
      mean[j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_N; i++)
        mean[j] += data[i][j];
      mean[j] /= float_n;
    }

  /* column standard deviations; tiny ones are replaced by 1 so the
     scaling below never divides by (almost) zero */
  for (j = 0; j < _PB_M; j++)
    {
      stddev[j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_N; i++)
        stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
      stddev[j] /= float_n;
      stddev[j] = SQRT_FUN(stddev[j]);
      stddev[j] = stddev[j] <= eps ? SCALAR_VAL(1.0) : stddev[j];
    }

  /* centre and scale the data */
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
      {
        data[i][j] -= mean[j];
        data[i][j] /= SQRT_FUN(float_n) * stddev[j];
      }

  /* upper triangle by dot products, mirrored into the lower one */
  for (i = 0; i < _PB_M - 1; i++)
    {
      corr[i][i] = SCALAR_VAL(1.0);
      for (j = i + 1; j < _PB_M; j++)
        {
          corr[i][j] = SCALAR_VAL(0.0);
          for (k = 0; k < _PB_N; k++)
            corr[i][j] += (data[k][i] * data[k][j]);
          corr[j][i] = corr[i][j];
        }
    }
  corr[_PB_M-1][_PB_M-1] = SCALAR_VAL(1.0);
#pragma endscop
}

/*
 * floyd-warshall: all-pairs shortest paths.  path[i][j] starts as the
 * weight of edge i->j and ends as the length of the shortest path; the
 * relaxation is written as a conditional expression.  Integer data by
 * default.
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
#  define N 60
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 180
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 500
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2800
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef N
#  define N 5600
# endif
#endif

/* This kernel works on integers unless another element type is asked for. */
#if !defined(DATA_TYPE) && !defined(DATA_TYPE_IS_INT) && \
    !defined(DATA_TYPE_IS_FLOAT) && !defined(DATA_TYPE_IS_DOUBLE)
# define DATA_TYPE_IS_INT
#endif

#include "polybench.h"

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* Edge weights must be positive: shift the random weights up by one (to
   1..64 for the harness's integers in [0,64)) and give every vertex a
   zero-length path to itself. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      path[i][j] = (i == j) ? 0 : path[i][j] + 1;
}

void kernel_floyd_warshall(int n,
                           DATA_TYPE POLYBENCH_2D(path, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (k = 0; k < _PB_N; k++)
    {
      for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++)
          path[i][j] = path[i][j] < path[i][k] + path[k][j] ?
            path[i][j] : path[i][k] + path[k][j];
    }
#pragma endscop
}

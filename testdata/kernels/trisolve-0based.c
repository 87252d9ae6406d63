/*
 * trisolve-0based: the same computation as trisolve-1based.c, A := B U^-1
 * for upper-triangular U, in the canonical form a front end gets after
 * normalising every loop to start at 0 (as LLVM scalar evolution presents
 * it in the dependence-analysis note): the elimination loop runs
 * k = 0 .. n-j-2 and addresses column k+j+1.  Counters i, j, k play the
 * roles of the note's m, n, k (m and n are the size parameters here).
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
#  define M 4
# endif
# ifndef N
#  define N 7
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 40
# endif
# ifndef N
#  define N 60
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 200
# endif
# ifndef N
#  define N 300
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

/* Well-scaled, non-singular U: shrink the random strictly-upper entries by
   1/n and move the diagonal into [1,2), so U is strictly diagonally
   dominant by rows and by columns and A stays of the order of B.  The
   strictly lower part is never read. */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(U, N, N, n, n))
{
  int i, j;

  for (i = 0; i < n; i++) {
    U[i][i] = U[i][i] + SCALAR_VAL(1.0);
    for (j = i + 1; j < n; j++)
      U[i][j] = U[i][j] / (DATA_TYPE)n;
  }
}

void kernel_trisolve_0based(int m, int n,
                            DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                            DATA_TYPE POLYBENCH_2D(B, M, N, m, n),
                            DATA_TYPE POLYBENCH_2D(U, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_M; i++) {
    for (j = 0; j < _PB_N; j++)
      A[i][j] = B[i][j];
    for (j = 0; j < _PB_N; j++) {
      A[i][j] /= U[j][j];
      for (k = 0; k < _PB_N - j - 1; k++)
        A[i][k+j+1] -= A[i][j] * U[j][k+j+1];
    }
  }
#pragma endscop
}

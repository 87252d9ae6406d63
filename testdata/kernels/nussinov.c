/*
 * nussinov: Nussinov's dynamic program for RNA secondary structure: the
 * maximum number of complementary base pairs (A-U, C-G, coded as pairs of
 * bases summing to 3) in every subsequence seq[i..j], filled into the upper
 * triangle of table.  The outer loop runs downwards; the body uses affine
 * if-conditions and max/match written as conditional-expression macros.
 * Integer data by default; bases are chars holding 0..3.
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
#  define N 2500
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef N
#  define N 5500
# endif
#endif

/* This kernel works on integers unless another element type is asked for. */
#if !defined(DATA_TYPE) && !defined(DATA_TYPE_IS_INT) && \
    !defined(DATA_TYPE_IS_FLOAT) && !defined(DATA_TYPE_IS_DOUBLE)
# define DATA_TYPE_IS_INT
#endif

#include "polybench.h"

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* Bases are coded 0..3 (A, C, G, U); fold the random values into that
   range.  The table keeps its random starting scores. */
static void init_array(int n,
                       char POLYBENCH_1D(seq, N, n))
{
  int i;

  for (i = 0; i < n; i++)
    seq[i] = (char)(seq[i] & 3);
}

/* score helpers, conditional expressions only */
#define match(b1, b2) (((b1)+(b2)) == 3 ? 1 : 0)
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)

void kernel_nussinov(int n,
                     char POLYBENCH_1D(seq, N, n),
                     DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
  int i, j, k;

#pragma scop
  for (i = _PB_N - 1; i >= 0; i--) {
    for (j = i + 1; j < _PB_N; j++) {

      if (j - 1 >= 0)
        table[i][j] = max_score(table[i][j], table[i][j-1]);
      if (i + 1 < _PB_N)
        table[i][j] = max_score(table[i][j], table[i+1][j]);

      if (j - 1 >= 0 && i + 1 < _PB_N) {
        /* neighbours in the sequence may not pair */
        if (i < j - 1)
          table[i][j] = max_score(table[i][j], table[i+1][j-1] + match(seq[i], seq[j]));
        else
          table[i][j] = max_score(table[i][j], table[i+1][j-1]);
      }

      for (k = i + 1; k < j; k++) {
        table[i][j] = max_score(table[i][j], table[i][k] + table[k+1][j]);
      }
    }
  }
#pragma endscop
}

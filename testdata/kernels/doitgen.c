/*
 * doitgen: multiresolution-analysis kernel.  For every (r, q) slice the
 * vector A[r][q][*] is multiplied by the np x np matrix C4, the product is
 * staged in sum and copied back over the slice.
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
# ifndef NQ
#  define NQ 8
# endif
# ifndef NR
#  define NR 10
# endif
# ifndef NP
#  define NP 12
# endif
#elif defined(SMALL_DATASET)
# ifndef NQ
#  define NQ 20
# endif
# ifndef NR
#  define NR 25
# endif
# ifndef NP
#  define NP 30
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NQ
#  define NQ 40
# endif
# ifndef NR
#  define NR 50
# endif
# ifndef NP
#  define NP 60
# endif
#elif defined(LARGE_DATASET)
# ifndef NQ
#  define NQ 140
# endif
# ifndef NR
#  define NR 150
# endif
# ifndef NP
#  define NP 160
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef NQ
#  define NQ 220
# endif
# ifndef NR
#  define NR 250
# endif
# ifndef NP
#  define NP 270
# endif
#endif

#include "polybench.h"

#define _PB_NQ POLYBENCH_LOOP_BOUND(NQ, nq)
#define _PB_NR POLYBENCH_LOOP_BOUND(NR, nr)
#define _PB_NP POLYBENCH_LOOP_BOUND(NP, np)

void kernel_doitgen(int nr, int nq, int np,
                    DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                    DATA_TYPE POLYBENCH_2D(C4, NP, NP, np, np),
                    DATA_TYPE POLYBENCH_1D(sum, NP, np))
{
  int r, q, p, s;

#pragma scop
  for (r = 0; r < _PB_NR; r++)
    for (q = 0; q < _PB_NQ; q++) {
      for (p = 0; p < _PB_NP; p++) {
        sum[p] = SCALAR_VAL(0.0);
        for (s = 0; s < _PB_NP; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < _PB_NP; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop
}

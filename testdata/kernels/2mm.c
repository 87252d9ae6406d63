/*
 * 2mm: two chained matrix products.  tmp receives alpha*A*B, then D is
 * scaled by beta and accumulates tmp*C, i.e. D := alpha*A*B*C + beta*D.
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
# ifndef NI
#  define NI 16
# endif
# ifndef NJ
#  define NJ 18
# endif
# ifndef NK
#  define NK 22
# endif
# ifndef NL
#  define NL 24
# endif
#elif defined(SMALL_DATASET)
# ifndef NI
#  define NI 40
# endif
# ifndef NJ
#  define NJ 50
# endif
# ifndef NK
#  define NK 70
# endif
# ifndef NL
#  define NL 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NI
#  define NI 180
# endif
# ifndef NJ
#  define NJ 190
# endif
# ifndef NK
#  define NK 210
# endif
# ifndef NL
#  define NL 220
# endif
#elif defined(LARGE_DATASET)
# ifndef NI
#  define NI 800
# endif
# ifndef NJ
#  define NJ 900
# endif
# ifndef NK
#  define NK 1100
# endif
# ifndef NL
#  define NL 1200
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef NI
#  define NI 1600
# endif
# ifndef NJ
#  define NJ 1800
# endif
# ifndef NK
#  define NK 2200
# endif
# ifndef NL
#  define NL 2400
# endif
#endif

#include "polybench.h"

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)

void kernel_2mm(int ni, int nj, int nk, int nl,
                DATA_TYPE alpha,
                DATA_TYPE beta,
                DATA_TYPE POLYBENCH_2D(tmp, NI, NJ, ni, nj),
                DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl),
                DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
  int i, j, k;

#pragma scop
  /* first product, alpha folded in */
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++)
      {
        tmp[i][j] = SCALAR_VAL(0.0);
        for (k = 0; k < _PB_NK; ++k)
          tmp[i][j] += alpha * A[i][k] * B[k][j];
      }
  /* second product accumulated onto the scaled D */
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++)
      {
        D[i][j] *= beta;
        for (k = 0; k < _PB_NJ; ++k)
          D[i][j] += tmp[i][k] * C[k][j];
      }
#pragma endscop
}

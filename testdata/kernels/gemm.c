/*
 * gemm: general matrix multiply, C := alpha*A*B + beta*C.
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
#  define NI 20
# endif
# ifndef NJ
#  define NJ 25
# endif
# ifndef NK
#  define NK 30
# endif
#elif defined(SMALL_DATASET)
# ifndef NI
#  define NI 60
# endif
# ifndef NJ
#  define NJ 70
# endif
# ifndef NK
#  define NK 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NI
#  define NI 200
# endif
# ifndef NJ
#  define NJ 220
# endif
# ifndef NK
#  define NK 240
# endif
#elif defined(LARGE_DATASET)
# ifndef NI
#  define NI 1000
# endif
# ifndef NJ
#  define NJ 1100
# endif
# ifndef NK
#  define NK 1200
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef NI
#  define NI 2000
# endif
# ifndef NJ
#  define NJ 2300
# endif
# ifndef NK
#  define NK 2600
# endif
#endif

#include "polybench.h"

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)

void kernel_gemm(int ni, int nj, int nk,
                 DATA_TYPE alpha,
                 DATA_TYPE beta,
                 DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                 DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                 DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
  int i, j, k;

#pragma scop
  for (i = 0; i < _PB_NI; i++) {
    for (j = 0; j < _PB_NJ; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_NK; k++) {
      for (j = 0; j < _PB_NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
#pragma endscop
}

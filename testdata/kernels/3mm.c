/*
 * 3mm: three matrix products, E := A*B, F := C*D, G := E*F.
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
#  define NK 20
# endif
# ifndef NL
#  define NL 22
# endif
# ifndef NM
#  define NM 24
# endif
#elif defined(SMALL_DATASET)
# ifndef NI
#  define NI 40
# endif
# ifndef NJ
#  define NJ 50
# endif
# ifndef NK
#  define NK 60
# endif
# ifndef NL
#  define NL 70
# endif
# ifndef NM
#  define NM 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NI
#  define NI 180
# endif
# ifndef NJ
#  define NJ 190
# endif
# ifndef NK
#  define NK 200
# endif
# ifndef NL
#  define NL 210
# endif
# ifndef NM
#  define NM 220
# endif
#elif defined(LARGE_DATASET)
# ifndef NI
#  define NI 800
# endif
# ifndef NJ
#  define NJ 900
# endif
# ifndef NK
#  define NK 1000
# endif
# ifndef NL
#  define NL 1100
# endif
# ifndef NM
#  define NM 1200
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef NI
#  define NI 1600
# endif
# ifndef NJ
#  define NJ 1800
# endif
# ifndef NK
#  define NK 2000
# endif
# ifndef NL
#  define NL 2200
# endif
# ifndef NM
#  define NM 2400
# endif
#endif

#include "polybench.h"

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)
#define _PB_NM POLYBENCH_LOOP_BOUND(NM, nm)

void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                DATA_TYPE POLYBENCH_2D(E, NI, NJ, ni, nj),
                DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                DATA_TYPE POLYBENCH_2D(F, NJ, NL, nj, nl),
                DATA_TYPE POLYBENCH_2D(C, NJ, NM, nj, nm),
                DATA_TYPE POLYBENCH_2D(D, NM, NL, nm, nl),
                DATA_TYPE POLYBENCH_2D(G, NI, NL, ni, nl))
{
  int i, j, k;

#pragma scop
  /* E = A.B */
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++)
      {
        E[i][j] = SCALAR_VAL(0.0);
        for (k = 0; k < _PB_NK; ++k)
          E[i][j] += A[i][k] * B[k][j];
      }
  /* F = C.D */
  for (i = 0; i < _PB_NJ; i++)
    for (j = 0; j < _PB_NL; j++)
      {
        F[i][j] = SCALAR_VAL(0.0);
        for (k = 0; k < _PB_NM; ++k)
          F[i][j] += C[i][k] * D[k][j];
      }
  /* G = E.F */
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++)
      {
        G[i][j] = SCALAR_VAL(0.0);
        for (k = 0; k < _PB_NJ; ++k)
          G[i][j] += E[i][k] * F[k][j];
      }
#pragma endscop
}

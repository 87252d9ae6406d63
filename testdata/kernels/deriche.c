/*
 * deriche: Deriche's recursive edge-detection / smoothing filter on a w x h
 * image.  A causal and an anti-causal first-order-in-x, second-order-in-y
 * recursion run along each row and their sum is formed; the same pair then
 * runs along each column of that result.  The recursions carry their state
 * in scalars (xm1, ym1, ...), and two of the four sweeps run backwards.
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
# ifndef W
#  define W 64
# endif
# ifndef H
#  define H 64
# endif
#elif defined(SMALL_DATASET)
# ifndef W
#  define W 192
# endif
# ifndef H
#  define H 128
# endif
#elif defined(MEDIUM_DATASET)
# ifndef W
#  define W 720
# endif
# ifndef H
#  define H 480
# endif
#elif defined(LARGE_DATASET)
# ifndef W
#  define W 4096
# endif
# ifndef H
#  define H 2160
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef W
#  define W 7680
# endif
# ifndef H
#  define H 4320
# endif
#endif

#include "polybench.h"

#define _PB_W POLYBENCH_LOOP_BOUND(W, w)
#define _PB_H POLYBENCH_LOOP_BOUND(H, h)

/* alpha is the filter's smoothing parameter.  alpha = 0 makes the gain k
   a 0/0, so it is pinned to the usual value 0.25 (imgIn keeps its random
   grey levels in [0,1)). */
static void init_array(DATA_TYPE *alpha)
{
  *alpha = SCALAR_VAL(0.25);
}

void kernel_deriche(int w, int h,
                    DATA_TYPE alpha,
                    DATA_TYPE POLYBENCH_2D(imgIn, W, H, w, h),
                    DATA_TYPE POLYBENCH_2D(imgOut, W, H, w, h),
                    DATA_TYPE POLYBENCH_2D(y1, W, H, w, h),
                    DATA_TYPE POLYBENCH_2D(y2, W, H, w, h))
{
  int i, j;
  DATA_TYPE xm1, tm1, ym1, ym2;
  DATA_TYPE xp1, xp2;
  DATA_TYPE tp1, tp2;
  DATA_TYPE yp1, yp2;

  DATA_TYPE k;
  DATA_TYPE a1, a2, a3, a4, a5, a6, a7, a8;
  DATA_TYPE b1, b2, c1, c2;

  /* filter coefficients: they depend on alpha only, so they are set up
     before the region */
  k = (SCALAR_VAL(1.0) - EXP_FUN(-alpha)) * (SCALAR_VAL(1.0) - EXP_FUN(-alpha))
      / (SCALAR_VAL(1.0) + SCALAR_VAL(2.0) * alpha * EXP_FUN(-alpha) - EXP_FUN(SCALAR_VAL(2.0) * alpha));
  a1 = k;
  a5 = k;
  a2 = k * EXP_FUN(-alpha) * (alpha - SCALAR_VAL(1.0));
  a6 = a2;
  a3 = k * EXP_FUN(-alpha) * (alpha + SCALAR_VAL(1.0));
  a7 = a3;
  a4 = -k * EXP_FUN(SCALAR_VAL(-2.0) * alpha);
  a8 = a4;
  b1 = POW_FUN(SCALAR_VAL(2.0), -alpha);
  b2 = -EXP_FUN(SCALAR_VAL(-2.0) * alpha);
  c1 = 1;
  c2 = 1;

#pragma scop
  /* rows, left to right */
  for (i = 0; i < _PB_W; i++) {
    ym1 = SCALAR_VAL(0.0);
    ym2 = SCALAR_VAL(0.0);
    xm1 = SCALAR_VAL(0.0);
    for (j = 0; j < _PB_H; j++) {
      y1[i][j] = a1 * imgIn[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = imgIn[i][j];
      ym2 = ym1;
      ym1 = y1[i][j];
    }
  }

  /* rows, right to left */
  for (i = 0; i < _PB_W; i++) {
    yp1 = SCALAR_VAL(0.0);
    yp2 = SCALAR_VAL(0.0);
    xp1 = SCALAR_VAL(0.0);
    xp2 = SCALAR_VAL(0.0);
    for (j = _PB_H - 1; j >= 0; j--) {
      y2[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = imgIn[i][j];
      yp2 = yp1;
      yp1 = y2[i][j];
    }
  }

  for (i = 0; i < _PB_W; i++)
    for (j = 0; j < _PB_H; j++) {
      imgOut[i][j] = c1 * (y1[i][j] + y2[i][j]);
    }

  /* columns, top to bottom */
  for (j = 0; j < _PB_H; j++) {
    tm1 = SCALAR_VAL(0.0);
    ym1 = SCALAR_VAL(0.0);
    ym2 = SCALAR_VAL(0.0);
    for (i = 0; i < _PB_W; i++) {
      y1[i][j] = a5 * imgOut[i][j] + a6 * tm1 + b1 * ym1 + b2 * ym2;
      tm1 = imgOut[i][j];
      ym2 = ym1;
      ym1 = y1[i][j];
    }
  }

  /* columns, bottom to top */
  for (j = 0; j < _PB_H; j++) {
    tp1 = SCALAR_VAL(0.0);
    tp2 = SCALAR_VAL(0.0);
    yp1 = SCALAR_VAL(0.0);
    yp2 = SCALAR_VAL(0.0);
    for (i = _PB_W - 1; i >= 0; i--) {
      y2[i][j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
      tp2 = tp1;
      tp1 = imgOut[i][j];
      yp2 = yp1;
      yp1 = y2[i][j];
    }
  }

  for (i = 0; i < _PB_W; i++)
    for (j = 0; j < _PB_H; j++)
      imgOut[i][j] = c2 * (y1[i][j] + y2[i][j]);
#pragma endscop
}

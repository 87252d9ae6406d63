/*
 * fdtd-2d: two-dimensional finite-difference time-domain (Yee) update.
 * Each step injects the source _fict_[t] on the first row of ey, updates
 * the electric fields ey and ex from the magnetic field hz, then hz from
 * the new electric fields.
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
# ifndef TMAX
#  define TMAX 20
# endif
# ifndef NX
#  define NX 20
# endif
# ifndef NY
#  define NY 30
# endif
#elif defined(SMALL_DATASET)
# ifndef TMAX
#  define TMAX 40
# endif
# ifndef NX
#  define NX 60
# endif
# ifndef NY
#  define NY 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TMAX
#  define TMAX 100
# endif
# ifndef NX
#  define NX 200
# endif
# ifndef NY
#  define NY 240
# endif
#elif defined(LARGE_DATASET)
# ifndef TMAX
#  define TMAX 500
# endif
# ifndef NX
#  define NX 1000
# endif
# ifndef NY
#  define NY 1200
# endif
#elif defined(EXTRALARGE_DATASET)
# ifndef TMAX
#  define TMAX 1000
# endif
# ifndef NX
#  define NX 2000
# endif
# ifndef NY
#  define NY 2600
# endif
#endif

#include "polybench.h"

#define _PB_TMAX POLYBENCH_LOOP_BOUND(TMAX, tmax)
#define _PB_NX POLYBENCH_LOOP_BOUND(NX, nx)
#define _PB_NY POLYBENCH_LOOP_BOUND(NY, ny)

void kernel_fdtd_2d(int tmax, int nx, int ny,
                    DATA_TYPE POLYBENCH_2D(ex, NX, NY, nx, ny),
                    DATA_TYPE POLYBENCH_2D(ey, NX, NY, nx, ny),
                    DATA_TYPE POLYBENCH_2D(hz, NX, NY, nx, ny),
                    DATA_TYPE POLYBENCH_1D(_fict_, TMAX, tmax))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TMAX; t++)
    {
      for (j = 0; j < _PB_NY; j++)
        ey[0][j] = _fict_[t];
      for (i = 1; i < _PB_NX; i++)
        for (j = 0; j < _PB_NY; j++)
          ey[i][j] = ey[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i-1][j]);
      for (i = 0; i < _PB_NX; i++)
        for (j = 1; j < _PB_NY; j++)
          ex[i][j] = ex[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i][j-1]);
      for (i = 0; i < _PB_NX - 1; i++)
        for (j = 0; j < _PB_NY - 1; j++)
          hz[i][j] = hz[i][j] - SCALAR_VAL(0.7) * (ex[i][j+1] - ex[i][j] +
                                                   ey[i+1][j] - ey[i][j]);
    }
#pragma endscop
}

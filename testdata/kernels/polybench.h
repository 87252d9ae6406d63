/*
 * polybench.h -- nestor's own compatibility header for the kernel corpus.
 *
 * The files in this directory are written in the style of the PolyBench/C
 * 4.2 kernels, so they need the handful of macros that style relies on:
 * an element type, literal/math-function wrappers that follow that type,
 * array-parameter declarators and loop-bound selectors.  This header only
 * defines macros: no functions, no variables.
 *
 * Knobs (all optional, given with -D):
 *   DATA_TYPE_IS_INT / DATA_TYPE_IS_FLOAT / DATA_TYPE_IS_DOUBLE
 *                            choose the element type (double otherwise);
 *   DATA_TYPE=...            force the element type directly;
 *   POLYBENCH_USE_C99_PROTO  declare array parameters with the run-time
 *                            sizes (C99 variably modified types) instead of
 *                            the compile-time dataset constants;
 *   POLYBENCH_USE_SCALAR_LB  make the _PB_* loop bounds use the compile-time
 *                            constants instead of the size parameters.
 */
#ifndef NESTOR_POLYBENCH_H
#define NESTOR_POLYBENCH_H

#include <math.h>

/* Keep stand-alone compiles of kernel files quiet under -Wall:
   - `#pragma scop` / `#pragma endscop` only mark the region for polyhedral
     tools and mean nothing to the C compiler;
   - kernel files have no main, and their optional static init_array helper
     is only called by an external harness. */
#if defined(__GNUC__)
# pragma GCC diagnostic ignored "-Wunknown-pragmas"
# pragma GCC diagnostic ignored "-Wunused-function"
#endif

/* ---- element type ---------------------------------------------------- */
#ifndef DATA_TYPE
# if defined(DATA_TYPE_IS_INT)
#  define DATA_TYPE int
# elif defined(DATA_TYPE_IS_FLOAT)
#  define DATA_TYPE float
# else
#  define DATA_TYPE double
# endif
#endif

#ifndef DATA_PRINTF_MODIFIER
# if defined(DATA_TYPE_IS_INT)
#  define DATA_PRINTF_MODIFIER "%d "
# elif defined(DATA_TYPE_IS_FLOAT)
#  define DATA_PRINTF_MODIFIER "%0.2f "
# else
#  define DATA_PRINTF_MODIFIER "%0.2lf "
# endif
#endif

/* Literals and math functions matching the element type: single precision
   variants when the float type is selected, double precision otherwise. */
#if defined(DATA_TYPE_IS_FLOAT)
# define SCALAR_VAL(x) x##f
# define SQRT_FUN(x) sqrtf(x)
# define EXP_FUN(x) expf(x)
# define POW_FUN(x, y) powf(x, y)
#else
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
# define EXP_FUN(x) exp(x)
# define POW_FUN(x, y) pow(x, y)
#endif

/* ---- array declarators ------------------------------------------------ */
/* POLYBENCH_nD(var, D1..Dn, d1..dn): the upper-case extents are the
   compile-time dataset sizes, the lower-case ones the run-time size
   parameters.  Used as `DATA_TYPE POLYBENCH_2D(A, N, M, n, m)`. */
#ifdef POLYBENCH_USE_C99_PROTO
# define POLYBENCH_C99_SELECT(fixed, dynamic) dynamic
#else
# define POLYBENCH_C99_SELECT(fixed, dynamic) fixed
#endif

/* POLYBENCH_USE_RESTRICT qualifies array parameters restrict, as
   PolyBench/C 4.2.1 does: gcc may then interchange and vectorize loops it
   cannot prove free of aliasing otherwise. */
#ifdef POLYBENCH_USE_RESTRICT
# define POLYBENCH_RESTRICT restrict
#else
# define POLYBENCH_RESTRICT
#endif

#define POLYBENCH_1D(var, D1, d1) \
  var[POLYBENCH_RESTRICT POLYBENCH_C99_SELECT(D1, d1)]
#define POLYBENCH_2D(var, D1, D2, d1, d2) \
  var[POLYBENCH_RESTRICT POLYBENCH_C99_SELECT(D1, d1)][POLYBENCH_C99_SELECT(D2, d2)]
#define POLYBENCH_3D(var, D1, D2, D3, d1, d2, d3) \
  var[POLYBENCH_RESTRICT POLYBENCH_C99_SELECT(D1, d1)][POLYBENCH_C99_SELECT(D2, d2)] \
     [POLYBENCH_C99_SELECT(D3, d3)]
#define POLYBENCH_4D(var, D1, D2, D3, D4, d1, d2, d3, d4) \
  var[POLYBENCH_RESTRICT POLYBENCH_C99_SELECT(D1, d1)][POLYBENCH_C99_SELECT(D2, d2)] \
     [POLYBENCH_C99_SELECT(D3, d3)][POLYBENCH_C99_SELECT(D4, d4)]

/* ---- loop bounds ------------------------------------------------------ */
/* Each kernel defines its own `_PB_X POLYBENCH_LOOP_BOUND(X, x)`. */
#ifdef POLYBENCH_USE_SCALAR_LB
# define POLYBENCH_LOOP_BOUND(X, x) X
  /* the size parameters may then go unused, which is intended */
# if defined(__GNUC__)
#  pragma GCC diagnostic ignored "-Wunused-parameter"
# endif
#else
# define POLYBENCH_LOOP_BOUND(X, x) x
#endif

#endif /* NESTOR_POLYBENCH_H */

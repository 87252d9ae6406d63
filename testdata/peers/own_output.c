// A region in the form nestor's output takes: helper macros, min/max and floord bounds, a counter declared before a
// loop without initialization that a second loop continues, register temporaries, OpenMP pragmas and (void)i.
#define N 45
#define M 37
double C[N][M], A[N][M], B[M];

void kernel(int n, int m, double alpha) {
  int i, j;
#pragma scop
  #ifndef nestor_floord
  #define nestor_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
  #endif
  #ifndef nestor_ceild
  #define nestor_ceild(n, d) (((n) < 0) ? -(-(n) / (d)) : ((n) + (d) - 1) / (d))
  #endif
  #ifndef nestor_min
  #define nestor_min(a, b) ((a) < (b) ? (a) : (b))
  #endif
  #ifndef nestor_max
  #define nestor_max(a, b) ((a) > (b) ? (a) : (b))
  #endif
  if (n >= 1 && m >= 1) {
    #pragma omp parallel for
    for (int t1 = 0; t1 <= nestor_floord(n - 1, 16); t1++) {
      int t2 = 16*t1;
      for (; t2 < nestor_min(n - 2, 16*t1 + 15); t2 += 3) {
        double B_r = B[0];
        #pragma omp simd
        for (int t3 = nestor_max(0, 8*nestor_ceild(16*t1 - 15, 8) - 16*t1 + 15 - 15); t3 < m; t3++) {
          double C_r = C[t2][t3];
          double C_r2 = C[t2 + 1][t3];
          double C_r3 = C[t2 + 2][t3];
          C_r += alpha * A[t2][t3] * B_r;
          C_r2 += alpha * A[t2 + 1][t3] * B_r;
          C_r3 += alpha * A[t2 + 2][t3] * B_r;
          C[t2][t3] = C_r;
          C[t2 + 1][t3] = C_r2;
          C[t2 + 2][t3] = C_r3;
        }
      }
      for (; t2 < nestor_min(n, 16*t1 + 16); t2++)
        for (int t3 = 0; t3 < m; t3++)
          C[t2][t3] += alpha * A[t2][t3] * B[0];
    }
  }
  (void)i; (void)j; /* counters the new loops do not use */
#pragma endscop
}

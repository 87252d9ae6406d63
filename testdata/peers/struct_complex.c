// Complex numbers as structs: arrays of struct cpx as parameters, members read and written as
// A[i][j].re and y[i].im, a complex scale factor passed by value; a time loop whose members depend
// on each other across iterations.
#define N 40
#define T 6
struct cpx {
  double re, im;
};
void kernel(int n, struct cpx alpha, struct cpx A[n][n], struct cpx x[n], struct cpx y[n], struct cpx u[n + 2]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    y[i].re = 0.0;
    y[i].im = 0.0;
    for (int j = 0; j < n; j++) {
      y[i].re += A[i][j].re * x[j].re - A[i][j].im * x[j].im;
      y[i].im += A[i][j].re * x[j].im + A[i][j].im * x[j].re;
    }
    double re = alpha.re * y[i].re - alpha.im * y[i].im;
    y[i].im = alpha.re * y[i].im + alpha.im * y[i].re;
    y[i].re = re;
  }
  for (int t = 0; t < T; t++)
    for (int i = 1; i <= n; i++) {
      u[i].re = 0.5 * (u[i - 1].im + u[i + 1].re) + 0.25 * y[i - 1].re;
      u[i].im = u[i].re - 0.5 * u[i - 1].im;
    }
#pragma endscop
}

/* A body unrolled by hand: four copies of one pattern with - and /, which
   --share outlines into a local macro. */
#ifndef N
# define N 4000
#endif

void init_array(int n, double x[N], double y[N]) {
  int i;
  for (i = 0; i < n; i++) {
    x[i] = (double)(i % 17) - 8.5;
    y[i] = 0.0;
  }
}

void kernel_share4(int n, double a, double b, double c, double x[N], double y[N]) {
  int i;
#pragma scop
  for (i = 0; i < n / 4; i++) {
    y[4 * i] = (x[4 * i] - a) / b + c * x[4 * i + 1];
    y[4 * i + 1] = (x[4 * i + 1] - a) / b + c * x[4 * i + 2];
    y[4 * i + 2] = (x[4 * i + 2] - a) / b + c * x[4 * i + 3];
    y[4 * i + 3] = (x[4 * i + 3] - a) / b + c * x[4 * i];
  }
#pragma endscop
}

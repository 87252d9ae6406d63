/* The region reads function locals computed before it: a scalar, a
   fixed-size array and a variable-length array. Execute captures them. */
#ifndef N
#define N 10
#endif

void kernel_local(int n, double x[n], double y[n])
{
  int i;
  double s = 0.5 * n + 0.25;
  double w[3];
  double v[n];
  for (i = 0; i < 3; i++)
    w[i] = i + 1.5;
  for (i = 0; i < n; i++)
    v[i] = 2.0 * i;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = s * x[i] + w[1] + v[i];
#pragma endscop
#ifdef LOCALK_ERROR
#error "after the region"
#endif
}

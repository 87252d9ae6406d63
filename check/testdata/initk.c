/* PolyBench style: init_array sets inputs by parameter name. */
static void init_array(int n, double *alpha, double x[n])
{
  *alpha = 100.0;
  for (int i = 0; i < n; i++)
    x[i] = i;
}

static void kernel_init(int n, double alpha, double x[n], double y[n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] = alpha * x[i];
#pragma endscop
}

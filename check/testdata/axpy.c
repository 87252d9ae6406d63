/* A scaled sum with variable-length array parameters. N comes from this
   file (unless -D N=...), m from Options.Params. */
#ifndef N
#define N 40
#endif

/* Not defined anywhere: the harness must drop this file's main. */
extern void never_defined(void);

void kernel_axpy(int n, int m, double alpha, double A[n][m], double B[n][m])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      B[i][j] = alpha * A[i][j] + B[i][j];
#pragma endscop
}

int main(void)
{
  never_defined();
  return 0;
}

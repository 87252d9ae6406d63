// Array parameters in the forms C gives them: double (*restrict A)[n] and double (*B)[N], as double A[n][n] decays.
#define N 36
void kernel(int n, double (*restrict A)[n], double (*B)[N], double x[restrict n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] += B[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      x[i] -= A[i][j] * x[j] * 0.001;
#pragma endscop
}

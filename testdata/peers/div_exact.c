// Divisions in subscripts that are exact ((2*i + 2) / 2, (4*j) / 2) and a comma expression in a subscript.
#define N 32
void kernel(int n, double A[n + 1][2 * n], double x[n + 1]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[(2 * i + 2) / 2][(4 * j) / 2] = x[(2 * i + 3) / 2] + A[i][(0, j)];
#pragma endscop
}

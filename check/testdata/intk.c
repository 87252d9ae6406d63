/* Integer kernel writing a parameter array and a global one. */
#define N 50

int G[N];

void kernel_int(int n, int A[N], int C[N][N])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    G[i] = A[i] * 3;
    for (int j = 0; j < n; j++)
      C[i][j] = A[i] * A[j] + G[i];
  }
#pragma endscop
}

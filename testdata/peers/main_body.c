// The scop pragmas around the whole body of main, declarations of the counters and the arrays included.
#define N 50
int main(void) {
#pragma scop
  int i, j;
  double A[N][N], s[N];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i * j % 11) / 11.0;
  for (i = 0; i < N; i++) {
    s[i] = 0.0;
    for (j = 0; j <= i; j++)
      s[i] += A[i][j] * A[j][i];
  }
  for (i = 1; i < N; i++)
    s[i] = s[i] + s[i - 1] * 0.5;
#pragma endscop
  return (int)s[N - 1] & 1;
}

/* The region in main over main's own arrays, one declared before the
   region and one inside it: the harness compares them as the last region
   of main ends. */
#define N 64
int main(void)
{
  double x[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i][j] = i + j;
#pragma scop
  double y[N];
  for (int i = 1; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i][j] = x[i - 1][j] + 1;
  for (int j = 0; j < N; j++)
    y[j] = 2 * x[N - 1][j];
#pragma endscop
  return (int)y[0] & 1;
}

// Struct members in main, as PPCG's tests write them: a global array of structs b[i][j].c, a
// typedef'd struct with int members in a local array, and a struct scalar that accumulates.
#define N 30
struct pair {
  double c, d;
};
typedef struct {
  int lo, hi;
} range;
struct pair b[N][N];
double out[N];
int main(void) {
  int i, j;
  range r[N];
  struct pair acc;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      b[i][j].c = b[i][j].d * 2.0 + i;
  for (i = 1; i < N; i++)
    for (j = 0; j < N; j++)
      b[i][j].d = b[i - 1][j].c + b[i][j].d;
  for (i = 0; i < N; i++) {
    r[i].lo = i % 7;
    r[i].hi = r[i].lo + 3 * i;
  }
  acc.c = 0.0;
  acc.d = 1.0;
  for (i = 0; i < N; i++) {
    acc.c += b[i][i].d;
    acc.d = acc.d * 0.5 + r[i].hi;
    out[i] = acc.c - acc.d;
  }
#pragma endscop
  return (int)out[N - 1] & 1;
}

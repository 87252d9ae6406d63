void f(int n, double x[n], double y[n]) {
  int i, j;
  double m, s;
#pragma scop
  m = 0;
  for (i = 0; i < n; i++)
    if (x[i] > m) {
      m = x[i];
      for (j = 0; j < n; j++) // want "condition is not affine: x\[i\] > m reads memory, and a data-dependent if may only assign scalar variables, not a loop"
        y[j] = 0;
    }
  for (i = 0; i < n; i++)
    if (x[i] > m)
      if (x[i] > s) // want "not a nested if"
        s = x[i];
#pragma endscop
}

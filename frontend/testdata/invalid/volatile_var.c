void f(int n, double x[n]) {
  volatile double v = 1;
#pragma scop
  for (int i = 0; i < n; i++)
    x[i] = v; // want "volatile variable v"
#pragma endscop
}

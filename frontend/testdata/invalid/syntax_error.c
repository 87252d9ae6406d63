void f(int n, double x[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    x[i] = 1 +; // want "unexpected ';'"
#pragma endscop
} // want "unexpected"

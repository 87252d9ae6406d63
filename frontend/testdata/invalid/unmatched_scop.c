void f(int n, double x[n]) {
#pragma scop // want "#pragma scop without #pragma endscop"
  for (int i = 0; i < n; i++)
    x[i] = 0;
}

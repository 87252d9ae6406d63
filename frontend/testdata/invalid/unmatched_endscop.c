void f(int n, double x[n]) {
  for (int i = 0; i < n; i++)
    x[i] = 0;
#pragma endscop // want "#pragma endscop without #pragma scop"
}

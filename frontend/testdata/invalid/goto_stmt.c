void f(int n, double x[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    goto out; // want "goto"
  }
#pragma endscop
out:
  ;
}

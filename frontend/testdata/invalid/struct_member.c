struct s { double v; };
void f(int n, struct s *p, double x[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = p->v; // want "struct member access"
#pragma endscop
}

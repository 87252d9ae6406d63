void f(int n, double x[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = x[i] + y; // want "^undeclared identifier 'y'$"
  for (j = 0; j < n; j++) // want "^undeclared identifier 'j'$"
    x[j] = 0; // want "^undeclared identifier 'j'$"
#pragma endscop
}

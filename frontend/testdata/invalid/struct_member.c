struct mixed { int k; double v; };
struct nested { struct mixed m; double w; };
struct withArray { double v[3]; };
union u { double d; long l; };
struct cpx { double re, im; };
struct mixed gm[10];
struct nested gn[10];
struct withArray gw[10];
union u gu[10];
struct cpx gc[10], gd[10];
void f(int n, double x[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    x[i] = gm[i].v; // want "variable gm has type .*member v of struct mixed has type double, member k has type int"
    x[i] = gn[i].m.v; // want "struct member access gn\[i\]\.m .*nested structs and array members are outside the subset"
    x[i] = gw[i].v[0]; // want "struct member access gw\[i\]\.v .*nested structs and array members"
    x[i] = gu[i].d; // want "variable gu has type .*it is a union"
    gc[i] = gd[i]; // want "whole struct g[cd]\[i\]: nestor reads and writes the members of g[cd] one at a time \(g[cd]\[i\]\.re\)"
  }
#pragma endscop
}

#pragma scop // want "outside a function body"
int g;
#pragma endscop
void f(void) {}

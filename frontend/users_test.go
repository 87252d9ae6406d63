package frontend

import (
	"errors"
	"strings"
	"testing"
)

// TestUserShapes checks the translation of programs as users write them
// (issue 14): each case's summary must contain every wanted line.
func TestUserShapes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"chained assignment runs the inner one first (deriche.c)", `
double a1, a5;
void f(double k) {
#pragma scop
  a1 = a5 = k;
#pragma endscop
}`, []string{
			"{ S0[] } beta=[0] dir=[] acc=w:a5,k = L1:double",
			"{ S1[] } beta=[1] dir=[] acc=w:a1,a5 = L1:double",
		}},
		{"chained conversion reads back the narrower left side", `
double d; float x;
void f(double k) {
#pragma scop
  d = x = k;
#pragma endscop
}`, []string{
			"acc=w:x,k = conv<float>(L1:double)",
			"acc=w:d,x = conv<double>(L1:float)",
		}},
		{"math functions of math.h and their float forms", `
#include <math.h>
double a[10]; float b[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++) {
    a[i] = log10(a[i]) + atan2(a[i], 2.0) + fmod(a[i], 3.0) + cbrt(a[i]);
    b[i] = tanhf(b[i]) + hypotf(b[i], 1.0f);
  }
#pragma endscop
}`, []string{"log10(L1:double):double", "atan2(L1:double, 2.0:double):double", "tanhf(L1:float):float"}},
		{"a function declared const is a value of its arguments", `
__attribute__((const)) double sq(int x);
double a[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++)
    a[i] = sq(i);
#pragma endscop
}`, []string{"sq(i:int):double"}},
		{"a pure function when the region writes only unaliased locals", `
__attribute__((pure)) double peek(int x);
double g;
void f(void) {
  double s = 0;
#pragma scop
  for (int i = 0; i < 10; i++)
    s += peek(i);
#pragma endscop
  g = s;
}`, []string{"+= peek(i:int):double"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := summary(parseOne(t, tc.src).Prog)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
		})
	}
}

// TestUserErrors checks the positioned reasons for what stays refused.
func TestUserErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"a pure function may read what the region writes", `
__attribute__((pure)) double peek(int x);
double a[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++)
    a[i] = peek(i);
#pragma endscop
}`, "test.c:7:12: not a static control part: call to peek, declared __attribute__((pure)): it may read a"},
		{"a plain function may have side effects", `
double h(double);
double a[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++)
    a[i] = h(a[i]);
#pragma endscop
}`, "test.c:7:12: not a static control part: call to h, which may have side effects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("test.c", []byte(tc.src), Config{})
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v, want an ErrorList", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant it to contain\n%s", err, tc.want)
			}
		})
	}
}

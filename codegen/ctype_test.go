package codegen

import (
	"bytes"
	"strings"
	"testing"

	"nestor/frontend"
)

// TestCounterType checks that the generated counters are long exactly
// when the values the loops range over may not fit an int.
func TestCounterType(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      string
	}{
		{"int sizes", "void f(int n, double a[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    a[i] = 1;\n#pragma endscop\n}\n", "int"},
		{"long parameter", "void f(long n, double *a) {\n#pragma scop\n  for (long i = 0; i < n; i++)\n    a[i] = 1;\n#pragma endscop\n}\n", "long"},
		{"constant past int", "double a[10];\nvoid f(void) {\n#pragma scop\n  for (long i = 3000000000L; i < 3000000010L; i++)\n    a[i - 3000000000L] = 1;\n#pragma endscop\n}\n", "long"},
		{"long counter read", "void f(int n, long *a) {\n#pragma scop\n  for (long i = 0; i < n; i++)\n    a[i] = i;\n#pragma endscop\n}\n", "long"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := frontend.Parse("f.c", []byte(c.src), frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			p := f.Scops[0].Prog
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := PrintC(&b, p, n, ""); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "for ("+c.want+" ") {
				t.Fatalf("want %s counters:\n%s", c.want, b.String())
			}
		})
	}
}

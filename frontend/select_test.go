package frontend_test

import (
	"testing"

	"nestor/frontend"
	"nestor/interp"
)

// TestDataSelect runs if statements with data-dependent conditions,
// translated into selects, under the interpreter and compares with what
// the C code computes, written out in Go.
func TestDataSelect(t *testing.T) {
	src := `void f(int n, double a[16], double out[8], int where[2]) {
  int i, k, cnt;
  double m, s, neg;
#pragma scop
  m = a[0];
  k = 0;
  s = 0;
  neg = 0;
  cnt = 0;
  for (i = 1; i < n; i++)
    if (a[i] < m) {
      m = a[i];
      k = i;
    }
  for (i = 0; i < n; i++)
    if (a[i] > m + 1) {
      s += a[i];
      cnt = cnt + 1;
      m = m + 0.5;
    } else
      neg -= a[i];
  for (i = 0; i < n; i++)
    if (s > 3)
      s = s / 2;
  out[0] = m;
  out[1] = s;
  out[2] = neg;
  where[0] = k;
  where[1] = cnt;
#pragma endscop
}
`
	f, err := frontend.Parse("select.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	in := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3}
	// The C code, in Go: the condition reads the values before the
	// branch updates them (m in the second loop).
	m, k := in[0], 0
	for i := 1; i < len(in); i++ {
		if in[i] < m {
			m, k = in[i], i
		}
	}
	s, neg, cnt := 0.0, 0.0, 0
	for i := range in {
		if in[i] > m+1 {
			s += in[i]
			cnt++
			m += 0.5
		} else {
			neg -= in[i]
		}
	}
	for range in {
		if s > 3 {
			s /= 2
		}
	}
	params := []int64{int64(len(in))}
	mem, err := interp.NewMemory(p, params)
	if err != nil {
		t.Fatal(err)
	}
	arr := func(name string) int { return p.ArrayIndex(name) }
	for i, x := range in {
		mem.SetFloat64(arr("a"), i, x)
	}
	if err := interp.Run(p, params, mem); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		flat int
		got  float64
		want float64
	}{
		{"out", 0, mem.Float64(arr("out"), 0), m},
		{"out", 1, mem.Float64(arr("out"), 1), s},
		{"out", 2, mem.Float64(arr("out"), 2), neg},
		{"where", 0, float64(mem.Int64(arr("where"), 0)), float64(k)},
		{"where", 1, float64(mem.Int64(arr("where"), 1)), float64(cnt)},
	} {
		if c.got != c.want {
			t.Errorf("%s[%d] = %v, want %v", c.name, c.flat, c.got, c.want)
		}
	}
	// One assignment needs no temporary; several share one.
	temps := 0
	for _, a := range p.Arrays {
		if a.Storage == 3 { // ScopLocal
			temps++
		}
	}
	if temps != 2 {
		t.Errorf("%d condition temporaries, want 2 (the third if has one assignment)", temps)
	}
}

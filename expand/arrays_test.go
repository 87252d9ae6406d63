package expand

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"nestor/frontend"
	"nestor/interp"
	"nestor/ir"
)

// arrayProg parses a function with a scratch array t[n] (a parameter,
// so its final values are the caller's) around body.
func arrayProg(t *testing.T, body string) *ir.Program {
	t.Helper()
	src := "void f(int n, double A[n][n][n], double C[n][n], double t[n], double y[n]) {\n  int r, q, p, s;\n#pragma scop\n" +
		body + "\n#pragma endscop\n}\n"
	f, err := frontend.Parse("a.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Scops[0].Prog
}

// doitgen: t is filled, summed into and copied out in every (r, q).
const scratch = `  for (r = 0; r < n; r++)
    for (q = 0; q < n; q++) {
      for (p = 0; p < n; p++) {
        t[p] = 0;
        for (s = 0; s < n; s++)
          t[p] += A[r][q][s] * C[s][p];
      }
      for (p = 0; p < n; p++)
        A[r][q][p] = t[p];
    }`

// TestExpandArrayScratch: the scratch array gets a copy per r, which
// then carries no dependence, and its final values are copied out. The
// expanded program computes what the original does (interp, every
// array compared), at sizes where the loops run and where they do not.
func TestExpandArrayScratch(t *testing.T) {
	p := arrayProg(t, scratch)
	q, xs, err := ExpandArrays(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 1 || xs[0].Name != "t" || xs[0].Level != 0 || xs[0].CopyOut < 0 {
		t.Fatalf("expansions %v, want t along loop 1 with a copy-out", xs)
	}
	if got := q.Stmts[xs[0].CopyOut].Depth(); got != 1 {
		t.Errorf("the copy-out runs in %d loops, want 1 (over p alone)", got)
	}
	for _, n := range []int64{0, 1, 4} {
		sameResults(t, p, q, n)
	}
}

// TestExpandArrayRefused: the cases where a copy per iteration would
// change a value, could not be copied out, or would gain nothing.
func TestExpandArrayRefused(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"read before written", `  for (r = 0; r < n; r++)
    for (p = 0; p < n; p++) {
      y[p] = t[p];
      t[p] = A[r][0][p];
    }`},
		{"an element read that the iteration did not write", `  for (r = 0; r < n; r++) {
    for (p = 1; p < n; p++)
      t[p] = A[r][0][p];
    for (p = 0; p < n; p++)
      A[r][1][p] = t[p];
  }`},
		{"the written elements move with the loop (no copy-out)", `  for (r = 0; r < n; r++)
    for (p = 0; p <= r; p++) {
      t[p] = A[r][0][p];
      A[r][1][p] = t[p];
    }`},
		{"the loop carries another dependence", `  for (r = 1; r < n; r++)
    for (p = 0; p < n; p++) {
      t[p] = A[r - 1][0][p];
      A[r][0][p] = t[p];
    }`},
		{"parallel already", `  for (r = 0; r < n; r++)
    for (p = 0; p < n; p++)
      A[r][0][p] = C[r][p];`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := arrayProg(t, c.body)
			_, xs, err := ExpandArrays(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(xs) != 0 {
				t.Errorf("expanded %v", xs)
			}
		})
	}
}

// TestExpandArrayMemory: a scratch array indexed by nothing an array of
// the region bounds (its loop runs over m, which no access subscripts)
// stays as it is: a copy per iteration could take m·n elements where
// the region's data is n².
func TestExpandArrayMemory(t *testing.T) {
	src := "void f(int n, int m, double C[n][n], double t[n]) {\n  int r, p;\n#pragma scop\n" + `  for (r = 0; r < m; r++) {
    for (p = 0; p < n; p++)
      t[p] = C[0][p] * r;
    for (p = 0; p < n; p++)
      C[1][p] += t[p];
  }` + "\n#pragma endscop\n}\n"
	f, err := frontend.Parse("m.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, xs, err := ExpandArrays(f.Scops[0].Prog, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 0 {
		t.Errorf("expanded %v", xs)
	}
}

// sameResults runs p and q with parameter n on the same pseudo-random
// inputs and compares every array p has, bit for bit, but the region-only
// scalars named in dead (their values after the region are never read,
// and a rewrite may leave them unwritten).
func sameResults(t *testing.T, p, q *ir.Program, n int64, dead ...string) {
	t.Helper()
	params := []int64{n}
	mp, err := interp.NewMemory(p, params)
	if err != nil {
		t.Fatal(err)
	}
	mq, err := interp.NewMemory(q, params)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for a := range p.Arrays {
		for k := range mp.Len(a) {
			mp.SetFloat64(a, k, rng.Float64()+1)
		}
		copy(mq.Bytes(a), mp.Bytes(a))
	}
	if err := interp.Run(p, params, mp); err != nil {
		t.Fatal(err)
	}
	if err := interp.Run(q, params, mq); err != nil {
		t.Fatal(err)
	}
	for a, arr := range p.Arrays {
		if arr.RegionOnly && arr.Rank() == 0 && slices.Contains(dead, arr.Name) {
			continue
		}
		if !bytes.Equal(mp.Bytes(a), mq.Bytes(a)) {
			t.Errorf("n = %d: array %s differs after the rewrite", n, arr.Name)
		}
	}
}

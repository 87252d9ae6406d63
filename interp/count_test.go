package interp

import (
	"testing"

	"nestor/frontend"
)

// TestCount compares Count with the instances Instances lists.
func TestCount(t *testing.T) {
	src := `void k(int n, double A[n][n], double B[n][n], double x[n]) {
#pragma scop
	for (int i = 0; i < n; i++)
		for (int j = 0; j <= i; j++)
			A[i][j] = A[i][j] * 2.0 + B[j][i];
	for (int i = 0; i < n; i += 3)
		for (int j = i; j < n; j++)
			x[j] = x[j] + A[i][j];
	for (int i = 0; i < n; i++)
		if (i % 2 == 0)
			x[i] = 0;
#pragma endscop
}
`
	f, err := frontend.Parse("count.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	for _, n := range []int64{0, 1, 7, 20} {
		want := make([]int64, len(p.Stmts))
		if err := Instances(p, []int64{n}, func(st int, _ []int64) error { want[st]++; return nil }); err != nil {
			t.Fatal(err)
		}
		got, err := Count(p, []int64{n})
		if err != nil {
			t.Fatal(err)
		}
		for st := range want {
			if got[st] != want[st] {
				t.Errorf("n=%d: statement %d: Count %d, Instances %d", n, st, got[st], want[st])
			}
		}
	}
}

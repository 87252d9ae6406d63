package expand

import (
	"testing"

	"nestor/ir"
)

// TestDemoteLU: ludcmp's factorization rows. Both ranges of w copy
// A[i][j] and store back into it: the copies are dropped, the stores
// work on the element, the second store (A[i][j] = w) is dropped too,
// and no statement accesses w any more.
func TestDemoteLU(t *testing.T) {
	p := prog(t, "  double w;\n", `for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }`, "")
	q, ds, err := Demote(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || !ds[0].Dropped || ds[0].StoreDropped || !ds[1].Dropped || !ds[1].StoreDropped {
		t.Fatalf("demotions %+v, want both ranges, their copies dropped and the second store", ds)
	}
	if len(q.Stmts) != 3 {
		t.Fatalf("%d statements left, want 3 (two updates and the division)", len(q.Stmts))
	}
	w := -1
	for a, arr := range p.Arrays {
		if arr.Name == "w" {
			w = a
		}
	}
	for _, s := range q.Stmts {
		for _, acc := range s.Accesses {
			if acc.Array == w {
				t.Errorf("%s still accesses w", s.Name)
			}
		}
		if acc := s.Accesses[0]; p.Arrays[acc.Array].Name != "A" || acc.Index[0].Iter[0] != 1 || acc.Index[1].Iter[1] != 1 {
			t.Errorf("%s writes %s%v, want A[i][j]", s.Name, p.Arrays[acc.Array].Name, acc.Index)
		}
	}
	if err := ir.Check(q); err != nil {
		t.Fatal(err)
	}
	sameResults(t, p, q, 9, "w")
}

// TestDemoteScaled: a kill that is not a copy (gemm written with a
// scalar accumulator) becomes a store into the element, kept.
func TestDemoteScaled(t *testing.T) {
	p := prog(t, "  double s;\n", `for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      s = B[i][j] * 2.0;
      for (k = 0; k < n; k++)
        s += A[i][k] * A[k][j];
      B[i][j] = s;
    }`, "")
	q, ds, err := Demote(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Dropped || !ds[0].StoreDropped || len(q.Stmts) != 2 {
		t.Fatalf("demotions %+v leaving %d statements, want one, the store dropped, 2 statements", ds, len(q.Stmts))
	}
	sameResults(t, p, q, 7, "s")
}

// TestDemoteRefused: ranges whose element is touched otherwise, written
// elsewhere, stored only sometimes, or of another type stay scalars.
func TestDemoteRefused(t *testing.T) {
	for name, c := range map[string]struct{ decls, body string }{
		"element read in the range": {"  double w;\n", `for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      w = A[i][j];
      for (k = 0; k <= j; k++)
        w -= A[i][k] * B[k][j];
      A[i][j] = w;
    }`},
		"stored element read in the range": {"  double w;\n", `for (i = 0; i < n; i++)
    for (j = 0; j < n - 1; j++) {
      w = A[i][j];
      for (k = 0; k < n; k++)
        w += A[i][k];
      A[i][j + 1] = w;
    }`},
		"store under a guard": {"  double w;\n", `for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < n; k++)
        w += B[i][k];
      if (j > 2)
        A[i][j] = w;
    }`},
		"element read by the store": {"  double w;\n", `for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      w = 0;
      for (k = 0; k < n; k++)
        w += B[i][k] * B[k][j];
      A[i][j] = A[i][j] + w;
    }`},
		"narrower scalar": {"  float w;\n", `for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < n; k++)
        w += B[i][k];
      A[i][j] = w;
    }`},
	} {
		p := prog(t, c.decls, c.body, "")
		_, ds, err := Demote(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 0 {
			t.Errorf("%s: demoted %+v", name, ds)
		}
	}
}

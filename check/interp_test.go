package check_test

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"nestor/check"
	"nestor/frontend"
	"nestor/interp"
	"nestor/ir"
)

// interpRTol bounds the relative difference between the interpreter and
// the compiled original. The harness is built with -ffp-contract=off, so the
// compiler may not fuse a*b+c and rounds every operation as the interpreter
// does: the results must be bit for bit the same.
const interpRTol = 0

// TestInterpAgreesWithCompiled runs every corpus kernel at MINI size twice:
// compiled from the original source by the harness, and by the reference
// interpreter on the harness's own inputs, including the function locals
// the harness captures when the region starts (adi's coefficients,
// correlation's eps, deriche's filter constants). The written arrays must
// agree.
func TestInterpAgreesWithCompiled(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) < 32 {
		t.Fatalf("found %d corpus kernels", len(ks))
	}
	for _, k := range ks {
		t.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(t *testing.T) {
			t.Parallel()
			f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"MINI_DATASET"}})
			if err != nil {
				t.Fatal(err)
			}
			scop := f.Scops[0]
			p := scop.Prog
			in, out, err := check.Execute(context.Background(), f, scop, check.Options{Defines: []string{"MINI_DATASET"}, CFlags: []string{"-ffp-contract=off"}})
			if err != nil {
				t.Fatal(err)
			}
			params := make([]int64, len(p.Params))
			for k, q := range p.Params {
				v, ok := in.Params[q.Name]
				if !ok {
					t.Fatalf("the harness did not report parameter %s", q.Name)
				}
				params[k] = v
			}
			m, err := interp.NewMemory(p, params)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := interp.NewMemory(p, params)
			for a, arr := range p.Arrays {
				d := in.Array(arr.Name)
				if d == nil && arr.Storage == ir.FuncLocal {
					t.Fatalf("the harness did not capture the local %s", arr.Name)
				}
				if d == nil {
					continue
				}
				load(t, m, a, d)
				if o := out.Array(arr.Name); o != nil {
					d = o
				}
				load(t, want, a, d)
			}
			if err := interp.Run(p, params, m); err != nil {
				t.Fatal(err)
			}
			for a, arr := range p.Arrays {
				// The locals (captured when the region starts, so loaded
				// above) die with the kernel: nothing to compare.
				if in.Array(arr.Name) == nil || arr.Storage == ir.FuncLocal {
					continue
				}
				if err := agree(m, want, a, arr); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func load(t *testing.T, m *interp.Memory, a int, d *check.ArrayData) {
	t.Helper()
	if len(m.Bytes(a)) != len(d.Raw) {
		t.Fatalf("array %s: interpreter has %d bytes, harness %d", d.Name, len(m.Bytes(a)), len(d.Raw))
	}
	copy(m.Bytes(a), d.Raw)
}

// agree compares array a of the interpreter's memory with the compiled
// result: integers exactly, floating point within interpRTol.
func agree(got, want *interp.Memory, a int, arr *ir.Array) error {
	for k := range got.Len(a) {
		if arr.Elem.IsFloat() {
			x, y := got.Float64(a, k), want.Float64(a, k)
			if x == y || math.IsNaN(x) && math.IsNaN(y) {
				continue
			}
			if math.Abs(x-y) > interpRTol*math.Max(math.Abs(x), math.Abs(y)) {
				return fmt.Errorf("%s[%d]: interpreter %.17g, compiled %.17g", arr.Name, k, x, y)
			}
		} else if x, y := got.Int64(a, k), want.Int64(a, k); x != y {
			return fmt.Errorf("%s[%d]: interpreter %d, compiled %d", arr.Name, k, x, y)
		}
	}
	return nil
}

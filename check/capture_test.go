package check

import (
	"context"
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/ir"
)

// TestExecuteCapturesLocals runs a kernel whose region reads function
// locals computed before it: Execute's inputs must hold their values at
// the region's start, after the regular inputs, which stay as filled.
func TestExecuteCapturesLocals(t *testing.T) {
	needCC(t)
	f, err := frontend.ParseFile("testdata/localk.c", frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 10
	// No fused multiply-add in C, and none in Go: float64() rounds.
	in, out, err := Execute(context.Background(), f, nil, Options{CFlags: []string{"-ffp-contract=off"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range in.Arrays {
		names = append(names, a.Name)
	}
	if got := strings.Join(names, " "); got != "x y s w v" {
		t.Fatalf("inputs %q, want the parameters x y, then the locals s w v", got)
	}
	if in.Params["n"] != n {
		t.Fatalf("n = %d, want %d", in.Params["n"], n)
	}
	floats := func(a *ArrayData) []float64 {
		if a.Elem != ir.Double || len(a.Raw) != 8*a.Len() {
			t.Fatalf("%s: %v, %d bytes for %v", a.Name, a.Elem, len(a.Raw), a.Dims)
		}
		xs := make([]float64, a.Len())
		for k := range xs {
			xs[k] = math.Float64frombits(binary.LittleEndian.Uint64(a.Raw[8*k:]))
		}
		return xs
	}
	if s := in.Array("s"); s.Dims != nil || floats(s)[0] != 0.5*n+0.25 {
		t.Errorf("s: dims %v, value %v, want %v", s.Dims, floats(s), 0.5*n+0.25)
	}
	if w := in.Array("w"); !equalDims(w.Dims, []int64{3}) || !equalFloats(floats(w), []float64{1.5, 2.5, 3.5}) {
		t.Errorf("w: dims %v, values %v", w.Dims, floats(w))
	}
	v := in.Array("v")
	if !equalDims(v.Dims, []int64{n}) {
		t.Fatalf("v: dims %v", v.Dims)
	}
	for k, x := range floats(v) {
		if x != 2*float64(k) {
			t.Errorf("v[%d] = %v, want %v", k, x, 2*float64(k))
		}
	}
	// The regular inputs are the filled values, before the kernel wrote y.
	x, y0, y := floats(in.Array("x")), floats(in.Array("y")), floats(out.Array("y"))
	for k := range y {
		if want := float64((0.5*n+0.25)*x[k]) + 2.5 + 2*float64(k); y[k] != want {
			t.Errorf("y[%d] = %v, want %v", k, y[k], want)
		}
		if y0[k] == y[k] || y0[k] < 0 || y0[k] >= 1 {
			t.Errorf("input y[%d] = %v is not a filled value", k, y0[k])
		}
	}
	if out.Array("s") != nil {
		t.Error("the outputs hold a local")
	}
}

// TestCaptureLineDirective checks that the instrumented copy keeps the
// user's file name and line numbers in compiler messages.
func TestCaptureLineDirective(t *testing.T) {
	needCC(t)
	f, err := frontend.ParseFile("testdata/localk.c", frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Execute(context.Background(), f, nil, Options{Defines: []string{"LOCALK_ERROR"}, KeepDir: t.TempDir()})
	abs, _ := filepath.Abs("testdata/localk.c")
	if err == nil || !strings.Contains(err.Error(), abs+":22:") {
		t.Fatalf("error %v, want one at %s:22", err, abs)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

package bench

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/check"
	"nestor/ir"
)

func needCC(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath(DefaultCC); err != nil {
		t.Skipf("no %s: %v", DefaultCC, err)
	}
}

func TestGeomean(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},                   // no kernel: no mean
		{[]float64{2}, 2},          // one kernel
		{[]float64{1, 4}, 2},       // the square root of the product
		{[]float64{0.5, 2}, 1},     // a slowdown cancels a speedup
		{[]float64{3, 3, 3, 3}, 3}, // all alike
	} {
		if got := geomean(tc.xs); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("geomean(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestEnviron(t *testing.T) {
	base := []string{"PATH=/bin", "OMP_NUM_THREADS=8", "OPENBLAS_CORETYPE=Haswell", "OPENBLAS_L2_SIZE=512", "HOME=/root"}
	got := environ(base, map[string]string{"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}, blasUnset)
	want := []string{"PATH=/bin", "HOME=/root", "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1"}
	if !slices.Equal(got, want) {
		t.Errorf("environ = %q, want %q", got, want)
	}
	if got := environ(base, nil, nil); !slices.Equal(got, base) {
		t.Errorf("environ with nothing to change = %q", got)
	}
}

func TestMedian(t *testing.T) {
	if m := median(nil); m != 0 {
		t.Errorf("median() = %v", m)
	}
	if m := median(ds(5, 1, 3)); m != ds(3)[0] {
		t.Errorf("median(5, 1, 3) = %v", m)
	}
	if m := median(ds(4, 1, 3, 2)); m != ds(2.5)[0] {
		t.Errorf("median(4, 1, 3, 2) = %v", m)
	}
}

func TestConfigDefaults(t *testing.T) {
	cfg, err := Config{Kernels: []string{"k.c"}, Threads: []int{4, 1, 4}}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Size != "LARGE" || cfg.Runs != DefaultRuns || !slices.Equal(cfg.Threads, []int{1, 4}) || !slices.Equal(cfg.Peers, AllPeers) {
		t.Errorf("defaults: %+v", cfg)
	}
	for _, bad := range []Config{
		{},                                       // no kernels
		{Kernels: []string{"k.c"}, Size: "HUGE"}, // not a preset
		{Kernels: []string{"k.c"}, Peers: []string{"icc"}}, // not a peer
		{Kernels: []string{"k.c"}, Threads: []int{0}},      // no threads
	} {
		if _, err := bad.withDefaults(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestBLASInputs checks the driver's input file and arguments against the
// layout of gemm's harness.
func TestBLASInputs(t *testing.T) {
	d := &check.Data{Params: map[string]int64{"ni": 2, "nj": 3, "nk": 4}}
	for _, a := range []struct {
		name string
		dims []int64
	}{{"alpha", nil}, {"beta", nil}, {"C", []int64{2, 3}}, {"A", []int64{2, 4}}, {"B", []int64{4, 3}}} {
		arr := &check.ArrayData{Name: a.name, Elem: ir.Double, Dims: a.dims}
		arr.Raw = make([]byte, 8*arr.Len())
		arr.Raw[0] = byte(len(d.Arrays) + 1) // tells the arrays apart in the file
		d.Arrays = append(d.Arrays, arr)
	}
	// Whatever the order of the harness's manifest, the driver reads alpha,
	// beta, C, A, B.
	d.Arrays[0], d.Arrays[2] = d.Arrays[2], d.Arrays[0]
	file := filepath.Join(t.TempDir(), "in")
	r := &blasRunner{}
	if err := r.setInputs(d, file); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != 8*(1+1+6+8+12) || raw[0] != 1 || raw[8] != 2 || raw[16] != 3 || raw[64] != 4 || raw[128] != 5 {
		t.Errorf("input file: %d bytes, order %d %d %d %d %d", len(raw), raw[0], raw[8], raw[16], raw[64], raw[128])
	}
	if got := strings.Join(r.args, " "); got != "2 3 4 2 3 2 4 4 3" {
		t.Errorf("args %q", got)
	}
	d.Params["nk"] = 5 // larger than A's columns
	if err := r.setInputs(d, file); err == nil {
		t.Error("sizes beyond the arrays: no error")
	}
}

// TestRunMini is a whole run on one MINI kernel with gcc only.
func TestRunMini(t *testing.T) {
	needCC(t)
	var progress strings.Builder
	rep, err := Run(context.Background(), Config{
		Kernels: []string{"../testdata/kernels/trisolv.c"}, Size: "MINI",
		Peers: []string{GCC}, Runs: 2, Threads: []int{1}, Progress: &progress,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Kernels) != 1 || !slices.Equal(rep.Peers, []string{GCC}) {
		t.Fatalf("report: %+v", rep)
	}
	k := rep.Kernels[0]
	b := k.Baseline()
	if k.Err != "" || b == nil || !b.OK() || b.Time <= 0 || b.Runs != 2 || k.Params["n"] != 40 {
		t.Fatalf("trisolv: %+v, baseline %+v", k, b)
	}
	if !strings.HasPrefix(progress.String(), "bench: [1/1] trisolv: gcc ") {
		t.Errorf("progress: %q", progress.String())
	}
	var text strings.Builder
	rep.Text(&text)
	if !strings.Contains(text.String(), "trisolv") || !strings.Contains(text.String(), "  ok") {
		t.Errorf("report:\n%s", text.String())
	}
}

// TestRunFailure: a kernel whose baseline cannot be built is reported in
// its row; Run itself succeeds.
func TestRunFailure(t *testing.T) {
	rep, err := Run(context.Background(), Config{
		Kernels: []string{"../testdata/kernels/trisolv.c"}, Size: "MINI",
		Peers: []string{GCC}, Runs: 1, CC: "nestor-no-such-compiler",
	})
	if err != nil {
		t.Fatal(err)
	}
	if k := rep.Kernels[0]; !strings.HasPrefix(k.Err, "gcc: build") || k.Results != nil {
		t.Errorf("kernel: %+v", k)
	}
}

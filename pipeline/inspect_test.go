package pipeline

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"nestor/frontend"
	"nestor/sched"
)

// TestInspectIsOpt checks that Inspect shows what Optimize writes: for
// every corpus kernel, the final program Inspect returns generates the
// region text that Optimize splices into the file.
func TestInspectIsOpt(t *testing.T) {
	kernels, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(kernels) == 0 {
		t.Fatal("no corpus kernels")
	}
	for _, k := range kernels {
		f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"SMALL_DATASET"}})
		if err != nil {
			t.Fatal(err)
		}
		opt := DefaultOptions()
		opt.Check = true
		views, err := Inspect(f, opt)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		out, err := Optimize(f, opt)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		for n, v := range views {
			if v.Schedule == nil && v.Kept == "" {
				t.Errorf("%s region %d: neither a schedule nor a reason to keep the original order", k, n)
			}
			if v.Kept == "" && v.Loops == nil {
				t.Errorf("%s region %d: scheduled, but no loops", k, n)
			}
			s := &region{Scop: new(frontend.Scop), src: f.Src}
			*s.Scop = *v.Scop
			s.Prog, s.loops, s.reductions, s.scheduled = v.Prog, v.Loops, v.reductions, v.Scheduled
			for _, p := range passes {
				if p.code {
					if err := p.fn(s, &opt); err != nil {
						t.Fatal(err)
					}
				}
			}
			if !bytes.Contains(out, s.code) {
				t.Errorf("%s region %d: Inspect's program generates code that is not in Optimize's output", k, n)
			}
			if v.Tree == nil {
				continue
			}
			// The tree's text is all it takes: read back and lowered, it
			// gives the program the code is generated from.
			back, err := sched.ParseTree(v.Tree.String())
			if err != nil {
				t.Fatalf("%s region %d: %v\n%s", k, n, err, v.Tree)
			}
			if p, _, err := sched.ApplyTree(v.Scheduled, back); err != nil || !reflect.DeepEqual(p, v.Prog) {
				t.Errorf("%s region %d: the tree read back lowers to another program (%v):\n%s", k, n, err, v.Tree)
			}
		}
	}
}

// TestSameInputSameOutput runs the pipeline twice under a tiny scheduling
// budget and twice under the default one: each pair must agree byte for
// byte (the budgets count work, not time, so the load cannot change a
// decision).
func TestSameInputSameOutput(t *testing.T) {
	for _, name := range []string{"gemm", "lu", "jacobi-2d", "symm"} {
		f, err := frontend.ParseFile("../testdata/kernels/"+name+".c", frontend.Config{Defines: []string{"SMALL_DATASET"}})
		if err != nil {
			t.Fatal(err)
		}
		var outs [][]byte
		for _, budget := range []int64{2e4, 0} {
			opt := DefaultOptions()
			opt.SchedBudget = budget
			a, err := Optimize(f, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Optimize(f, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s, budget %d: two runs wrote different code", name, budget)
			}
			outs = append(outs, a)
		}
		if name == "gemm" && bytes.Equal(outs[0], outs[1]) {
			t.Errorf("gemm: the tiny budget changed nothing: it no longer tests a scheduler that stops")
		}
	}
}

// TestUnrollAndSIMDDecisions: Decisions.SIMD No drops the omp simd marks
// and Decisions.Unroll puts an unroll hint on the innermost loops without
// an OpenMP mark (a pragma between omp simd and its loop is an error).
func TestUnrollAndSIMDDecisions(t *testing.T) {
	f, err := frontend.ParseFile("../testdata/kernels/bicg.c", frontend.Config{Defines: []string{"SMALL_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	base, err := Optimize(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(base, []byte("omp simd")) {
		t.Fatal("bicg's default code has no omp simd loop: the test needs one")
	}
	opt.Decide = []Decisions{{SIMD: sched.No, Unroll: 4}}
	out, err := Optimize(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("omp simd")) || !bytes.Contains(out, []byte("#pragma GCC unroll 4\n")) {
		t.Errorf("SIMD No, Unroll 4:\n%s", out)
	}
	for _, line := range bytes.Split(out, []byte("\n")) {
		if bytes.Contains(line, []byte("GCC unroll")) && bytes.Contains(line, []byte("omp")) {
			t.Errorf("an unroll hint beside an OpenMP mark: %s", line)
		}
	}
}

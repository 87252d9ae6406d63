package pipeline

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
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
			gen := func(s *region) []byte {
				for _, p := range passes {
					if p.code {
						if err := p.fn(s, &opt); err != nil {
							t.Fatal(err)
						}
					}
				}
				return s.code
			}
			s := &region{Scop: new(frontend.Scop), src: f.Src, policy: v.policy}
			*s.Scop = *v.Scop
			s.Prog, s.loops, s.reductions, s.scheduled = v.Prog, v.Loops, v.reductions, v.Scheduled
			if !bytes.Contains(out, gen(s)) {
				t.Errorf("%s region %d: Inspect's program generates code that is not in Optimize's output", k, n)
			}
			if v.Tree == nil {
				continue
			}
			// The tree's text is all it takes: read back and lowered, it
			// gives the program and the loops (with their marks) the code
			// is generated from.
			back, err := sched.ParseTree(v.Tree.String())
			if err != nil {
				t.Fatalf("%s region %d: %v\n%s", k, n, err, v.Tree)
			}
			p, loops, err := sched.ApplyTree(v.Scheduled, back)
			if err != nil || !reflect.DeepEqual(p, v.Prog) || !reflect.DeepEqual(loops, v.Loops) {
				t.Errorf("%s region %d: the tree read back lowers to another program (%v):\n%s", k, n, err, v.Tree)
				continue
			}
			s = &region{Scop: new(frontend.Scop), src: f.Src}
			*s.Scop = *v.Scop
			s.Prog, s.loops, s.reductions, s.scheduled = p, loops, v.reductions, v.Scheduled
			if !bytes.Contains(out, gen(s)) {
				t.Errorf("%s region %d: the tree read back generates code that is not in Optimize's output", k, n)
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

// TestBandMarks fixes the marks of one band at a time (no OpenMP or SIMD
// loop, no register tile): the band's loops carry them and the loops of
// the other groups keep the policy's, and the code has fewer OpenMP
// loops for some band.
func TestBandMarks(t *testing.T) {
	f, err := frontend.ParseFile("../testdata/kernels/symm.c", frontend.Config{Defines: []string{"SMALL_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	// Unpacked: a packed symm expands temp2 along both loops, and its
	// schedule then has no loop alone.
	opt.Pack = false
	base, err := Optimize(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	fors := bytes.Count(base, []byte("omp parallel for"))
	views, err := Inspect(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	bands, alone := 0, false
	for _, li := range views[0].Loops {
		bands = max(bands, li.Band)
		alone = alone || li.Band == 0
	}
	if bands < 1 || !alone {
		t.Fatalf("symm has %d bands and loops alone %v: the test needs a band and another group", bands, alone)
	}
	fewer := false
	for b := 1; b <= bands; b++ {
		o := opt
		o.Decide = []Decisions{{Bands: make([]sched.BandPlan, bands)}}
		o.Decide[0].Bands[b-1] = sched.BandPlan{Parallel: sched.No, Jam: [2]int64{1, 1}}
		vs, err := Inspect(f, o)
		if err != nil {
			t.Fatal(err)
		}
		// The band's loops are those of its time dimensions (a loop sunk
		// innermost leaves the band but keeps its group's marks).
		sc, err := vs[0].Tree.Schedule(len(vs[0].Prog.Params))
		if err != nil {
			t.Fatal(err)
		}
		lays, err := vs[0].Tree.Layouts(sc)
		if err != nil {
			t.Fatal(err)
		}
		var dims []int
		for _, l := range lays {
			if l.Band == b {
				dims = l.Dims
			}
		}
		for level, li := range vs[0].Loops {
			if off := slices.Contains(dims, li.Dim); li.Marks.Parallel == off || (li.Marks.Jam == [2]int64{1, 1}) != off {
				t.Errorf("band %d (dimensions %v) off: loop %d of dimension %d has marks %v", b, dims, level, li.Dim, li.Marks)
			}
		}
		out, err := Optimize(f, o)
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(out, []byte("omp parallel for"))
		if n > fors {
			t.Errorf("band %d without OpenMP loops: %d OpenMP loops, %d by default", b, n, fors)
		}
		fewer = fewer || n < fors
	}
	if !fewer {
		t.Error("no band's marks removed an OpenMP loop")
	}
}

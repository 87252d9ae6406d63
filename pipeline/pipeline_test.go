package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/ir"
	"nestor/model"
)

func TestPassOrder(t *testing.T) {
	idx := func(name string) int {
		return slices.IndexFunc(passes, func(p pass) bool { return p.name == name })
	}
	for _, o := range order {
		b, a := idx(o.before), idx(o.after)
		if b < 0 || a < 0 || b >= a {
			t.Errorf("pass %s must run before %s (%s): positions %d, %d", o.before, o.after, o.why, b, a)
		}
	}
}

func corpus(t *testing.T) []string {
	t.Helper()
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) < 32 {
		t.Fatalf("want the 30 PolyBench kernels and 2 trisolve forms in testdata/kernels, found %d", len(ks))
	}
	return ks
}

// TestCorpus optimizes every corpus kernel and checks the polycc
// convention: outside the regions the output is the input, byte for byte,
// and the output compiles without warnings.
func TestCorpus(t *testing.T) {
	cc, ccErr := exec.LookPath(cmp(os.Getenv("CC"), "cc"))
	for _, k := range corpus(t) {
		t.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(t *testing.T) {
			t.Parallel()
			f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"SMALL_DATASET"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Scops) == 0 {
				t.Fatal("no scop")
			}
			for _, s := range f.Scops {
				if err := ir.Check(s.Prog); err != nil {
					t.Fatal(err)
				}
			}
			for _, v := range variants() {
				v.opt.Check = true
				out, err := Optimize(f, v.opt)
				if err != nil {
					t.Fatalf("%s: %v", v.name, err)
				}
				outsideEqual(t, f, out)
				if ccErr != nil {
					t.Skip("no C compiler")
				}
				path := filepath.Join(t.TempDir(), filepath.Base(k))
				if err := os.WriteFile(path, out, 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(cc, "-std=c99", "-fopenmp", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
					"-I", filepath.Dir(k), "-D", "SMALL_DATASET", path)
				if msg, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s: generated code does not compile cleanly: %v\n%s", v.name, err, msg)
				}
			}
		})
	}
}

// outsideEqual checks that out equals f.Src outside the regions.
func outsideEqual(t *testing.T, f *frontend.File, out []byte) {
	t.Helper()
	rest := out
	last := 0
	for k, s := range f.Scops {
		keep := f.Src[last:s.Start]
		if !bytes.HasPrefix(rest, keep) {
			t.Fatalf("output differs from the input before the region at %s", s.Pos)
		}
		rest = rest[len(keep):]
		// The region's text ends where the next kept text starts: at a
		// "#pragma endscop" line followed by the input's text up to the
		// next region (generated code has such lines of its own around
		// packed matrix products).
		next := len(f.Src)
		if k+1 < len(f.Scops) {
			next = f.Scops[k+1].Start
		}
		after := f.Src[s.End:next]
		endLine := []byte(strings.TrimSpace(lineAt(f.Src, s.End)))
		found := false
		for from := 0; ; {
			end := bytes.Index(rest[from:], endLine)
			if end < 0 {
				break
			}
			at := from + end - len(indentOf(f.Src, s.End))
			if at >= 0 && bytes.HasPrefix(rest[at:], after) {
				rest, found = rest[at:], true
				break
			}
			from += end + len(endLine)
		}
		if !found {
			t.Fatalf("region at %s: the endscop line and the text after it are gone", s.Pos)
		}
		last = s.End
	}
	if !bytes.Equal(rest, f.Src[last:]) {
		t.Fatal("output differs from the input after the last region")
	}
}

func lineAt(src []byte, off int) string {
	line, _, _ := bytes.Cut(src[off:], []byte("\n"))
	return string(line)
}

func indentOf(src []byte, off int) string {
	l := lineAt(src, off)
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// variant is one way to run the pipeline that tests cover.
type variant struct {
	name string
	opt  Options
}

// variants lists the option sets every corpus test runs: the original
// order, the default (schedule, tile, parallel), and the default without
// tiling or without parallel loops.
func variants() []variant {
	def := DefaultOptions()
	notile, nopar := def, def
	notile.Tile = false
	nopar.Parallel = false
	return []variant{{"original order", Options{}}, {"default", def}, {"no tiling", notile}, {"no parallel", nopar}}
}

// TestStencilKeepsParallelOrder: jacobi-2d's new schedule is parallel only
// by a wavefront of skewed tiles. With arrays larger than the L2 cache but
// within half the L3 cache (N = 500: 4 MB), the region keeps its original
// order with the time step's loops parallel; with arrays beyond half the
// L3 cache (LARGE: 27 MB), which the original order streams from memory
// at every time step, the time-tiled schedule runs, as it does with
// KeepCached off.
func TestStencilKeepsParallelOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		defines []string
		keep    bool // KeepCached
		kept    bool // the original order with its parallel loops
	}{
		{"N=500", []string{"LARGE_DATASET", "N=500"}, true, true},
		{"LARGE", []string{"LARGE_DATASET"}, true, false},
		{"N=500/KeepCached-off", []string{"LARGE_DATASET", "N=500"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := frontend.ParseFile("../testdata/kernels/jacobi-2d.c", frontend.Config{Defines: tc.defines})
			if err != nil {
				t.Fatal(err)
			}
			var notes strings.Builder
			opt := DefaultOptions()
			opt.Machine = model.Typical() // L2 1 MB, L3 32 MB
			opt.KeepCached, opt.Notes = tc.keep, &notes
			out, err := Optimize(f, opt)
			if err != nil {
				t.Fatal(err)
			}
			kept := strings.Contains(notes.String(), "kept the original order with its parallel loops")
			fors := strings.Count(string(out), "#pragma omp parallel for")
			if tc.kept && (!kept || fors != 2) {
				t.Errorf("note %v, %d parallel loops (want the note and one per sweep)\n%s", kept, fors, notes.String())
			}
			if !tc.kept && (kept || strings.Contains(string(out), "for (int t1 = 0; t1 < tsteps; t1++)")) {
				t.Errorf("the original order was kept:\n%s", notes.String())
			}
		})
	}
}

// TestEmptyRegionSilent: a region with no statement (nestor's output
// declares a thread count between a #pragma endscop and a #pragma scop of
// its own: lu's OpenMP loops are nested in its sequential k loop) is left
// as it is, with no note, when the output is read back.
func TestEmptyRegionSilent(t *testing.T) {
	cfg := frontend.Config{IncludePaths: []string{"../testdata/kernels"}}
	f, err := frontend.ParseFile("../testdata/kernels/lu.c", cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Optimize(f, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	g, err := frontend.Parse("lu.nestor.c", out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var notes bytes.Buffer
	o := DefaultOptions()
	o.Notes = &notes
	again, err := Optimize(g, o)
	if err != nil {
		t.Fatal(err)
	}
	empty := 0
	for _, s := range g.Scops {
		if len(s.Prog.Stmts) == 0 {
			empty++
			if at := s.Pos.String() + ":"; strings.Contains(notes.String(), at) {
				t.Errorf("a note on the empty region at %s:\n%s", s.Pos, notes.String())
			}
			if !bytes.Contains(again, out[s.Start:s.End]) {
				t.Errorf("the empty region %q is not kept", out[s.Start:s.End])
			}
		}
	}
	if empty != 1 {
		t.Errorf("%d empty regions in the output, want 1 (the thread count's)", empty)
	}
}

// TestReoptimize runs nestor on its own output: the second output must
// compile under -O2 -Wall -Werror as the first does. The first output
// marks the counters its loops no longer use ("(void)i;"), and its
// jammed regions declare scalars in blocks that the second run reads as
// the region's own: without the marks carried over (ir.Program.Voided)
// gcc reports unused variables, and without those scalars starting at
// zero it reports them maybe used uninitialized (cholesky's, assigned and
// read under separate copies of one guard).
func TestReoptimize(t *testing.T) {
	cc, err := exec.LookPath(cmp(os.Getenv("CC"), "cc"))
	if err != nil {
		t.Skip("no C compiler")
	}
	for _, name := range []string{"cholesky", "trisolv", "gemm", "seidel-2d"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := frontend.Config{Defines: []string{"MEDIUM_DATASET"}, IncludePaths: []string{"../testdata/kernels"}}
			path := filepath.Join("../testdata/kernels", name+".c")
			for pass := 1; pass <= 2; pass++ {
				f, err := frontend.ParseFile(path, cfg)
				if err != nil {
					t.Fatalf("pass %d: %v", pass, err)
				}
				out, err := Optimize(f, DefaultOptions())
				if err != nil {
					t.Fatalf("pass %d: %v", pass, err)
				}
				path = filepath.Join(dir, fmt.Sprintf("%s.%d.c", name, pass))
				if err := os.WriteFile(path, out, 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(cc, "-std=c99", "-fopenmp", "-O2", "-Wall", "-Werror", "-c", "-o", os.DevNull,
					"-I", "../testdata/kernels", "-D", "MEDIUM_DATASET", path)
				if msg, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("pass %d: output does not compile cleanly: %v\n%s", pass, err, msg)
				}
			}
		})
	}
}

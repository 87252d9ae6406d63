package outline_test

// These tests run the pass on the XLS IR files of outline/xls/testdata and
// check the results by XLS evaluation. They are an external test package
// because package xls imports outline.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/outline"
	"nestor/outline/xls"
)

func parseIR(t *testing.T, file string) *outline.Package {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := xls.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOutlineSortnet checks that the pass finds the compare-exchange of
// Batcher's sorting network in sortnet.ir, a pattern with two outputs
// sharing a comparison: one function invoked at each of the 19 stages,
// whose result evaluates as the input.
func TestOutlineSortnet(t *testing.T) {
	const file = "xls/testdata/sortnet.ir"
	orig, p := parseIR(t, file), parseIR(t, file)
	rep, err := outline.Outline(p, "sort8", outline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cx *outline.Outlined
	for i, o := range rep.Funcs {
		t.Logf("%s: n=%d k=%d saved=%d: %s", o.Name, o.Instances, o.Size, o.Saved, o.Pattern)
		if strings.HasPrefix(o.Pattern, "tuple(") && o.Instances >= 19 {
			cx = &rep.Funcs[i]
		}
	}
	if cx == nil || cx.Size != 3 {
		t.Fatalf("no compare-exchange (ult and two sels) with 19 instances outlined: %+v", rep.Funcs)
	}
	if err := xls.EvalEqual(orig, orig.Func("sort8"), p, p.Func("sort8"), 1000, 1); err != nil {
		t.Fatal(err)
	}
	if rep.CostBefore-rep.CostAfter != cx.Saved {
		t.Errorf("cost %d -> %d, want a saving of %d", rep.CostBefore, rep.CostAfter, cx.Saved)
	}
}

// TestOutlineXLSFiles outlines every function of each test file, under
// both objectives, and checks the result: it is valid XLS IR and
// evaluates as the input on 1000 vectors, a second run changes nothing,
// and inlining gives back the input, by evaluation and up to commutative
// operand order (StructurallyEqual after Canonicalize); the files' own
// invokes (misc.ir) stay. The files from the XLS repository
// (testdata/xls) hold side effects, loops, procs, blocks and channels.
func TestOutlineXLSFiles(t *testing.T) {
	files, err := filepath.Glob("xls/testdata/*.ir")
	repo, err2 := filepath.Glob("testdata/xls/*.ir") // from the XLS repository
	files = append(files, repo...)
	if err != nil || err2 != nil || len(files) < 20 {
		t.Fatalf("test files: %v %v %v", files, err, err2)
	}
	for _, file := range files {
		for _, obj := range []outline.Objective{outline.Nodes, outline.Area} {
			t.Run(filepath.Base(file)+"/"+obj.String(), func(t *testing.T) {
				orig, p := parseIR(t, file), parseIR(t, file)
				outlineAll(t, p, obj)
				var buf bytes.Buffer
				if err := xls.Write(&buf, p); err != nil {
					t.Fatal(err)
				}
				q, err := xls.Parse("out.ir", buf.Bytes())
				if err != nil {
					t.Fatalf("output does not parse: %v\n%s", err, buf.Bytes())
				}
				evalEqual(t, orig, q)
				// Idempotent.
				outlineAll(t, q, obj)
				var again bytes.Buffer
				if err := xls.Write(&again, q); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(buf.Bytes(), again.Bytes()) {
					t.Errorf("a second run changed the package:\n%s\nwas:\n%s", again.Bytes(), buf.Bytes())
				}
				// Inline restores the input.
				if err := outline.Inline(p); err != nil {
					t.Fatal(err)
				}
				evalEqual(t, orig, p)
				want := parseIR(t, file)
				if err := outline.Inline(want); err != nil {
					t.Fatal(err)
				}
				for _, f := range want.Funcs {
					g := p.Func(f.Name)
					outline.Canonicalize(f)
					outline.Canonicalize(g)
					if !outline.StructurallyEqual(g, f) {
						t.Errorf("function %s: inline(outline(f)) differs from f", f.Name)
					}
				}
				if len(p.Funcs) != len(want.Funcs) {
					t.Errorf("after Inline: %d functions, want %d", len(p.Funcs), len(want.Funcs))
				}
			})
		}
	}
}

// outlineAll runs the pass on every function of p, as nestor outline
// does.
func outlineAll(t *testing.T, p *outline.Package, obj outline.Objective) {
	t.Helper()
	var names []string
	for _, f := range p.Funcs {
		names = append(names, f.Name)
	}
	for _, name := range names {
		rep, err := outline.Outline(p, name, outline.Options{Objective: obj})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range rep.Funcs {
			t.Logf("%s: %s n=%d k=%d saved=%d: %s", name, o.Name, o.Instances, o.Size, o.Saved, o.Pattern)
		}
	}
}

// evalEqual checks that every function of orig evaluates as the function
// of p with its name on 1000 vectors.
func evalEqual(t *testing.T, orig, p *outline.Package) {
	t.Helper()
	for _, f := range orig.Funcs {
		if err := xls.EvalEqual(orig, f, p, p.Func(f.Name), 1000, 7); err != nil {
			t.Errorf("function %s: %v", f.Name, err)
		}
	}
}

// TestCorpusOutline outlines every function of every .ir file under
// $NESTOR_XLS_CORPUS (the XLS repository's, say; skipped when unset),
// checks the result by evaluation against the input, inlines it back and
// checks that by evaluation too. Run with -v for the counts.
func TestCorpusOutline(t *testing.T) {
	dir := os.Getenv("NESTOR_XLS_CORPUS")
	if dir == "" {
		t.Skip("NESTOR_XLS_CORPUS not set")
	}
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".ir") {
			files = append(files, path)
		}
		return nil
	})
	ok, outlined, skipped := 0, 0, 0 // skipped: comparisons past the evaluator's step budget
	// equal runs EvalEqual; a comparison that runs out of evaluation
	// steps (a long counted_for) is skipped and counted.
	equal := func(orig *outline.Package, f *outline.Function, p *outline.Package, g *outline.Function, seed int64) error {
		err := xls.EvalEqual(orig, f, p, g, 20, seed)
		if err != nil && strings.Contains(err.Error(), "iterations") {
			skipped++
			return nil
		}
		return err
	}
	for _, file := range files {
		if t.Run(strings.TrimPrefix(file, dir), func(t *testing.T) {
			orig, p := parseIR(t, file), parseIR(t, file)
			for _, f := range orig.Funcs {
				rep, err := outline.Outline(p, f.Name, outline.Options{})
				if err != nil {
					t.Fatal(err)
				}
				outlined += len(rep.Funcs)
			}
			for _, f := range orig.Funcs {
				if err := equal(orig, f, p, p.Func(f.Name), 3); err != nil {
					t.Errorf("outlined: function %s: %v", f.Name, err)
				}
			}
			if err := outline.Inline(p); err != nil {
				t.Fatal(err)
			}
			for _, f := range orig.Funcs {
				g := p.Func(f.Name)
				if g == nil {
					t.Fatalf("function %s lost", f.Name)
				}
				if err := equal(orig, f, p, g, 4); err != nil {
					t.Errorf("inlined: function %s: %v", f.Name, err)
				}
			}
			if len(p.Funcs) != len(orig.Funcs) {
				t.Errorf("after Inline: %d functions, want %d", len(p.Funcs), len(orig.Funcs))
			}
		}) {
			ok++
		}
	}
	t.Logf("%d of %d files: outline, inline and evaluate equal (%d functions outlined; %d comparisons skipped past the evaluation budget)", ok, len(files), outlined, skipped)
}

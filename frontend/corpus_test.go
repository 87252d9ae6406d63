package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/ir"
)

// corpusDir holds the kernel corpus, written alongside this package.
const corpusDir = "../testdata/kernels"

func corpusFiles(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.c"))
	if len(files) == 0 {
		t.Skip("no kernel corpus in " + corpusDir)
	}
	return files
}

var corpusCfg = Config{IncludePaths: []string{corpusDir}, Defines: []string{"SMALL_DATASET"}}

// TestCorpus parses every kernel: one scop each, and ir.Check passes.
func TestCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".c"), func(t *testing.T) {
			f, err := ParseFile(path, corpusCfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Scops) != 1 {
				t.Fatalf("%d scops, want 1", len(f.Scops))
			}
			s := f.Scops[0]
			if err := ir.Check(s.Prog); err != nil {
				t.Fatal(err)
			}
			if testing.Verbose() {
				for _, st := range s.Prog.Stmts {
					t.Logf("%s %v %s   // %s", ir.FormatDomain(s.Prog, st), st.Beta, st.Text, st.Pos)
				}
			}
		})
	}
}

func readFile(t testing.TB, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestValid parses the inputs of testdata/valid, which must translate.
func TestValid(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.c")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := ParseFile(path, Config{})
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
				if testing.Verbose() {
					t.Logf("params %v vars %v", ir.ParamNames(s.Prog), s.Prog.Vars)
					for _, a := range s.Prog.Arrays {
						t.Logf("array %s %s rank %d %s", a.Name, a.Elem, a.Rank(), a.Storage)
					}
					for _, st := range s.Prog.Stmts {
						t.Logf("%s %v %v | %s", ir.FormatDomain(s.Prog, st), st.Beta, st.Dir, st.Text)
					}
					t.Logf("func %+v start %d end %d indent %q pos %v", s.Func, s.Start, s.End, s.Indent, s.Pos)
				}
			}
		})
	}
}

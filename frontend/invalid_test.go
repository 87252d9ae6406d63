package frontend

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"nestor/codegen"
	"nestor/ir"
)

// wantRE finds the expectation comments of testdata/invalid: `// want "re"`.
var wantRE = regexp.MustCompile(`//\s*want\s+"((?:[^"\\]|\\.)*)"`)

// TestInvalid checks that every file of testdata/invalid is rejected with
// an error on each line marked `// want "regexp"`, at a column inside the
// line, with a matching message, and no error elsewhere.
func TestInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.c")
	if len(files) < 30 {
		t.Fatalf("%d invalid inputs, want at least 30", len(files))
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".c"), func(t *testing.T) {
			src := readFile(t, path)
			lines := strings.Split(string(src), "\n")
			want := map[int]*regexp.Regexp{}
			for k, l := range lines {
				if m := wantRE.FindStringSubmatch(l); m != nil {
					re, err := regexp.Compile(strings.ReplaceAll(m[1], `\"`, `"`))
					if err != nil {
						t.Fatalf("line %d: %v", k+1, err)
					}
					want[k+1] = re
				}
			}
			if len(want) == 0 {
				t.Fatal("no // want comment")
			}
			f, err := Parse(path, src, Config{})
			if err == nil {
				t.Fatalf("no error; %d scops", len(f.Scops))
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T, want ErrorList: %v", err, err)
			}
			seen := map[int]bool{}
			for _, e := range list {
				if e.Pos.Filename != path {
					t.Errorf("error in %q, want %q: %v", e.Pos.Filename, path, e)
					continue
				}
				re, ok := want[e.Pos.Line]
				if !ok {
					t.Errorf("unexpected error: %v", e)
					continue
				}
				seen[e.Pos.Line] = true
				if e.Pos.Column < 1 || e.Pos.Column > len(lines[e.Pos.Line-1])+1 {
					t.Errorf("column %d outside line %d: %v", e.Pos.Column, e.Pos.Line, e)
				}
				if !re.MatchString(e.Msg) {
					t.Errorf("error %q does not match %q", e.Msg, re)
				}
			}
			for line, re := range want {
				if !seen[line] {
					t.Errorf("line %d: no error matching %q; got:\n%v", line, re, err)
				}
			}
		})
	}
}

// FuzzParse checks that no input makes Parse panic, and that whatever it
// accepts passes ir.Check (Parse checks it) with scops inside the file.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"testdata/invalid", "testdata/valid", "../testdata/peers"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil {
				f.Add(src)
			}
		}
	}
	for _, tc := range translateTests {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.c", src, Config{})
		if err != nil {
			if strings.Contains(err.Error(), "frontend: internal error") { // cc's own messages may say "internal error" about bad input
				t.Fatalf("internal error: %v", err)
			}
			return
		}
		for _, s := range file.Scops {
			if s.Start < 0 || s.Start > s.End || s.End > len(src) {
				t.Fatalf("scop range %d:%d of %d bytes", s.Start, s.End, len(src))
			}
			// What the front end accepts is a valid program, and code
			// generation either handles it or says why: never a panic.
			if err := ir.Check(s.Prog); err != nil {
				t.Fatalf("accepted region breaks an IR invariant: %v", err)
			}
			if tree, err := codegen.Build(s.Prog); err == nil {
				if err := codegen.PrintC(io.Discard, s.Prog, tree, ""); err != nil {
					t.Fatalf("printing: %v", err)
				}
			}
		}
	})
}

var sinkFile *File

// BenchmarkParse measures Parse (preprocessing, parsing, type checking
// and translation) on each kernel of the corpus.
func BenchmarkParse(b *testing.B) {
	for _, path := range corpusFiles(b) {
		src := readFile(b, path)
		b.Run(strings.TrimSuffix(filepath.Base(path), ".c"), func(b *testing.B) {
			for b.Loop() {
				f, err := Parse(path, src, corpusCfg)
				if err != nil {
					b.Fatal(err)
				}
				sinkFile = f
			}
		})
	}
}

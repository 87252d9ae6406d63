package xls

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/outline"
)

// repoFiles are the files copied from the XLS repository (see
// ../testdata/xls/README.md).
func repoFiles(t testing.TB) []string {
	files, err := filepath.Glob("../testdata/xls/*.ir")
	if err != nil || len(files) == 0 {
		t.Fatalf("no XLS repository files: %v", err)
	}
	return files
}

// checkRepoFile parses an XLS repository file and checks what the reader
// and writer promise for it: write(parse) parses to an equal package
// (source positions, attributes, opaque parts included) and writing is
// idempotent; every opaque part (proc, block, channel) and every pos= of
// the input is in the written text; every function evaluates as its
// written copy on a few vectors (side effects included).
func checkRepoFile(t *testing.T, file string, src []byte) {
	t.Helper()
	p, err := Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, p)
	text := mustFormat(t, p)
	for _, o := range p.Opaque {
		if !strings.Contains(text, o.Text) {
			t.Errorf("%s %s not written back unchanged", o.Kind, o.Name)
		}
	}
	if want, got := strings.Count(string(src), "pos=["), strings.Count(text, "pos=["); got < want {
		t.Errorf("%d pos= in the input, %d written", want, got)
	}
	q := mustParse(t, text)
	for i, f := range p.Funcs {
		if err := EvalEqual(p, f, q, q.Funcs[i], 4, 1); err != nil && !strings.Contains(err.Error(), "iterations") {
			t.Errorf("function %s: %v", f.Name, err)
		}
	}
}

func TestXLSRepoFiles(t *testing.T) {
	for _, file := range repoFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkRepoFile(t, file, src)
		})
	}
}

// TestCorpus runs checkRepoFile on every .ir file under the directory
// $NESTOR_XLS_CORPUS (the XLS repository's .ir files, say); it is skipped
// when the variable is not set. Run with -v for the count.
func TestCorpus(t *testing.T) {
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
	ok := 0
	for _, file := range files {
		if t.Run(strings.TrimPrefix(file, dir), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkRepoFile(t, file, src)
		}) {
			ok++
		}
	}
	t.Logf("%d of %d files parse, round-trip and evaluate alike", ok, len(files))
}

// TestOpaqueKept: a package with a proc, a channel and a block keeps
// them, byte for byte and in place, when written; a name they use is not
// given to a function.
func TestOpaqueKept(t *testing.T) {
	src := `package p

chan c(bits[8], id=7, kind=streaming, ops=send_only, flow_control=ready_valid, strictness=proven_mutually_exclusive)

fn f(x: bits[8] id=1) -> bits[8] {
  ret add.2: bits[8] = add(x, x, id=2, pos=[(0,1,2), (0,3,4)])
}

#[initiation_interval(2)]
top proc q<>(s: bits[8], init={0}) {
  s: bits[8] = state_read(state_element=s, id=3)
  invoke.4: bits[8] = invoke(s, to_apply=f, id=4)
  next_value.5: () = next_value(state_element=s, value=invoke.4, id=5)
}
`
	p := mustParse(t, src)
	if len(p.Opaque) != 2 || p.Opaque[1].Name != "q" || !p.Opaque[1].Top || p.Opaque[1].MaxID != 5 {
		t.Fatalf("opaque parts: %+v", p.Opaque)
	}
	if got := mustFormat(t, p); got != src {
		t.Errorf("written:\n%s\nwant the input", got)
	}
	p.Funcs = append(p.Funcs, &outline.Function{Name: "q", Params: p.Funcs[0].Params[:0]})
	g := p.Funcs[1]
	lit := &outline.Node{Op: "literal", Type: outline.BitsType(1), Attrs: []outline.Attr{{Key: "value", Value: "0"}}}
	g.Nodes, g.Ret = []*outline.Node{lit}, lit
	text := mustFormat(t, p)
	if !strings.Contains(text, "fn q_1()") || !strings.Contains(text, "id=8") {
		t.Errorf("a new function named like the proc, or with an id of the proc:\n%s", text)
	}
}

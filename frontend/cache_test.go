package frontend

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"modernc.org/cc/v4"

	"nestor/ir"
)

// describe prints what a parse produced that later passes read: each
// region's arrays, statements and domains, and the file's functions.
func describe(f *File) string {
	var b strings.Builder
	for _, s := range f.Scops {
		fmt.Fprintf(&b, "scop %s in %s\n", s.Pos, s.Func.Name)
		for _, a := range s.Prog.Arrays {
			fmt.Fprintf(&b, "  array %s %v rank %d storage %v\n", a.Name, a.Elem, a.Rank(), a.Storage)
		}
		for _, st := range s.Prog.Stmts {
			fmt.Fprintf(&b, "  %s %v %s\n", ir.FormatDomain(s.Prog, st), st.Beta, st.Text)
		}
	}
	for _, fn := range f.Funcs {
		fmt.Fprintf(&b, "func %s %+v\n", fn.Name, fn.Params)
	}
	return b.String()
}

// headerSources are files beyond the corpus: several system headers in a
// row, and a user macro that math.h's files mention (the flattened header
// must then be refused).
var headerSources = map[string]string{
	"many.c": `#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <assert.h>
#include <stdio.h>
void k(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = sqrt(A[i]) + fabs(A[i]);
#pragma endscop
  assert(n >= 0);
  fprintf(stderr, "%f\n", A[0] + (double)getpid() + (isnan(A[0]) ? 1 : 0) + HUGE_VAL);
  memset(A, 0, sizeof(double));
}
`,
	// An undeclared function: cc declares it implicitly, and the parse
	// with flattened headers must be repeated on the real ones.
	"implicit.c": `#include <math.h>
double g(double);
void k(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = sqrt(A[i]);
#pragma endscop
  A[0] = undeclared_helper(A[0]);
}
`,
	// A header read as it is after a flattened one: it sees the macros
	// the pruner held back from the first (stdio.h's, features.h's).
	"usermacro_after.c": `#include <stdio.h>
#define M_PI 3.0
#include <math.h>
void k(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = M_PI * sqrt(A[i]) + (double)BUFSIZ;
#pragma endscop
  printf("%f\n", A[0]);
}
`,
	"usermacro.c": `#define M_PI 3.0
#include <math.h>
void k(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = M_PI * sqrt(A[i]);
#pragma endscop
}
`,
}

// TestFlattenedHeaders parses every corpus kernel and the files above with
// the system headers flattened (building the cache, then reading it) and
// as they are: the results must be the same, and the cache must serve
// the corpus's headers.
func TestFlattenedHeaders(t *testing.T) {
	dir := t.TempDir()
	files := corpusFiles(t)
	for name, src := range headerSources {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	cache := filepath.Join(dir, "cache")
	parse := func(path, env string) (string, int64, int64, int64) {
		t.Setenv(cacheEnv, env)
		served, refused, retried := flatStats.served.Load(), flatStats.refused.Load(), flatStats.retried.Load()
		f, err := ParseFile(path, corpusCfg)
		if err != nil {
			t.Fatalf("%s (%s=%s): %v", path, cacheEnv, env, err)
		}
		return describe(f), flatStats.served.Load() - served, flatStats.refused.Load() - refused, flatStats.retried.Load() - retried
	}
	for _, path := range files {
		want, _, _, _ := parse(path, "off")
		for round := range 2 {
			got, served, refused, retried := parse(path, cache)
			if got != want {
				t.Errorf("%s, round %d: flattened headers parse differently:\n%s\nwant\n%s", path, round, got, want)
			}
			switch base := filepath.Base(path); {
			case strings.HasPrefix(base, "usermacro") && refused == 0:
				t.Errorf("%s: math.h served flattened though the user defines M_PI", base)
			case base == "usermacro_after.c" && served == 0:
				t.Errorf("%s: stdio.h not served flattened", base)
			case base == "implicit.c" && retried == 0:
				t.Errorf("%s: the parse with an implicitly declared call was not repeated", base)
			case !strings.HasPrefix(base, "usermacro") && (served == 0 || refused != 0):
				t.Errorf("%s, round %d: %d headers served flattened, %d refused", base, round, served, refused)
			case base != "implicit.c" && retried != 0:
				t.Errorf("%s, round %d: the parse with flattened headers failed and was repeated", base, round)
			}
		}
	}
}

// TestServedText: a file parsed again reads its headers' pruned text as
// it was served, and parses as it did; when the text of one header is
// missing, the pruner catches up on the records before it, and the
// parse is still the same.
func TestServedText(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "three.c")
	src := `#include <stdio.h>
#include <stdlib.h>
#include <math.h>
void k(int n, double A[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = M_PI * sqrt(A[i]) + (double)BUFSIZ + (double)RAND_MAX;
#pragma endscop
  printf("%f\n", A[0]);
  free(malloc(2 * sizeof(double))); // stdlib.h's malloc needs stdio.h's size_t
}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(env string) (string, int64, int64) {
		t.Setenv(cacheEnv, env)
		served, fromText, retried := flatStats.served.Load(), flatStats.fromText.Load(), flatStats.retried.Load()
		f, err := ParseFile(path, Config{})
		if err != nil {
			t.Fatalf("%s=%s: %v", cacheEnv, env, err)
		}
		if env != "off" && flatStats.retried.Load() != retried {
			t.Errorf("the parse with flattened headers failed and was repeated")
		}
		return describe(f), flatStats.served.Load() - served, flatStats.fromText.Load() - fromText
	}
	want, _, _ := parse("off")
	cache := filepath.Join(dir, "cache")
	if got, served, fromText := parse(cache); got != want || served < 3 || fromText != 0 {
		t.Fatalf("first parse: %d headers served, %d from their text; same parse: %v", served, fromText, got == want)
	}
	texts, _ := filepath.Glob(filepath.Join(cache, "served", "*.gob"))
	if len(texts) < 3 {
		t.Fatalf("%d served texts kept, want one per header", len(texts))
	}
	if got, served, fromText := parse(cache); got != want || fromText != served {
		t.Errorf("second parse: %d headers served, %d from their text; same parse: %v", served, fromText, got == want)
	}
	for _, text := range texts {
		old, err := os.ReadFile(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(text); err != nil {
			t.Fatal(err)
		}
		if got, served, fromText := parse(cache); got != want || fromText != served-1 {
			t.Errorf("without %s: %d headers served, %d from their text; same parse: %v", filepath.Base(text), served, fromText, got == want)
		}
		// Made again after catching up: the same text.
		if again, err := os.ReadFile(text); err != nil || !bytes.Equal(again, old) {
			t.Errorf("%s made again differs (%v)", filepath.Base(text), err)
		}
	}
}

// TestUserMacros: the scan follows quoted includes and gives up on a
// computed one.
func TestUserMacros(t *testing.T) {
	got, idents, paste, ok := userMacros(filepath.Join(corpusDir, "gemm.c"), readFile(t, filepath.Join(corpusDir, "gemm.c")), Config{})
	// polybench.h pastes SCALAR_VAL(x) x##f: sqrtf is a name it could make.
	if !idents["kernel_gemm"] || !idents["sqrt"] || !idents["sqrtf"] || paste {
		t.Errorf("gemm.c: identifiers %v, paste %v", idents, paste)
	}
	for _, m := range []string{"NI", "LARGE_DATASET", "NESTOR_POLYBENCH_H", "DATA_TYPE", "SCALAR_VAL"} {
		if !ok || !got[m] {
			t.Errorf("gemm.c: user macros %v lack %s", got, m)
		}
	}
	if _, _, _, ok := userMacros("x.c", []byte("#define H <math.h>\n#include H\n"), Config{}); ok {
		t.Error("a computed #include was followed")
	}
}

// TestFresh: a record whose file changed is stale.
func TestFresh(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.h")
	if err := os.WriteFile(p, []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, ok := stampOf(p)
	if !ok || !fresh([]fileStamp{s}) {
		t.Fatal("a file just stamped is not fresh")
	}
	if err := os.WriteFile(p, []byte("int xy;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fresh([]fileStamp{s}) {
		t.Error("a changed file is still fresh")
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	if fresh([]fileStamp{s}) || fresh(nil) {
		t.Error("stale records pass")
	}
}

// TestCachedHostConfig: the configuration read back from the cache is the
// one cc.NewConfig computes.
func TestCachedHostConfig(t *testing.T) {
	t.Setenv(cacheEnv, t.TempDir())
	want, err := cc.NewConfig(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Skip(err)
	}
	for round := range 2 {
		got, err := cachedHostConfig()
		if err != nil {
			t.Fatal(err)
		}
		if got.CC != want.CC || got.Predefined != want.Predefined || !reflect.DeepEqual(got.IncludePaths, want.IncludePaths) ||
			!reflect.DeepEqual(got.SysIncludePaths, want.SysIncludePaths) || !reflect.DeepEqual(got.HostSysIncludePaths, want.HostSysIncludePaths) ||
			!reflect.DeepEqual(got.ABI, want.ABI) {
			t.Errorf("round %d: cached configuration differs", round)
		}
	}
}

// TestPrunedHeader: a file that calls sqrt gets sqrt's declaration from a
// flattened math.h, and not cosh's; with pruning off it gets both.
func TestPrunedHeader(t *testing.T) {
	t.Setenv(cacheEnv, t.TempDir())
	host, err := hostConfig()
	if err != nil {
		t.Skip(err)
	}
	src := []byte("#include <math.h>\ndouble f(double x) { return sqrt(x); }\n")
	path := filepath.Join(t.TempDir(), "f.c")
	var header string
	for _, d := range host.HostSysIncludePaths {
		if p := filepath.Join(d, "math.h"); fileExists(p) {
			header = p
			break
		}
	}
	if header == "" {
		t.Skip("no math.h")
	}
	read := func(off bool) string {
		defer func(v bool) { pruneOff = v }(pruneOff)
		pruneOff = off
		h := newHeaderFS(path, src, Config{}, host)
		f, err := h.Open(filepath.ToSlash(header))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(f.(io.Reader))
		if err != nil || h.off {
			t.Fatalf("math.h not flattened: %v", err)
		}
		return string(b)
	}
	pruned, all := read(false), read(true)
	has := func(s, name string) bool { return regexp.MustCompile(`\b` + name + ` \(`).MatchString(s) }
	if !has(pruned, "sqrt") || has(pruned, "cosh") || !has(all, "cosh") || len(pruned) > len(all)/2 {
		t.Errorf("pruned math.h: %d bytes (all: %d), sqrt %v, cosh %v", len(pruned), len(all), has(pruned, "sqrt"), has(pruned, "cosh"))
	}
	// M_PI is a macro the file does not name: held back.
	if def := "#define M_PI "; strings.Contains(pruned, def) || !strings.Contains(all, def) {
		t.Errorf("M_PI in pruned math.h: %v, in all of it: %v", strings.Contains(pruned, def), strings.Contains(all, def))
	}
}

// TestPrunedMacros: a header's macro lines for names the file does not
// need are held back; a name a needed macro of a later header names gets
// its lines before that header's; a header read as it is gets the rest.
func TestPrunedMacros(t *testing.T) {
	line := func(name, text string, refs ...string) macroLine {
		return macroLine{Name: name, Line: text, Refs: refs}
	}
	a := &headerRecord{Macros: []macroLine{
		line("INNER", "#define INNER 3"),
		line("UNUSED", "#define UNUSED 4"),
		line("USED", "#define USED 5"),
		line("UNUSED", "#undef UNUSED"),
		line("INNER", "#undef INNER"),
		line("INNER", "#define INNER 6"),
	}}
	b := &headerRecord{Macros: []macroLine{line("OUTER", "#define OUTER (INNER + 1)", "INNER")}}
	p := newPruner(map[string]bool{"OUTER": true, "USED": true}, false)
	if got, want := p.add(a), "#define USED 5\n"; got != want {
		t.Errorf("first header: %q, want %q", got, want)
	}
	if got, want := p.add(b), "#define INNER 3\n#undef INNER\n#define INNER 6\n#define OUTER (INNER + 1)\n"; got != want {
		t.Errorf("second header: %q, want %q", got, want)
	}
	if got, want := p.rest(), "#define UNUSED 4\n#undef UNUSED\n"; got != want {
		t.Errorf("rest: %q, want %q", got, want)
	}
	if got := p.rest(); got != "" {
		t.Errorf("rest twice: %q", got)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestImplicitCall: a call of an undeclared function is seen (cc declares
// it silently); calls of declared functions and builtins are not.
func TestImplicitCall(t *testing.T) {
	host, err := hostConfig()
	if err != nil {
		t.Skip(err)
	}
	for src, want := range map[string]bool{
		"double f(double x) { return undeclared_helper(x); }\n":                        true,
		"double g(double);\ndouble f(double x) { return g(x) + __builtin_fabs(x); }\n": false,
	} {
		ast, err := translate("x.c", []byte(src), Config{}, host, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := implicitCall(ast); got != want {
			t.Errorf("implicitCall(%q) = %v, want %v", src, got, want)
		}
	}
}

// BenchmarkParseCorpus parses every corpus kernel with the preprocessing
// cache warm (Cached) and off (NoCache): the front end's share of a
// "nestor opt" process (scripts/optbench times whole processes).
func BenchmarkParseCorpus(b *testing.B) {
	files := corpusFiles(b)
	for _, c := range []struct{ name, env string }{{"Cached", b.TempDir()}, {"NoCache", "off"}} {
		b.Run(c.name, func(b *testing.B) {
			b.Setenv(cacheEnv, c.env)
			for _, f := range files { // fills the cache
				if _, err := ParseFile(f, Config{}); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				for _, f := range files {
					if _, err := ParseFile(f, Config{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

package codegen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"nestor/ir"
)

// TestDeepBoundsUseGNUMacros gives a loop a bound whose min/max terms nest
// ten deep: the printed region must call the GNU helper macros (each
// argument evaluated once) and define them, and no portable one.
func TestDeepBoundsUseGNUMacros(t *testing.T) {
	p := cases[0].prog(t) // gemm
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	var inner *Loop
	var find func(ns []Node)
	find = func(ns []Node) {
		for _, x := range ns {
			if l, ok := x.(*Loop); ok {
				inner = l
				find(l.Body)
			}
		}
	}
	find(n.Body)
	// min(k0, max(k1, min(k2, …))) over forms of the outer counters.
	deep := Bound{Aff: inner.Upper[0].Aff, Den: 1}
	for d := range 10 {
		a := ir.NewAff(len(inner.Upper[0].Aff.Iter), len(p.Params), 0)
		a.Const = int64(100 + d)
		deep = Bound{Of: []Bound{{Aff: a, Den: 1}, deep}, Min: d%2 == 0}
	}
	inner.Upper = []Bound{deep}
	var b bytes.Buffer
	if err := PrintC(&b, p, n, ""); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, m := range []string{"nestor_min", "nestor_max"} {
		if strings.Contains(out, m+"(") {
			t.Errorf("portable %s still called:\n%s", m, out)
		}
		if !strings.Contains(out, m+"_g(") || !strings.Contains(out, "#define "+m+"_g(") {
			t.Errorf("%s_g not called and defined:\n%s", m, out)
		}
	}
	if d := MacroDepth([]byte(out)); d != 0 {
		t.Errorf("portable macros nest %d deep in the output", d)
	}
}

// TestGNUMacrosAgree compiles the portable and the GNU helper macros and
// compares them on a range of arguments, negative ones included.
func TestGNUMacrosAgree(t *testing.T) {
	cc := needCC(t)
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n")
	for _, m := range macros {
		src.WriteString(m.def + "\n")
	}
	src.WriteString(`int main(void) {
  long bad = 0;
  for (long n = -40; n <= 40; n++)
    for (long d = 1; d <= 7; d++) {
      bad += nestor_floord(n, d) != nestor_floord_g(n, d);
      bad += nestor_ceild(n, d) != nestor_ceild_g(n, d);
      bad += nestor_min(n, d - 3) != nestor_min_g(n, d - 3);
      bad += nestor_max(n, d - 3) != nestor_max_g(n, d - 3);
      bad += nestor_min_g(nestor_max_g(n, d), nestor_floord_g(n + 7, d)) != nestor_min(nestor_max(n, d), nestor_floord(n + 7, d));
    }
  printf("%ld\n", bad);
  return 0;
}
`)
	if got, _ := compileRun(t, cc, src.String(), "-O1"); got != "0" {
		t.Errorf("%s disagreements between the portable and GNU macros", got)
	}
}

// compileRun compiles the C program src with flags, runs it and returns
// the last line it prints, and all it prints.
func compileRun(t *testing.T, cc, src string, flags ...string) (last, out string) {
	t.Helper()
	dir := t.TempDir()
	c := filepath.Join(dir, "m.c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "m")
	if out, err := exec.Command(cc, append(append(flags, "-o", exe, c), "-lm")...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	b, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	out = strings.TrimSpace(string(b))
	lines := strings.Split(out, "\n")
	return lines[len(lines)-1], out
}

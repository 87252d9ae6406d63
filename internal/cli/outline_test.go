package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/outline/xls"
)

// TestOutline runs nestor outline on the acceptance example (four copies
// of a 4-operation pattern) and on the XLS test files: the output must
// parse, evaluate as the input on random vectors, and invoke the new
// functions where repetition was planted; --inline must give back a
// package without invocations of them.
func TestOutline(t *testing.T) {
	for _, tc := range []struct {
		file    string
		args    []string
		planted bool // the file repeats a pattern the pass must find
		report  string
	}{
		{"testdata/rep.ir", nil, true, "n = 4 instances, k = 4 operations"},
		{"testdata/rep.ir", []string{"--exact"}, true, "each choice optimal"},
		{"testdata/rep.ir", []string{"--objective", "area"}, true, "area"},
		{"../../outline/xls/testdata/crc32.ir", nil, true, "n = 32 instances"},
		{"../../outline/xls/testdata/fir.ir", nil, true, "outlined_0: n = 8 instances"},
		{"../../outline/xls/testdata/hash.ir", nil, true, "n = 8 instances"},
		// The compare-exchange of a sorting network, a pattern with two
		// outputs (issue 6).
		{"../../outline/xls/testdata/sortnet.ir", nil, true, "n = 19 instances, k = 3 operations"},
		{"../../outline/xls/testdata/misc.ir", nil, false, "0 functions outlined"},
	} {
		out := filepath.Join(t.TempDir(), "out.ir")
		code, stdout, errw := nestor(t, append([]string{"outline", tc.file, "-o", out}, tc.args...)...)
		if code != 0 {
			t.Errorf("%s %v: status %d: %s", tc.file, tc.args, code, errw)
			continue
		}
		if !strings.Contains(stdout, tc.report) {
			t.Errorf("%s %v: report lacks %q:\n%s", tc.file, tc.args, tc.report, stdout)
		}
		src, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		p, err := xls.Parse(out, src)
		if err != nil {
			t.Fatalf("%s %v: output does not parse: %v", tc.file, tc.args, err)
		}
		origSrc, _ := os.ReadFile(tc.file)
		orig, err := xls.Parse(tc.file, origSrc)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range orig.Funcs {
			if err := xls.EvalEqual(orig, f, p, p.Func(f.Name), 1000, 7); err != nil {
				t.Errorf("%s %v: function %s: %v", tc.file, tc.args, f.Name, err)
			}
		}
		if got := strings.Contains(string(src), "to_apply=outlined_"); got != tc.planted {
			t.Errorf("%s %v: invokes an outlined function: %v, want %v", tc.file, tc.args, got, tc.planted)
		}
		if !tc.planted {
			continue
		}
		flat := filepath.Join(t.TempDir(), "flat.ir")
		if code, _, errw := nestor(t, "outline", out, "--inline", "-o", flat); code != 0 {
			t.Errorf("%s: --inline: status %d: %s", tc.file, code, errw)
			continue
		}
		if src, _ := os.ReadFile(flat); strings.Contains(string(src), "outlined_") {
			t.Errorf("%s: --inline left outlined functions:\n%s", tc.file, src)
		}
	}
}

// TestOutlineErrors checks the positioned error of a malformed file and
// the usage errors.
func TestOutlineErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.ir")
	if err := os.WriteFile(bad, []byte("package p\n\nfn f(x: bits[8]) -> bits[8] {\n  ret y: bits[8] = frobnicate(x)\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"outline", bad}, 1, "bad.ir:4:"},
		{[]string{"outline"}, 2, "want one FILE.ir"},
		{[]string{"outline", "testdata/rep.ir", "--objective", "speed"}, 2, "want nodes or area"},
		{[]string{"outline", "testdata/rep.ir", "--fn", "g"}, 1, "no function g"},
	} {
		code, _, errw := nestor(t, tc.args...)
		if code != tc.code || !strings.Contains(errw, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tc.args, code, errw, tc.code, tc.want)
		}
	}
}

// TestOutlineInlineKeepsUserCalls: --inline inlines only what outlining
// created; an invoke of the user's function and an uncalled user
// function named outlined_7 stay (issue 18), and side effects, positions
// and a proc come back unchanged.
func TestOutlineInlineKeepsUserCalls(t *testing.T) {
	src := `package p

file_number 0 "p.x"

fn outlined_7(x: bits[8] id=1) -> bits[8] {
  ret not.2: bits[8] = not(x, id=2)
}

fn g(x: bits[8] id=3) -> bits[8] {
  ret neg.4: bits[8] = neg(x, id=4, pos=[(0,2,3)])
}

fn f(a: bits[8] id=10, b: bits[8] id=11, c: bits[8] id=12, d: bits[8] id=13, tkn: token id=14) -> bits[8] {
  u1: bits[8] = umul(a, b, id=20)
  s1: bits[8] = sub(u1, c, id=21)
  x1: bits[8] = xor(s1, d, id=22, pos=[(0,5,6)])
  u2: bits[8] = umul(b, c, id=23)
  s2: bits[8] = sub(u2, d, id=24)
  x2: bits[8] = xor(s2, a, id=25)
  u3: bits[8] = umul(c, d, id=26)
  s3: bits[8] = sub(u3, a, id=27)
  x3: bits[8] = xor(s3, b, id=28)
  ult.29: bits[1] = ult(x1, x2, id=29)
  assert.30: token = assert(tkn, ult.29, message="x1 < x2", id=30)
  inv: bits[8] = invoke(x3, to_apply=g, id=31)
  ret add.32: bits[8] = add(inv, x2, id=32)
}

proc q<>(s: bits[8], init={0}) {
  s: bits[8] = state_read(state_element=s, id=40)
  next_value.41: () = next_value(state_element=s, value=s, id=41)
}
`
	dir := t.TempDir()
	in, out, flat := filepath.Join(dir, "in.ir"), filepath.Join(dir, "out.ir"), filepath.Join(dir, "flat.ir")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errw := nestor(t, "outline", in, "-o", out); code != 0 {
		t.Fatalf("outline: status %d: %s", code, errw)
	}
	outSrc, _ := os.ReadFile(out)
	if !strings.Contains(string(outSrc), "to_apply=outlined_0") || !strings.Contains(string(outSrc), "// nestor: outlined") {
		t.Fatalf("the planted pattern was not outlined and marked:\n%s", outSrc)
	}
	if code, _, errw := nestor(t, "outline", out, "--inline", "-o", flat); code != 0 {
		t.Fatalf("--inline: status %d: %s", code, errw)
	}
	flatSrc, _ := os.ReadFile(flat)
	for _, want := range []string{"fn outlined_7(", "to_apply=g", `message="x1 < x2"`, "pos=[(0,5,6)]", "pos=[(0,2,3)]",
		`file_number 0 "p.x"`, "proc q<>(s: bits[8], init={0}) {\n  s: bits[8] = state_read"} {
		if !strings.Contains(string(flatSrc), want) {
			t.Errorf("--inline lost %q:\n%s", want, flatSrc)
		}
	}
	if strings.Contains(string(flatSrc), "to_apply=outlined_0") || strings.Contains(string(flatSrc), "fn outlined_0") {
		t.Errorf("--inline left the outlined function:\n%s", flatSrc)
	}
}

package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/assoc"
	"nestor/assoc/prove"
)

func TestAssocGenUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"assoc", "gen"}, 2, "--type is required"},
		{[]string{"assoc", "gen", "--type", "int33", "--leaves", "3"}, 2, "unknown type"},
		{[]string{"assoc", "gen", "--type", "int32"}, 2, "at least 2 leaves"},
		{[]string{"assoc", "gen", "--type", "int32", "--leaves", "3", "--tuple", "3"}, 2, "want 1, 2 or 1,2"},
		{[]string{"assoc", "gen", "--type", "int32", "--leaves", "3", "--tuple", "2,1"}, 2, "want 1, 2 or 1,2"},
		{[]string{"assoc", "gen", "--type", "float32", "--leaves", "3", "--ops", "+ %"}, 2, "no enumeration operation"},
		{[]string{"assoc", "gen", "--type", "int32", "--leaves", "3", "--resume"}, 2, "--resume needs"},
		{[]string{"assoc", "gen", "--type", "int32", "--leaves", "3", "extra"}, 2, "unexpected argument"},
		{[]string{"assoc", "frob"}, 2, `unknown subcommand "frob"`},
		{[]string{"help", "assoc", "gen"}, 0, "--leaves"},
	} {
		code, out, errw := nestor(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errw, tc.out) {
			t.Errorf("nestor %s: exit %d, output %q; want exit %d with %q", strings.Join(tc.args, " "), code, out+errw, tc.code, tc.out)
		}
	}
}

// testRlimit bounds each Z3 query of these tests in Z3's deterministic
// resource units (--rlimit), so that what they generate does not depend
// on the machine's load (assoc's tests use the same bound).
const testRlimit = "30000000"

// A small table is written, loads, says how to regenerate it, and its
// journal is gone after success.
func TestAssocGen(t *testing.T) {
	if _, err := prove.Z3Path(); errors.Is(err, prove.ErrNoZ3) {
		t.Skip(err)
	}
	out := filepath.Join(t.TempDir(), "bool.txt")
	code, stdout, errw := nestor(t, "assoc", "gen", "--type", "bool", "--leaves", "3", "--tuple", "1", "--quiet", "--rlimit", testRlimit, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, errw)
	}
	if !strings.Contains(stdout, "candidates") || !strings.Contains(stdout, "wrote "+out) {
		t.Errorf("no statistics or summary: %q", stdout)
	}
	tb, err := assoc.ReadTableFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Type != assoc.Bool || len(tb.Entries) == 0 {
		t.Errorf("table of %v with %d entries", tb.Type, len(tb.Entries))
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), "#     nestor assoc gen --type bool --leaves 3 --tuple 1 --rlimit "+testRlimit+" -o "+out) {
		t.Errorf("no regeneration command in:\n%s", data)
	}
	if _, err := os.Stat(out + ".journal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("journal left behind: %v", err)
	}
}

// TestAssocGenAddHand extends a small generated int8 table with the hand
// primitives: all of them are added once, with the command in the header,
// and a second run adds nothing.
func TestAssocGenAddHand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs z3 on the hand primitives")
	}
	if _, err := prove.Z3Path(); errors.Is(err, prove.ErrNoZ3) {
		t.Skip(err)
	}
	out := filepath.Join(t.TempDir(), "int8.txt")
	if code, stdout, errw := nestor(t, "assoc", "gen", "--type", "int8", "--leaves", "2", "--tuple", "1", "--hand=false", "--quiet", "--rlimit", testRlimit, "-o", out); code != 0 {
		t.Fatalf("gen: exit %d: %s%s", code, stdout, errw)
	}
	code, stdout, errw := nestor(t, "assoc", "gen", "--type", "int8", "--add-hand", "--rlimit", testRlimit, "-o", out)
	if code != 0 {
		t.Fatalf("--add-hand: exit %d: %s%s", code, stdout, errw)
	}
	hops, err := assoc.HandOps()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := assoc.ReadTableFile(out)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range tb.Entries {
		names[e.Name] = true
	}
	for _, h := range hops {
		if h.For(assoc.Int8) && !names[h.Name] {
			t.Errorf("hand primitive %s not added", h.Name)
		}
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), "#     nestor assoc gen --type int8 --add-hand --rlimit "+testRlimit+" -o "+out) {
		t.Errorf("no command in the header:\n%s", data)
	}
	if code, stdout, _ := nestor(t, "assoc", "gen", "--type", "int8", "--add-hand", "--rlimit", testRlimit, "-o", out); code != 0 || !strings.Contains(stdout, ": 0 hand primitives added") {
		t.Errorf("second run: exit %d: %s", code, stdout)
	}
}

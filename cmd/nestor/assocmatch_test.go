package main

import (
	"strings"
	"testing"

	"nestor/assoc"
)

// TestAssocMatch runs nestor assoc match on the acceptance examples
// against the shipped tables.
func TestAssocMatch(t *testing.T) {
	if _, err := assoc.Embedded(assoc.Int32); err != nil {
		t.Skipf("no shipped int32 table: %v", err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want []string // in stdout (status 0) or stderr
	}{
		{[]string{"f() = f() + in(r)"}, 0, []string{"operator:    x + y", "identity:    0", "commutative: yes"}},
		{[]string{"x + y", "--type", "uint8"}, 0, []string{"operator:    x + y", "commutative: yes"}},
		{[]string{"f() = {min(f()[0], in(r)), select(in(r) < f()[0], r, f()[1])}"}, 0,
			[]string{"identity:    none: initialize each partial result from its chunk's first element", "commutative: no"}},
		{[]string{"f() = max(min(f(), hi), in(r))", "--invariant", "hi"}, 0, []string{"k = hi", "commutative: no"}},
		// The acceptance check's three (issue 17): x - in is a sum of
		// negated inputs; in - x has no associative decomposition (the
		// closure test at 8 bits proves it).
		{[]string{"f() = f() - in(r)"}, 0, []string{"operator:    x + y", "y:           0 - in(r)", "identity:    0"}},
		{[]string{"f() = f() + in(r)*f()"}, 0, []string{"operator:    x * y", "y:           in(r) + 1", "identity:    1"}},
		{[]string{"f() = in(r) - f()"}, 1, []string{"in(r) - x: not associative", "more than 256 distinct maps"}},
		// Associative only over the reals: not recognized, never "not
		// associative".
		{[]string{"f() = f() + in(r)", "--type", "float32"}, 1, []string{"not recognized", "--assoc-math"}},
		{[]string{"f() = f() + in(r)", "--type", "float32", "--assoc-math"}, 0, []string{"operator:    x + y"}},
		{[]string{"f() = f() + in(r)", "--type", "float32", "--real"}, 0, []string{"operator:    x + y"}},
		{[]string{"f() = select(in(r) > f(), in(r), f())", "--type", "float64", "--assoc-math"}, 0, []string{"operator:    max(x, y)"}},
		{[]string{"f() = f() + in(r)", "--type", "int99"}, 2, []string{"unknown type"}},
		{[]string{}, 2, []string{"want one UPDATE"}},
	} {
		if strings.Contains(strings.Join(tc.args, " "), "float32") {
			if _, err := assoc.Embedded(assoc.Float32); err != nil {
				t.Logf("%q: no shipped float32 table", tc.args)
				continue
			}
		}
		code, out, errw := nestor(t, append([]string{"assoc", "match"}, tc.args...)...)
		text := out
		if tc.code != 0 {
			text = errw
		}
		if code != tc.code {
			t.Errorf("nestor assoc match %q: exit status %d, want %d\n%s%s", tc.args, code, tc.code, out, errw)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("nestor assoc match %q: no %q in\n%s", tc.args, w, text)
			}
		}
	}
}

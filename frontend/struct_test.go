package frontend

import (
	"slices"
	"strings"
	"testing"

	"nestor/ir"
)

// TestStructMembers checks arrays of structs (issue 14, PPCG's tests and
// complex numbers as structs): the members become a last, constant
// dimension (ir.Array.Members), each access selects one, and the element
// prints with the member syntax again.
func TestStructMembers(t *testing.T) {
	sc := parseOne(t, `
struct cpx { double re, im; };
typedef struct { int lo, mid, hi; } range;
range g[8];
void f(int n, struct cpx A[n][n], struct cpx *p, struct cpx y[n]) {
  struct cpx z;
#pragma scop
  z.re = 0;
  for (int i = 0; i < n; i++) {
    y[i].im = A[i][n - 1 - i].re * p->im;
    z.re += y[i].im + g[3].hi;
  }
#pragma endscop
  y[0] = z;
}`)
	p := sc.Prog
	names := ir.Names{Param: ir.ParamNames(p)}
	for _, w := range []struct {
		array   string
		members []string
		dims    string // the sizes, the members' count last
		elem    ir.Type
	}{
		{"A", []string{"re", "im"}, "n,n,2", ir.Double},
		{"p", []string{"re", "im"}, "2,2", ir.Double}, // "*p": a first size that covers p[0] (inferFirstSizes)
		{"y", []string{"re", "im"}, "n,2", ir.Double},
		{"z", []string{"re", "im"}, "2", ir.Double},
		{"g", []string{"lo", "mid", "hi"}, "8,3", ir.Int},
	} {
		k := p.ArrayIndex(w.array)
		if k < 0 {
			t.Errorf("no array %s", w.array)
			continue
		}
		a := p.Arrays[k]
		var dims []string
		for _, d := range a.Dims {
			if d.Iter == nil && d.Param == nil {
				dims = append(dims, "")
				continue
			}
			dims = append(dims, ir.FormatAff(d, names))
		}
		if !slices.Equal(a.Members, w.members) || strings.Join(dims, ",") != w.dims || a.Elem != w.elem {
			t.Errorf("%s: members %v dims %v elem %s, want %v %s %s", w.array, a.Members, dims, a.Elem, w.members, w.dims, w.elem)
		}
	}
	got := summary(p)
	for _, w := range []string{
		"acc=w:z[0] = conv<double>(0:int)", // the int 0, converted to the member's type
		"acc=w:y[i][1],A[i][n - i - 1][0],p[0][1]",
		"acc=w:z[0],z[0],y[i][1],g[3][2] += (L2:double + conv<double>(L3:int)):double",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	// Element prints the member, not its index.
	var printed []string
	for _, s := range p.Stmts {
		for _, acc := range s.Accesses {
			printed = append(printed, p.Arrays[acc.Array].Element(acc.Index, func(x ir.Aff) string { return ir.FormatAff(x, ir.StmtNames(p, s)) }))
		}
	}
	for _, w := range []string{"z.re", "y[i].im", "A[i][n - i - 1].re", "p[0].im"} {
		if !slices.Contains(printed, w) {
			t.Errorf("no element printed as %s in %v", w, printed)
		}
	}
	// The harness allocates parameters from these shapes.
	for _, fp := range sc.Func.Params {
		if fp.Name == "A" && (len(fp.Dims) != 3 || fp.Dims[2].Const != 2 || fp.Elem != ir.Double || fp.Struct != "") {
			t.Errorf("parameter A: elem %s dims %v struct %q, want double with the 2 members last", fp.Elem, fp.Dims, fp.Struct)
		}
	}
}

// TestStructByValue: a struct parameter passed by value is described by
// the type its declaration spells, for the harness to declare it.
func TestStructByValue(t *testing.T) {
	sc := parseOne(t, `
typedef struct { float re, im; } cpxf;
struct cpx { double re, im; };
void f(int n, const struct cpx alpha, cpxf beta, struct cpx y[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    y[i].re = alpha.im * beta.re;
#pragma endscop
}`)
	want := map[string]struct {
		spelling string
		elem     ir.Type
	}{"alpha": {"struct cpx", ir.Double}, "beta": {"cpxf", ir.Float}, "y": {"", ir.Double}}
	for _, fp := range sc.Func.Params {
		if w, ok := want[fp.Name]; ok && (fp.Struct != w.spelling || fp.Elem != w.elem) {
			t.Errorf("%s: struct %q elem %s, want %q %s", fp.Name, fp.Struct, fp.Elem, w.spelling, w.elem)
		}
	}
}

// TestStructMembersCheck checks that ir.Check refuses an access that does
// not select a member with a constant.
func TestStructMembersCheck(t *testing.T) {
	p := parseOne(t, `
struct cpx { double re, im; };
void f(int n, struct cpx y[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    y[i].re = y[i].im;
#pragma endscop
}`).Prog
	p.Stmts[0].Accesses[1].Index[1].Iter[0] = 1 // y[i][i]
	if err := ir.Check(p); err == nil || !strings.Contains(err.Error(), "selects member") {
		t.Errorf("Check of y[i][i] on an array of structs: %v, want a member error", err)
	}
	p.Stmts[0].Accesses[1].Index[1].Iter[0] = 0
	p.Stmts[0].Accesses[1].Index[1].Const = 2 // past the members
	if err := ir.Check(p); err == nil {
		t.Error("Check of member 2 of 2: no error")
	}
}

package ir

import (
	"nestor/internal/intmath"
	"strings"
	"testing"
)

// tri builds "for (i = 0; i < n; i++) for (j = 0; j <= i; j++) A[i][j] += B[j];".
func tri() *Program {
	p := &Program{
		Params: []Param{{Name: "n", Type: Int}},
		Arrays: []*Array{
			{Name: "A", Elem: Double, Dims: []Aff{{Param: []int64{1}}, {Param: []int64{1}}}},
			{Name: "B", Elem: Double, Dims: []Aff{{Param: []int64{1}}}},
		},
	}
	ij := func(ci, cj, cn, c int64) Aff {
		return Aff{Iter: []int64{ci, cj}, Param: []int64{cn}, Local: []int64{}, Const: c}
	}
	sub := func(ci, cj int64) Aff { return Aff{Iter: []int64{ci, cj}, Param: []int64{0}} }
	p.Stmts = []*Stmt{{
		Name: "S0", Iters: []string{"i", "j"}, Dir: []int{1, 1}, Beta: []int{0, 0, 0},
		Domain: Domain{Cons: []Constraint{
			{Aff: ij(1, 0, 0, 0)}, {Aff: ij(-1, 0, 1, -1)}, {Aff: ij(0, 1, 0, 0)}, {Aff: ij(1, -1, 0, 0)},
		}},
		Accesses: []*Access{
			{Array: 0, Write: true, Index: []Aff{sub(1, 0), sub(0, 1)}},
			{Array: 0, Index: []Aff{sub(1, 0), sub(0, 1)}},
			{Array: 1, Index: []Aff{sub(0, 1)}},
		},
		Op:  AddAssign,
		RHS: &Load{T: Double, Access: 2},
	}}
	return p
}

func TestCheckAcceptsValid(t *testing.T) {
	if err := Check(tri()); err != nil {
		t.Fatal(err)
	}
}

func TestCheckRejects(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		break_     func(p *Program)
	}{
		{"short subscript", "subscripts", func(p *Program) { p.Stmts[0].Accesses[2].Index = nil }},
		{"no write first", "not a write", func(p *Program) { p.Stmts[0].Accesses[0].Write = false }},
		{"compound without read", "compound", func(p *Program) { p.Stmts[0].Accesses[1].Index[0].Const = 1 }},
		{"bad load", "load of access", func(p *Program) { p.Stmts[0].RHS = &Load{T: Double, Access: 0} }},
		{"load type", "typed", func(p *Program) { p.Stmts[0].RHS = &Load{T: Float, Access: 2} }},
		{"beta length", "beta", func(p *Program) { p.Stmts[0].Beta = []int{0} }},
		{"direction", "direction", func(p *Program) { p.Stmts[0].Dir[1] = 0 }},
		{"coefficients", "coefficients", func(p *Program) { p.Stmts[0].Domain.Cons[0].Iter = []int64{1} }},
		{"div by zero", "divides by 0", func(p *Program) {
			p.Stmts[0].Domain.Divs = []Div{{Num: Aff{Iter: []int64{1, 0}, Param: []int64{0}, Local: []int64{0}}, Den: 0}}
		}},
		{"mixed types", "of double and int", func(p *Program) {
			p.Stmts[0].RHS = &Binary{Op: Add, X: &Load{T: Double, Access: 2}, Y: &IterRef{T: Int, Level: 0}, T: Double}
		}},
		{"same beta", "same beta", func(p *Program) {
			s := *p.Stmts[0]
			s.Name = "S1"
			p.Stmts = append(p.Stmts, &s)
		}},
		{"stmt where loop", "both sit", func(p *Program) {
			p.Stmts = append(p.Stmts, &Stmt{Name: "S1", Beta: []int{0}, Accesses: []*Access{{Array: 1, Write: true, Index: []Aff{{Param: []int64{0}}}}},
				RHS: &Const{T: Double, Float: 1}})
		}},
		{"call of no function name", "not a function name", func(p *Program) {
			p.Stmts[0].RHS = &Call{Fn: "a+b", T: Double}
		}},
	} {
		p := tri()
		tc.break_(p)
		err := Check(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check = %v, want error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestCommon(t *testing.T) {
	for _, tc := range []struct{ a, b, want Type }{
		{Char, Short, Int},   // both promote to int
		{Int, UInt, UInt},    // same rank: unsigned wins
		{Long, UInt, Long},   // long holds every unsigned int
		{ULong, Long, ULong}, // same rank
		{Int, Float, Float},  // any float wins
		{Float, Double, Double},
		{Bool, Bool, Int},
	} {
		if got := Common(tc.a, tc.b); got != tc.want {
			t.Errorf("Common(%s, %s) = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestFormatDomain(t *testing.T) {
	p := tri()
	got := FormatDomain(p, p.Stmts[0])
	want := "[n] -> { S0[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= i }"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestContainsAndOrder(t *testing.T) {
	p := tri()
	d := &p.Stmts[0].Domain
	n := []int64{4}
	count := 0
	for i := int64(-1); i <= 5; i++ {
		for j := int64(-1); j <= 5; j++ {
			in, ok := d.Contains([]int64{i, j}, n)
			if !ok {
				t.Fatal("overflow")
			}
			if in != (i >= 0 && i < 4 && j >= 0 && j <= i) {
				t.Errorf("Contains(%d,%d) = %v", i, j, in)
			}
			if in {
				count++
			}
		}
	}
	if count != 10 {
		t.Errorf("%d points, want 10", count)
	}
	s := p.Stmts[0]
	if !Less(s, []int64{1, 1}, s, []int64{2, 0}) || Less(s, []int64{2, 0}, s, []int64{1, 1}) {
		t.Error("Less disagrees with lexicographic order")
	}
	s.Dir[1] = -1
	if !Less(s, []int64{2, 1}, s, []int64{2, 0}) {
		t.Error("a decreasing loop runs j = 1 before j = 0")
	}
}

func TestStrideDiv(t *testing.T) {
	// i in [0, 10] with i even: q = floor(i/2), i - 2q = 0.
	d := Domain{
		Divs: []Div{{Num: Aff{Iter: []int64{1}, Param: []int64{}, Local: []int64{0}}, Den: 2}},
		Cons: []Constraint{
			{Aff: Aff{Iter: []int64{1}, Param: []int64{}, Local: []int64{0}}},
			{Aff: Aff{Iter: []int64{-1}, Param: []int64{}, Local: []int64{0}, Const: 10}},
			{Aff: Aff{Iter: []int64{1}, Param: []int64{}, Local: []int64{-2}}, Eq: true},
		},
	}
	for i := int64(-3); i <= 12; i++ {
		in, _ := d.Contains([]int64{i}, nil)
		if in != (i >= 0 && i <= 10 && i%2 == 0) {
			t.Errorf("Contains(%d) = %v", i, in)
		}
	}
}

func TestFloorCeil(t *testing.T) {
	for _, tc := range []struct{ a, b, fl, ce int64 }{{7, 2, 3, 4}, {-7, 2, -4, -3}, {6, 3, 2, 2}, {-6, 3, -2, -2}, {0, 5, 0, 0}} {
		if intmath.FloorDiv(tc.a, tc.b) != tc.fl || intmath.CeilDiv(tc.a, tc.b) != tc.ce {
			t.Errorf("floor/ceil(%d/%d) = %d/%d", tc.a, tc.b, intmath.FloorDiv(tc.a, tc.b), intmath.CeilDiv(tc.a, tc.b))
		}
	}
}

func TestEvalOverflow(t *testing.T) {
	a := Aff{Iter: []int64{1 << 62}, Const: 1 << 62}
	if _, ok := a.Eval([]int64{2}, nil, nil); ok {
		t.Error("overflow went silent")
	}
	if v, ok := a.Eval([]int64{-1}, nil, nil); !ok || v != 0 {
		t.Errorf("Eval = %d, %v", v, ok)
	}
}

func TestStmtValue(t *testing.T) {
	// int array += double: (int)((double)x + y).
	p := &Program{Arrays: []*Array{{Name: "a", Elem: Int}, {Name: "b", Elem: Double}}}
	s := &Stmt{Beta: []int{0}, Op: AddAssign, RHS: &Load{T: Double, Access: 2}, Accesses: []*Access{
		{Array: 0, Write: true}, {Array: 0}, {Array: 1},
	}}
	p.Stmts = []*Stmt{s}
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
	v := s.Value(p)
	c, ok := v.(*Cast)
	if !ok || c.T != Int {
		t.Fatalf("Value = %#v, want a cast to int", v)
	}
	b := c.X.(*Binary)
	if b.T != Double || b.X.Type() != Double || b.Y.Type() != Double {
		t.Errorf("sum typed %s(%s, %s)", b.T, b.X.Type(), b.Y.Type())
	}
	got := FormatExpr(v, func(l *Load) string { return p.Arrays[s.Accesses[l.Access].Array].Name }, nil, nil)
	if got != "a + b" {
		t.Errorf("printed %q", got)
	}
}

func TestFormatExprParens(t *testing.T) {
	x := &Const{T: Int, Int: 1, Text: "x"}
	y := &Const{T: Int, Int: 2, Text: "y"}
	z := &Const{T: Int, Int: 3, Text: "z"}
	for _, tc := range []struct {
		e    Expr
		want string
	}{
		{&Binary{Op: Sub, X: x, Y: &Binary{Op: Sub, X: y, Y: z, T: Int}, T: Int}, "x - (y - z)"},
		{&Binary{Op: Sub, X: &Binary{Op: Sub, X: x, Y: y, T: Int}, Y: z, T: Int}, "x - y - z"},
		{&Binary{Op: Mul, X: &Binary{Op: Add, X: x, Y: y, T: Int}, Y: z, T: Int}, "(x + y) * z"},
		{&Cond{C: &Binary{Op: Lt, X: x, Y: y, T: Int}, X: x, Y: y, T: Int}, "x < y ? x : y"},
		{&Unary{Op: Neg, X: &Const{T: Int, Int: -1}, T: Int}, "-(-1)"},
		{&Cast{T: Double, X: &Binary{Op: Add, X: x, Y: y, T: Int}}, "(double)(x + y)"},
		// What gcc's -Wparentheses asks to see parenthesized.
		{&Binary{Op: Or, X: &Binary{Op: Le, X: x, Y: y, T: Int}, Y: &Binary{Op: Neq, X: z, Y: z, T: Int}, T: Int}, "(x <= y) | (z != z)"},
		{&Binary{Op: LOr, X: x, Y: &Binary{Op: LAnd, X: y, Y: z, T: Int}, T: Int}, "x || (y && z)"},
		{&Binary{Op: Shl, X: &Binary{Op: Add, X: x, Y: y, T: Int}, Y: z, T: Int}, "(x + y) << z"},
		{&Binary{Op: And, X: &Binary{Op: And, X: x, Y: y, T: Int}, Y: &Binary{Op: Mul, X: y, Y: z, T: Int}, T: Int}, "x & y & (y * z)"},
		{&Binary{Op: LAnd, X: &Binary{Op: Lt, X: x, Y: y, T: Int}, Y: z, T: Int}, "x < y && z"},
	} {
		if got := FormatExpr(tc.e, nil, nil, nil); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// A domain with a stride local printed without a panic (found by codegen).
func TestFormatDomainDiv(t *testing.T) {
	p := &Program{Arrays: []*Array{{Name: "x", Elem: Double}}}
	s := &Stmt{Name: "S0", Iters: []string{"i"}, Dir: []int{1}, Beta: []int{0, 0},
		Domain: Domain{
			Divs: []Div{{Num: Aff{Iter: []int64{1}, Param: []int64{}, Local: []int64{0}}, Den: 2}},
			Cons: []Constraint{{Aff: Aff{Iter: []int64{1}, Param: []int64{}, Local: []int64{-2}}, Eq: true}},
		}}
	p.Stmts = []*Stmt{s}
	if got, want := FormatDomain(p, s), "[] -> { S0[i] : i = 2*floor((i)/2) }"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestAffNegSub checks −a and a − b on forms of different lengths.
func TestAffNegSub(t *testing.T) {
	a := Aff{Iter: []int64{1, -2}, Param: []int64{3}, Const: 4}
	b := Aff{Iter: []int64{1, 0, 5}, Local: []int64{2}, Const: -1}
	if got, want := a.Neg(), (Aff{Iter: []int64{-1, 2}, Param: []int64{-3}, Const: -4}); !got.Equal(want) {
		t.Errorf("-a = %+v, want %+v", got, want)
	}
	if a.Iter[1] != -2 {
		t.Errorf("Neg changed a: %+v", a)
	}
	if got, want := a.Sub(b), (Aff{Iter: []int64{0, -2, -5}, Param: []int64{3}, Local: []int64{-2}, Const: 5}); !got.Equal(want) {
		t.Errorf("a - b = %+v, want %+v", got, want)
	}
}

package interp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"nestor/ir"
)

// builder makes test programs from names, in the spirit of Go's
// ssa/func_test.go: bounds and subscripts are written as text.
type builder struct {
	t testing.TB
	p *ir.Program
}

// newProg starts a program whose parameters are ints named params.
func newProg(t testing.TB, params ...string) *builder {
	p := &ir.Program{}
	for _, n := range params {
		p.Params = append(p.Params, ir.Param{Name: n, Type: ir.Int})
	}
	return &builder{t: t, p: p}
}

// array adds an array with sizes written over the parameters.
func (b *builder) array(name string, elem ir.Type, dims ...string) {
	a := &ir.Array{Name: name, Elem: elem, Storage: ir.Global}
	for _, d := range dims {
		a.Dims = append(a.Dims, b.aff(d, nil, nil))
	}
	b.p.Arrays = append(b.p.Arrays, a)
}

// stmt adds a statement. loops names the counters, outermost first, with a
// leading '-' for a decreasing loop ("i -j"). dom is a ';'-separated list
// of constraints ("i >= 0; i < n") and local definitions
// ("q = floor((i - 1)/2)"). accs lists the accesses, the write first
// ("A[i][j]; B[j]"); Load k reads accs[k].
func (b *builder) stmt(name, loops string, beta []int, dom, accs string, op ir.AssignOp, rhs ir.Expr) *ir.Stmt {
	s := &ir.Stmt{Name: name, Beta: beta, Op: op, RHS: rhs}
	for _, l := range strings.Fields(loops) {
		dir := 1
		if strings.HasPrefix(l, "-") {
			dir, l = -1, l[1:]
		}
		s.Iters, s.Dir = append(s.Iters, l), append(s.Dir, dir)
	}
	var locals []string
	for _, c := range strings.Split(dom, ";") {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if name, def, ok := strings.Cut(c, "= floor("); ok {
			num, den, _ := strings.Cut(strings.TrimSuffix(def, ")"), ")/")
			d, err := strconv.ParseInt(den, 10, 64)
			if err != nil {
				b.t.Fatalf("bad local %q", c)
			}
			s.Domain.Divs = append(s.Domain.Divs, ir.Div{Num: b.aff(strings.TrimPrefix(num, "("), s.Iters, locals), Den: d})
			locals = append(locals, strings.TrimSpace(name))
			continue
		}
		s.Domain.Cons = append(s.Domain.Cons, b.constraint(c, s.Iters, locals))
	}
	// Locals defined after a constraint was parsed: pad every form.
	for k := range s.Domain.Divs {
		s.Domain.Divs[k].Num.Local = pad(s.Domain.Divs[k].Num.Local, len(locals))
	}
	for k := range s.Domain.Cons {
		s.Domain.Cons[k].Local = pad(s.Domain.Cons[k].Local, len(locals))
	}
	for k, a := range strings.Split(accs, ";") {
		a = strings.TrimSpace(a)
		arr, rest, _ := strings.Cut(a, "[")
		acc := &ir.Access{Array: b.p.ArrayIndex(arr), Write: k == 0}
		if acc.Array < 0 {
			b.t.Fatalf("no array %q", arr)
		}
		if rest != "" {
			for _, sub := range strings.Split(strings.TrimSuffix(rest, "]"), "][") {
				acc.Index = append(acc.Index, b.aff(sub, s.Iters, nil))
			}
		}
		s.Accesses = append(s.Accesses, acc)
	}
	b.p.Stmts = append(b.p.Stmts, s)
	return s
}

func pad(xs []int64, n int) []int64 {
	for len(xs) < n {
		xs = append(xs, 0)
	}
	return xs
}

// build checks the program and returns it.
func (b *builder) build() *ir.Program {
	b.t.Helper()
	if err := ir.Check(b.p); err != nil {
		b.t.Fatalf("test program: %v", err)
	}
	return b.p
}

// constraint parses "lhs op rhs" with op one of >= <= == > <.
func (b *builder) constraint(s string, iters, locals []string) ir.Constraint {
	for _, op := range []string{">=", "<=", "==", ">", "<"} {
		l, r, ok := strings.Cut(s, op)
		if !ok {
			continue
		}
		x, y := b.aff(l, iters, locals), b.aff(r, iters, locals)
		if op == "<=" || op == "<" {
			x, y = y, x
		}
		c := ir.Constraint{Aff: sub(x, y), Eq: op == "=="}
		if op == ">" || op == "<" {
			c.Const--
		}
		return c
	}
	b.t.Fatalf("bad constraint %q", s)
	return ir.Constraint{}
}

func sub(x, y ir.Aff) ir.Aff {
	z := x.Clone()
	for _, p := range [][2][]int64{{z.Iter, y.Iter}, {z.Param, y.Param}, {z.Local, y.Local}} {
		for k := range p[0] {
			p[0][k] -= p[1][k]
		}
	}
	z.Const -= y.Const
	return z
}

// aff parses a sum of terms "2*i", "-n", "3", "q" over iters, the
// parameters and locals.
func (b *builder) aff(s string, iters, locals []string) ir.Aff {
	a := ir.NewAff(len(iters), len(b.p.Params), len(locals))
	s = strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "-", "+-")
	for _, term := range strings.Split(s, "+") {
		if term == "" {
			continue
		}
		coef, name := int64(1), term
		if c, n, ok := strings.Cut(term, "*"); ok {
			v, err := strconv.ParseInt(c, 10, 64)
			if err != nil {
				b.t.Fatalf("bad term %q", term)
			}
			coef, name = v, n
		} else if strings.HasPrefix(term, "-") {
			coef, name = -1, term[1:]
		}
		if v, err := strconv.ParseInt(name, 10, 64); err == nil {
			a.Const += coef * v
		} else if k := slices.Index(iters, name); k >= 0 {
			a.Iter[k] += coef
		} else if k := b.p.ParamIndex(name); k >= 0 {
			a.Param[k] += coef
		} else if k := slices.Index(locals, name); k >= 0 {
			a.Local[k] += coef
		} else {
			b.t.Fatalf("unknown name %q in %q", name, s)
		}
	}
	return a
}

// Expression helpers.

func ld(t ir.Type, access int) ir.Expr { return &ir.Load{T: t, Access: access} }
func ic(v int64) ir.Expr               { return &ir.Const{T: ir.Int, Int: v} }
func dc(v float64) ir.Expr             { return &ir.Const{T: ir.Double, Float: v} }
func fc(v float32) ir.Expr             { return &ir.Const{T: ir.Float, Float: float64(v)} }
func it(level int) ir.Expr             { return &ir.IterRef{T: ir.Int, Level: level} }
func cast(t ir.Type, x ir.Expr) ir.Expr {
	return &ir.Cast{T: t, X: x}
}
func tc(t ir.Type, v int64) ir.Expr { return &ir.Const{T: t, Int: v} }

// bin builds x op y; arithmetic takes the type of x, comparisons and
// logical operators yield int.
func bin(op ir.BinOp, x, y ir.Expr) ir.Expr {
	t := x.Type()
	if op.IsComparison() || op.IsLogical() {
		t = ir.Int
	}
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}

// instance is one statement instance, for order checks.
type instance struct {
	stmt int
	iter []int64
}

func (x instance) String() string { return fmt.Sprintf("S%d%v", x.stmt, x.iter) }

func trace(t *testing.T, p *ir.Program, params []int64) []instance {
	t.Helper()
	var out []instance
	err := Instances(p, params, func(s int, iter []int64) error {
		out = append(out, instance{s, slices.Clone(iter)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bruteBox bounds the counters bruteOrder tries.
const bruteBox = 12

// bruteOrder is the shared checker of every order test: it enumerates every
// point of [-bruteBox, bruteBox]^d that the domain contains and sorts all
// instances with ir.Less. The programs must have domains inside the box.
func bruteOrder(t *testing.T, p *ir.Program, params []int64) []instance {
	var all []instance
	for k, s := range p.Stmts {
		iter := make([]int64, s.Depth())
		var rec func(d int)
		rec = func(d int) {
			if d == len(iter) {
				if in, _ := s.Domain.Contains(iter, params); in {
					all = append(all, instance{k, slices.Clone(iter)})
				}
				return
			}
			for v := int64(-bruteBox); v <= bruteBox; v++ {
				iter[d] = v
				rec(d + 1)
			}
		}
		rec(0)
	}
	slices.SortStableFunc(all, func(a, b instance) int {
		switch {
		case ir.Less(p.Stmts[a.stmt], a.iter, p.Stmts[b.stmt], b.iter):
			return -1
		case ir.Less(p.Stmts[b.stmt], b.iter, p.Stmts[a.stmt], a.iter):
			return 1
		}
		t.Fatalf("instances %v and %v are unordered", a, b)
		return 0
	})
	return all
}

// checkOrder compares Instances with the brute-force order and returns the
// trace.
func checkOrder(t *testing.T, p *ir.Program, params []int64) []instance {
	t.Helper()
	got, want := trace(t, p, params), bruteOrder(t, p, params)
	if !slices.EqualFunc(got, want, func(a, b instance) bool {
		return a.stmt == b.stmt && slices.Equal(a.iter, b.iter)
	}) {
		t.Fatalf("order differs from sorting by ir.Less:\n got %v\nwant %v", got, want)
	}
	return got
}

// run allocates memory, lets init fill it, and runs p.
func run(t *testing.T, p *ir.Program, params []int64, init func(m *Memory)) (*Memory, error) {
	t.Helper()
	m, err := NewMemory(p, params)
	if err != nil {
		t.Fatal(err)
	}
	if init != nil {
		init(m)
	}
	return m, Run(p, params, m)
}

// wantErr requires err to contain every fragment.
func wantErr(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", fragments)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not contain %q", err, f)
		}
	}
	if !strings.HasPrefix(err.Error(), "interp: ") {
		t.Errorf("error %q does not start with \"interp: \"", err)
	}
}

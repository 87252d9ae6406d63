package reroll

import (
	"slices"
	"strings"

	"nestor/ir"
)

// roll returns the statement that runs copies of s (the first copy, of
// depth d) as iteration u of a new innermost loop over 0 ≤ u ≤ n-1,
// named iter, at position beta: s with every slot replaced by its
// progression in u (rs and fl, from a progression).
func roll(p *ir.Program, s *ir.Stmt, iter string, n int64, beta []int, rs []ramp, fl []floatLit) *ir.Stmt {
	d := s.Depth()
	b := &builder{u: d, rs: rs, fl: fl}
	t := &ir.Stmt{
		Name:  s.Name,
		Iters: append(slices.Clone(s.Iters), iter),
		Dir:   append(slices.Clone(s.Dir), 1),
		Beta:  beta,
		Op:    s.Op,
		Pos:   s.Pos,
	}
	for _, dv := range s.Domain.Divs {
		t.Domain.Divs = append(t.Domain.Divs, ir.Div{Num: b.extend(dv.Num), Den: dv.Den})
	}
	for _, c := range s.Domain.Cons {
		t.Domain.Cons = append(t.Domain.Cons, ir.Constraint{Aff: b.next(c.Aff), Eq: c.Eq})
	}
	// 0 ≤ u ≤ n-1.
	lo := ir.NewAff(d+1, len(p.Params), len(s.Domain.Divs))
	lo.Iter[d] = 1
	hi := ir.NewAff(d+1, len(p.Params), len(s.Domain.Divs))
	hi.Iter[d], hi.Const = -1, n-1
	t.Domain.Cons = append(t.Domain.Cons, ir.Constraint{Aff: lo}, ir.Constraint{Aff: hi})
	for _, a := range s.Accesses {
		na := &ir.Access{Array: a.Array, Write: a.Write}
		for _, x := range a.Index {
			na.Index = append(na.Index, b.next(x))
		}
		t.Accesses = append(t.Accesses, na)
	}
	t.RHS = b.expr(s.RHS)
	t.Text = text(p, t)
	return t
}

// builder consumes the slots in the order newForm produced them.
type builder struct {
	u  int // the level of the new counter
	rs []ramp
	fl []floatLit
	ni int // slots consumed
	nf int // float literals consumed
}

// extend returns a over one more counter, which it does not use.
func (b *builder) extend(a ir.Aff) ir.Aff {
	a = a.Clone()
	a.Iter = append(a.Iter, 0)
	return a
}

// next returns a over one more counter, with the next slot's progression
// as its constant and the new counter's coefficient.
func (b *builder) next(a ir.Aff) ir.Aff {
	a = b.extend(a)
	r := b.rs[b.ni]
	b.ni++
	a.Const, a.Iter[b.u] = r.Start, r.Step
	return a
}

// expr returns a copy of e with its movable literals replaced by their
// progressions in the new counter.
func (b *builder) expr(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Const:
		switch {
		case e.T.IsFloat():
			f := b.fl[b.nf]
			b.nf++
			if f.Same {
				c := *e
				return &c
			}
			return &ir.Cast{T: e.T, X: b.ramp(f.R, ir.Int, "")}
		case movable(e.T):
			r := b.rs[b.ni]
			b.ni++
			return b.ramp(r, e.T, e.Text)
		}
		c := *e
		return &c
	case *ir.Load:
		c := *e
		return &c
	case *ir.IterRef:
		c := *e
		return &c
	case *ir.ParamRef:
		c := *e
		return &c
	case *ir.Unary:
		return &ir.Unary{Op: e.Op, X: b.expr(e.X), T: e.T}
	case *ir.Binary:
		return &ir.Binary{Op: e.Op, X: b.expr(e.X), Y: b.expr(e.Y), T: e.T}
	case *ir.Cond:
		return &ir.Cond{C: b.expr(e.C), X: b.expr(e.X), Y: b.expr(e.Y), T: e.T}
	case *ir.Cast:
		return &ir.Cast{T: e.T, X: b.expr(e.X), Implicit: e.Implicit}
	case *ir.Call:
		c := &ir.Call{Fn: e.Fn, T: e.T}
		for _, a := range e.Args {
			c.Args = append(c.Args, b.expr(a))
		}
		return c
	}
	panic("reroll: unknown expression")
}

// ramp returns r.Start + r.Step·u in type t, computed as c0 + |d|·u or
// c0 - |d|·u so that no intermediate value leaves the range the copies'
// values span (literalRamp checked it); text is the literal's spelling,
// kept when the literal does not move.
func (b *builder) ramp(r ramp, t ir.Type, text string) ir.Expr {
	if r.Step == 0 {
		return &ir.Const{T: t, Int: r.Start, Text: text}
	}
	var e ir.Expr = &ir.IterRef{T: t, Level: b.u}
	if d := max(r.Step, -r.Step); d != 1 {
		e = &ir.Binary{Op: ir.Mul, X: &ir.Const{T: t, Int: d}, Y: e, T: t}
	}
	op := ir.Add
	if r.Step < 0 {
		op = ir.Sub
	} else if r.Start == 0 {
		return e
	}
	return &ir.Binary{Op: op, X: &ir.Const{T: t, Int: r.Start}, Y: e, T: t}
}

// text spells s as C, for comments: "y[i + u] = y[i + u] + a * x[i + u];".
func text(p *ir.Program, s *ir.Stmt) string {
	names := ir.StmtNames(p, s)
	access := func(a *ir.Access) string {
		var b strings.Builder
		b.WriteString(p.Arrays[a.Array].Name)
		for _, x := range a.Index {
			b.WriteString("[" + ir.FormatAff(x, names) + "]")
		}
		return b.String()
	}
	load := func(l *ir.Load) string { return access(s.Accesses[l.Access]) }
	iter := func(r *ir.IterRef) string { return s.Iters[r.Level] }
	return access(s.Accesses[0]) + " " + s.Op.String() + " " + ir.FormatExpr(s.RHS, load, iter, ir.ParamNames(p)) + ";"
}

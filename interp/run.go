package interp

import (
	"fmt"
	"strings"

	"nestor/ir"
)

// Error is a failure while executing one statement instance: undefined
// behavior in C (overflow, division by zero, an access out of bounds) or an
// unenumerable domain.
type Error struct {
	Stmt  *ir.Stmt
	Point []int64 // the counters, outermost first (only the outer ones for a bound error)
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("interp: stmt " + e.Stmt.Name)
	if len(e.Point) > 0 {
		b.WriteString(" at (")
		for k, v := range e.Point {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s=%d", e.Stmt.Iters[k], v)
		}
		b.WriteString(")")
	}
	return b.String() + ": " + e.Msg
}

// Run executes every statement instance of p at params, in the original
// order, on m, which NewMemory(p, params) made. It stops at the first
// error, leaving m as the instances before it left it.
func Run(p *ir.Program, params []int64, m *Memory) error {
	if len(m.buf) != len(p.Arrays) {
		return fmt.Errorf("interp: memory for %d arrays, program has %d", len(m.buf), len(p.Arrays))
	}
	for k, a := range p.Arrays {
		if m.elem[k] != a.Elem || len(m.dims[k]) != a.Rank() {
			return fmt.Errorf("interp: memory for array %d is %s with %d dimensions, program's %s is %s with %d",
				k, m.elem[k], len(m.dims[k]), a.Name, a.Elem, a.Rank())
		}
	}
	values := make([]ir.Expr, len(p.Stmts))
	for k, s := range p.Stmts {
		values[k] = s.Value(p)
	}
	ev := &evaluator{p: p, params: params, m: m}
	return Instances(p, params, func(stmt int, iter []int64) error {
		s := p.Stmts[stmt]
		ev.s, ev.iter = s, iter
		if err := ev.exec(values[stmt]); err != nil {
			return &Error{Stmt: s, Point: append([]int64(nil), iter...), Msg: err.Error()}
		}
		return nil
	})
}

// evaluator evaluates the body of statement s at counters iter.
type evaluator struct {
	p      *ir.Program
	params []int64
	m      *Memory
	s      *ir.Stmt
	iter   []int64
}

// exec evaluates the stored value, then the written address, and stores.
func (e *evaluator) exec(val ir.Expr) error {
	v, err := e.eval(val)
	if err != nil {
		return err
	}
	a := e.s.Accesses[0]
	flat, err := e.offset(a)
	if err != nil {
		return err
	}
	if t := e.p.Arrays[a.Array].Elem; val.Type() != t {
		return fmt.Errorf("stores %s into %s array", val.Type(), t)
	}
	e.m.store(a.Array, flat, v)
	return nil
}

// offset returns the row-major index of the element access a names.
func (e *evaluator) offset(a *ir.Access) (int, error) {
	dims := e.m.dims[a.Array]
	flat := int64(0)
	for d, sub := range a.Index {
		x, ok := sub.Eval(e.iter, e.params, nil)
		if !ok || x < 0 || x >= dims[d] {
			return 0, e.outOfBounds(a)
		}
		flat = flat*dims[d] + x
	}
	return int(flat), nil
}

func (e *evaluator) outOfBounds(a *ir.Access) error {
	arr := e.p.Arrays[a.Array]
	n := ir.StmtNames(e.p, e.s)
	var written, vals, size strings.Builder
	for d, sub := range a.Index {
		x, ok := sub.Eval(e.iter, e.params, nil)
		fmt.Fprintf(&written, "[%s]", ir.FormatAff(sub, n))
		if ok {
			fmt.Fprintf(&vals, "[%d]", x)
		} else {
			vals.WriteString("[overflow]")
		}
		fmt.Fprintf(&size, "[%d]", e.m.dims[a.Array][d])
	}
	return fmt.Errorf("access %s%s = %s%s is out of bounds of %s%s",
		arr.Name, written.String(), arr.Name, vals.String(), arr.Name, size.String())
}

func (e *evaluator) eval(x ir.Expr) (value, error) {
	switch x := x.(type) {
	case *ir.Const:
		if x.T.IsFloat() {
			return convert(value{f: x.Float}, ir.Double, x.T)
		}
		return value{i: wrap(x.T, x.Int)}, nil
	case *ir.Load:
		a := e.s.Accesses[x.Access]
		flat, err := e.offset(a)
		if err != nil {
			return value{}, err
		}
		return e.m.load(a.Array, flat), nil
	case *ir.IterRef:
		v := e.iter[x.Level]
		if !fits(x.T, v) {
			return value{}, fmt.Errorf("counter %s = %d does not fit %s", e.s.Iters[x.Level], v, x.T)
		}
		return value{i: v}, nil
	case *ir.ParamRef:
		v := e.params[x.Param]
		if !fits(x.T, v) {
			return value{}, fmt.Errorf("parameter %s = %d does not fit %s", e.p.Params[x.Param].Name, v, x.T)
		}
		return value{i: v}, nil
	case *ir.Unary:
		v, err := e.eval(x.X)
		if err != nil {
			return value{}, err
		}
		if x.Op == ir.Not {
			return boolValue(!truthy(x.X.Type(), v)), nil
		}
		return unary(x.Op, x.T, v)
	case *ir.Binary:
		return e.binary(x)
	case *ir.Cond:
		c, err := e.eval(x.C)
		if err != nil {
			return value{}, err
		}
		if truthy(x.C.Type(), c) {
			return e.eval(x.X)
		}
		return e.eval(x.Y)
	case *ir.Cast:
		v, err := e.eval(x.X)
		if err != nil {
			return value{}, err
		}
		return convert(v, x.X.Type(), x.T)
	case *ir.Call:
		var buf [2]float64
		args := buf[:0]
		for _, a := range x.Args {
			v, err := e.eval(a)
			if err != nil {
				return value{}, err
			}
			args = append(args, v.f)
		}
		return call(x.Fn, x.T, args)
	}
	return value{}, fmt.Errorf("unknown expression %T", x)
}

func (e *evaluator) binary(x *ir.Binary) (value, error) {
	a, err := e.eval(x.X)
	if err != nil {
		return value{}, err
	}
	if x.Op.IsLogical() {
		// && and || evaluate Y only when X does not decide.
		if truthy(x.X.Type(), a) == (x.Op == ir.LOr) {
			return boolValue(x.Op == ir.LOr), nil
		}
		b, err := e.eval(x.Y)
		if err != nil {
			return value{}, err
		}
		return boolValue(truthy(x.Y.Type(), b)), nil
	}
	b, err := e.eval(x.Y)
	if err != nil {
		return value{}, err
	}
	switch {
	case x.Op.IsComparison():
		return compare(x.Op, x.X.Type(), a, b), nil
	case x.Op == ir.Shl || x.Op == ir.Shr:
		return shift(x.Op, x.T, a, x.Y.Type(), b)
	}
	return arith(x.Op, x.T, a, b)
}

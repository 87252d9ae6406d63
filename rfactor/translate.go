package rfactor

import (
	"fmt"
	"math"
	"strconv"

	"nestor/assoc"
	"nestor/ir"
)

// The update as an assoc.Tuple, and assoc's expressions back as ir.

// assocTypes maps C's types to assoc's; long double has none.
var assocTypes = map[ir.Type]assoc.Type{
	ir.Bool: assoc.Bool, ir.Char: assoc.Int8, ir.UChar: assoc.Uint8, ir.Short: assoc.Int16,
	ir.UShort: assoc.Uint16, ir.Int: assoc.Int32, ir.UInt: assoc.Uint32, ir.Long: assoc.Int64,
	ir.ULong: assoc.Uint64, ir.Float: assoc.Float32, ir.Double: assoc.Float64,
}

// irTypes is the inverse of assocTypes.
var irTypes = func() map[assoc.Type]ir.Type {
	m := map[assoc.Type]ir.Type{}
	for k, v := range assocTypes {
		m[v] = k
	}
	return m
}()

// mathCalls are C's math functions assoc's language has (Op.Math), by
// their double and float names.
var mathCalls = map[string]assoc.Op{"exp": assoc.OpExp, "expf": assoc.OpExp, "log": assoc.OpLog, "logf": assoc.OpLog,
	"fabs": assoc.OpAbs, "fabsf": assoc.OpAbs}

// tupler translates a loop's update into assoc's language.
type tupler struct {
	l     *Loop
	p     *ir.Program
	names []string           // counters, for printing named values
	vars  map[string]ir.Expr // named value → its expression (Load indices as in Update)
	moves map[string]bool    // named values that change with the loop
}

// Tuple returns the loop's update as a tuple over x_i and named values,
// and the named values: their expressions and whether they are
// loop-invariant.
func (l *Loop) Tuple(p *ir.Program) (assoc.Tuple, map[string]ir.Expr, func(string) bool, error) {
	t := &tupler{l: l, p: p, vars: map[string]ir.Expr{}, moves: map[string]bool{}}
	t.names = p.Stmts[l.Stmts[0]].Iters
	var tp assoc.Tuple
	for _, e := range l.Update {
		a, err := t.value(e)
		if err != nil {
			return assoc.Tuple{}, nil, nil, err
		}
		tp.Elems = append(tp.Elems, a)
	}
	return tp, t.vars, func(name string) bool { _, ok := t.vars[name]; return ok && !t.moves[name] }, nil
}

// readsX reports whether e reads a reduction variable.
func (t *tupler) readsX(e ir.Expr) bool {
	found := false
	ir.Walk(e, func(x ir.Expr) bool {
		if ld, ok := x.(*ir.Load); ok && ld.Access < len(t.l.Vars) {
			found = true
		}
		return !found
	})
	return found
}

// named returns the named value of an expression that reads no x.
func (t *tupler) named(e ir.Expr) (*assoc.Expr, error) {
	at, ok := assocTypes[e.Type()]
	if !ok {
		return nil, fmt.Errorf("a value of type %s", e.Type())
	}
	if c, ok := e.(*ir.Const); ok {
		return constant(c, at), nil
	}
	if c, ok := e.(*ir.Cast); ok {
		// A conversion of a value, the value named in its own type (an
		// unsigned char input widened to int is i32(in) with in of type
		// uint8, as a table's operator on unsigned chars reads it).
		if _, known := assocTypes[c.X.Type()]; known {
			x, err := t.named(c.X)
			if err != nil {
				return nil, err
			}
			if x.Type == at {
				return x, nil
			}
			if x.Op == assoc.OpConst {
				// A converted literal is the literal of the type.
				if v, err := assoc.Eval(assoc.Cast(x, at), assoc.Env{}); err == nil {
					return assoc.Const(v, at), nil
				}
			}
			return assoc.Cast(x, at), nil
		}
	}
	if c, ok := e.(*ir.Call); ok && len(c.Args) == 1 && c.Args[0].Type() == c.T {
		// C's exp, log and fabs of a value are assoc's operations on
		// the value named (as the text parser reads them): a table's
		// log(exp(x) + exp(y)) meets log(exp(s) + exp(v[i])) with
		// y = v[i], and fabs(x) + fabs(y) meets fabs(s) + fabs(v[i]).
		if op, ok := mathCalls[c.Fn]; ok && at.Float() {
			x, err := t.named(c.Args[0])
			if err != nil {
				return nil, err
			}
			return assoc.Apply(op, x), nil
		}
	}
	n := len(t.l.Vars)
	moves := false
	load := func(x *ir.Load) string {
		acc := t.l.Accesses[x.Access-n]
		s := t.p.Arrays[acc.Array].Name
		for _, ix := range acc.Index {
			s += "[" + ir.FormatAff(ix, ir.Names{Iter: t.names, Param: ir.ParamNames(t.p)}) + "]"
			for k := t.l.Level; k < len(ix.Iter); k++ {
				moves = moves || ix.Iter[k] != 0
			}
		}
		// An array the loop writes is a reduction variable or a
		// temporary, never an input: inputs do not change.
		return s
	}
	iter := func(x *ir.IterRef) string {
		moves = moves || x.Level >= t.l.Level
		return t.names[x.Level]
	}
	name := ir.FormatExpr(e, load, iter, ir.ParamNames(t.p))
	if c, ok := e.(*ir.Cast); ok && c.Implicit {
		name = "(" + c.T.String() + ")" + name // printing leaves C's conversions out
	}
	if v, ok := t.vars[name]; ok && v.Type() != e.Type() {
		name += ":" + e.Type().String() // one name, one type
	}
	t.vars[name] = e
	t.moves[name] = t.moves[name] || moves
	return assoc.Var(name, at), nil
}

// value translates e as a value of its own type.
func (t *tupler) value(e ir.Expr) (*assoc.Expr, error) {
	if !t.readsX(e) {
		return t.named(e)
	}
	at, ok := assocTypes[e.Type()]
	if !ok {
		return nil, fmt.Errorf("a partial result of type %s", e.Type())
	}
	switch e := e.(type) {
	case *ir.Load:
		return assoc.X(e.Access, at), nil
	case *ir.Binary:
		if e.Op.IsComparison() || e.Op.IsLogical() {
			c, err := t.cond(e)
			if err != nil {
				return nil, err
			}
			return boolValue(c, at), nil
		}
		op, ok := map[ir.BinOp]assoc.Op{ir.Add: assoc.OpAdd, ir.Sub: assoc.OpSub, ir.Mul: assoc.OpMul,
			ir.Quo: assoc.OpDiv, ir.Rem: assoc.OpMod, ir.And: assoc.OpBitAnd, ir.Or: assoc.OpBitOr,
			ir.Xor: assoc.OpBitXor}[e.Op]
		if !ok {
			return nil, fmt.Errorf("operator %s on a partial result", e.Op)
		}
		x, err := t.value(e.X)
		if err != nil {
			return nil, err
		}
		y, err := t.value(e.Y)
		if err != nil {
			return nil, err
		}
		return assoc.Apply(op, x, y), nil
	case *ir.Unary:
		switch e.Op {
		case ir.Neg:
			x, err := t.value(e.X)
			if err != nil {
				return nil, err
			}
			return assoc.Apply(assoc.OpNeg, x), nil
		case ir.Not:
			c, err := t.cond(e)
			if err != nil {
				return nil, err
			}
			return boolValue(c, at), nil
		case ir.BitNot:
			x, err := t.value(e.X)
			if err != nil {
				return nil, err
			}
			return assoc.Apply(assoc.OpBitXor, x, assoc.Const(assoc.IntValue(-1, at), at)), nil
		}
	case *ir.Cond:
		c, err := t.cond(e.C)
		if err != nil {
			return nil, err
		}
		x, err := t.value(e.X)
		if err != nil {
			return nil, err
		}
		y, err := t.value(e.Y)
		if err != nil {
			return nil, err
		}
		return assoc.Apply(assoc.OpSelect, c, x, y), nil
	case *ir.Call:
		op, ok := map[string]assoc.Op{"fmin": assoc.OpMin, "fmax": assoc.OpMax, "fminf": assoc.OpMin, "fmaxf": assoc.OpMax}[e.Fn]
		if !ok {
			op, ok = mathCalls[e.Fn]
		}
		if !ok {
			return nil, fmt.Errorf("%s of a partial result", e.Fn)
		}
		var args []*assoc.Expr
		for _, a := range e.Args {
			x, err := t.value(a)
			if err != nil {
				return nil, err
			}
			args = append(args, x)
		}
		return assoc.Apply(op, args...), nil
	case *ir.Cast:
		// C's conversions, the implicit ones included: an unsigned char
		// accumulator's sum is computed in int and converted back.
		x, err := t.value(e.X)
		if err != nil {
			return nil, err
		}
		if x.Type == at {
			return x, nil
		}
		return assoc.Cast(x, at), nil
	}
	return nil, fmt.Errorf("expression %T on a partial result", e)
}

// cond translates e as a condition (true when C reads it as nonzero).
func (t *tupler) cond(e ir.Expr) (*assoc.Expr, error) {
	switch x := e.(type) {
	case *ir.Binary:
		if x.Op.IsLogical() {
			a, err := t.cond(x.X)
			if err != nil {
				return nil, err
			}
			b, err := t.cond(x.Y)
			if err != nil {
				return nil, err
			}
			op := assoc.OpAnd
			if x.Op == ir.LOr {
				op = assoc.OpOr
			}
			return assoc.Apply(op, a, b), nil
		}
		if x.Op.IsComparison() {
			a, err := t.value(x.X)
			if err != nil {
				return nil, err
			}
			b, err := t.value(x.Y)
			if err != nil {
				return nil, err
			}
			switch x.Op {
			case ir.Lt:
				return assoc.Apply(assoc.OpLT, a, b), nil
			case ir.Le:
				return assoc.Apply(assoc.OpLE, a, b), nil
			case ir.Gt:
				return assoc.Apply(assoc.OpLT, b, a), nil
			case ir.Ge:
				return assoc.Apply(assoc.OpLE, b, a), nil
			case ir.Eql:
				return assoc.Apply(assoc.OpEQ, a, b), nil
			}
			return assoc.Apply(assoc.OpNE, a, b), nil
		}
	case *ir.Unary:
		if x.Op == ir.Not {
			a, err := t.cond(x.X)
			if err != nil {
				return nil, err
			}
			return assoc.Apply(assoc.OpNot, a), nil
		}
	}
	v, err := t.value(e)
	if err != nil {
		return nil, err
	}
	if v.Type == assoc.Bool {
		return v, nil
	}
	return assoc.Apply(assoc.OpNE, v, zero(v.Type)), nil
}

// boolValue returns the int value (1 or 0) of condition c.
func boolValue(c *assoc.Expr, t assoc.Type) *assoc.Expr {
	return assoc.Apply(assoc.OpSelect, c, assoc.Const(assoc.IntValue(1, t), t), zero(t))
}

func zero(t assoc.Type) *assoc.Expr {
	if t.Float() {
		return assoc.Const(assoc.FloatValue(0, t), t)
	}
	return assoc.Const(0, t)
}

// constant returns c as a literal of type t.
func constant(c *ir.Const, t assoc.Type) *assoc.Expr {
	if t.Float() {
		return assoc.Const(assoc.FloatValue(c.Float, t), t)
	}
	return assoc.Const(assoc.IntValue(c.Int, t), t)
}

// irExpr translates an expression of an operator back into ir: x_i is a
// Load of index i, y_j of index n+j, a named value its expression with
// its input Loads moved by 2n (ir.Reduction's convention).
func irExpr(e *assoc.Expr, n int, vars map[string]ir.Expr) (ir.Expr, error) {
	t, ok := irTypes[e.Type]
	if !ok {
		return nil, fmt.Errorf("type %s", e.Type)
	}
	if e.Type == assoc.Bool {
		t = ir.Int // C's comparisons and logic give int
	}
	args := make([]ir.Expr, len(e.Args))
	for k, a := range e.Args {
		x, err := irExpr(a, n, vars)
		if err != nil {
			return nil, err
		}
		args[k] = x
	}
	switch e.Op {
	case assoc.OpX:
		return &ir.Load{T: t, Access: e.Index}, nil
	case assoc.OpY:
		return &ir.Load{T: t, Access: n + e.Index}, nil
	case assoc.OpVar:
		v, ok := vars[e.Name]
		if !ok {
			return nil, fmt.Errorf("unknown value %q", e.Name)
		}
		return substitute(v, func(x *ir.Load) ir.Expr { return &ir.Load{T: x.T, Access: x.Access + n} }), nil
	case assoc.OpConst:
		return literal(e.Value, e.Type), nil
	case assoc.OpK:
		return nil, fmt.Errorf("an unbound constant k")
	case assoc.OpNeg:
		return &ir.Unary{Op: ir.Neg, X: args[0], T: t}, nil
	case assoc.OpCast:
		if e.Type == assoc.Bool {
			return &ir.Binary{Op: ir.Neq, X: args[0], Y: literal(0, e.Args[0].Type), T: ir.Int}, nil
		}
		return &ir.Cast{T: t, X: args[0]}, nil
	case assoc.OpExp, assoc.OpLog, assoc.OpAbs:
		fn := map[assoc.Op]string{assoc.OpExp: "exp", assoc.OpLog: "log", assoc.OpAbs: "fabs"}[e.Op]
		if e.Type == assoc.Float32 {
			fn += "f"
		}
		return &ir.Call{Fn: fn, Args: args, T: t}, nil
	case assoc.OpNot:
		return &ir.Unary{Op: ir.Not, X: args[0], T: ir.Int}, nil
	case assoc.OpSelect:
		return &ir.Cond{C: args[0], X: args[1], Y: args[2], T: args[1].Type()}, nil
	case assoc.OpMin, assoc.OpMax:
		if e.Type.Float() {
			fn := map[assoc.Op]string{assoc.OpMin: "fmin", assoc.OpMax: "fmax"}[e.Op]
			if e.Type == assoc.Float32 {
				fn += "f"
			}
			return &ir.Call{Fn: fn, Args: args, T: t}, nil
		}
		op := ir.Lt
		if e.Op == assoc.OpMax {
			op = ir.Gt
		}
		return &ir.Cond{C: &ir.Binary{Op: op, X: args[0], Y: args[1], T: ir.Int}, X: args[0], Y: args[1], T: t}, nil
	}
	bin := map[assoc.Op]ir.BinOp{assoc.OpAdd: ir.Add, assoc.OpSub: ir.Sub, assoc.OpMul: ir.Mul, assoc.OpDiv: ir.Quo,
		assoc.OpMod: ir.Rem, assoc.OpLT: ir.Lt, assoc.OpLE: ir.Le, assoc.OpEQ: ir.Eql, assoc.OpNE: ir.Neq,
		assoc.OpAnd: ir.LAnd, assoc.OpOr: ir.LOr, assoc.OpBitAnd: ir.And, assoc.OpBitOr: ir.Or, assoc.OpBitXor: ir.Xor}
	if op, ok := bin[e.Op]; ok && len(args) == 2 {
		if e.Args[0].Type == assoc.Bool && (op == ir.And || op == ir.Or || op == ir.Xor) {
			t = ir.Int
		}
		return &ir.Binary{Op: op, X: args[0], Y: args[1], T: t}, nil
	}
	return nil, fmt.Errorf("operation %s", e.Op)
}

// literal returns v of type t as a C literal that denotes it exactly:
// hexadecimal floats, infinities and NaN by builtins, the most negative
// integers as a difference.
func literal(v assoc.Value, t assoc.Type) *ir.Const {
	it := irTypes[t]
	switch {
	case t == assoc.Bool:
		return &ir.Const{T: ir.Int, Int: int64(v)}
	case t.Float():
		f := v.Float(t)
		c := &ir.Const{T: it, Float: f}
		suffix := ""
		if t == assoc.Float32 {
			suffix = "f"
		}
		switch {
		case math.IsInf(f, 1):
			c.Text = "__builtin_inf" + suffix + "()"
		case math.IsInf(f, -1):
			c.Text = "(-__builtin_inf" + suffix + "())"
		case math.IsNaN(f):
			c.Text = "__builtin_nan" + suffix + "(\"\")"
		case math.Signbit(f):
			// The shortest decimal that reads back as f (C's strtod rounds
			// correctly), negated.
			c.Text = "(-" + ir.FormatConst(&ir.Const{T: it, Float: -f}) + ")"
		default:
			c.Text = ir.FormatConst(&ir.Const{T: it, Float: f})
		}
		return c
	}
	i := v.Int(t)
	c := &ir.Const{T: it, Int: i}
	suffix := map[ir.Type]string{ir.UInt: "u", ir.Long: "l", ir.ULong: "ul"}[it]
	switch {
	case t.Unsigned():
		c.Text = strconv.FormatUint(uint64(v), 10) + suffix
		if it != ir.UInt && it != ir.ULong {
			c.Text = strconv.FormatUint(uint64(v), 10)
		}
	case i == math.MinInt64 || t == assoc.Int32 && i == math.MinInt32:
		c.Text = fmt.Sprintf("(%d%s - 1)", i+1, suffix)
	case i < 0:
		c.Text = fmt.Sprintf("(%d%s)", i, suffix)
	default:
		c.Text = fmt.Sprintf("%d%s", i, suffix)
	}
	return c
}

package xls

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"nestor/outline"
)

// Eval checks p (see Check) and evaluates fn, a function of p or one that
// invokes only functions of p, on args.
func Eval(p *outline.Package, fn *outline.Function, args []Value) (Value, error) {
	e, err := NewEvaluator(p)
	if err != nil {
		return Value{}, err
	}
	return e.Call(fn, args)
}

// An Evaluator evaluates the functions of a package that it has checked
// once, so that it can run them many times.
type Evaluator struct {
	p        *outline.Package
	prepared map[*outline.Function]*program
	budget   int // nodes left to evaluate; unlimited when 0 at the start
	limited  bool
	// effects are what the last Call did besides returning its value:
	// assertions that failed, traces and covers that fired (see Effects).
	effects []string
}

// maxTripCount bounds the iterations of a dynamic_counted_for that the
// evaluator runs (counted_for's are in the text and checked by XLS).
const maxTripCount = 1 << 24

// Effects returns the side effects of the last Call, sorted: "assert
// MESSAGE" for each assert whose condition was false, "trace FORMAT:
// VALUES" for each trace whose condition was true, "cover LABEL" for each
// cover whose condition was true. XLS orders side effects only through
// tokens, so two evaluations agree when their sorted effects are equal.
func (e *Evaluator) Effects() []string {
	r := slices.Clone(e.effects)
	slices.Sort(r)
	return r
}

// NewEvaluator checks p and returns an evaluator of its functions.
func NewEvaluator(p *outline.Package) (*Evaluator, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	return &Evaluator{p: p, prepared: make(map[*outline.Function]*program)}, nil
}

// Call evaluates fn on args, whose types must be those of fn's
// parameters. fn is a function of the evaluator's package, or one that
// invokes only functions of it (it is then checked on its first call).
func (e *Evaluator) Call(fn *outline.Function, args []Value) (Value, error) {
	if fn == nil {
		return Value{}, fmt.Errorf("xls: Call of a nil function")
	}
	prog, err := e.prepare(fn)
	if err != nil {
		return Value{}, err
	}
	if len(args) != len(fn.Params) {
		return Value{}, fmt.Errorf("xls: function %s takes %d arguments, got %d", fn.Name, len(fn.Params), len(args))
	}
	for i, q := range fn.Params {
		if !args[i].typ.Equal(q.Type) {
			return Value{}, fmt.Errorf("xls: function %s: argument %d has type %s, want %s", fn.Name, i, typeString(args[i].typ), q.Type)
		}
	}
	e.effects = e.effects[:0]
	return e.run(prog, args)
}

// A program is a function prepared for evaluation: its nodes with their
// operands as indices into the values computed so far, and their
// attributes decoded.
type program struct {
	fn     *outline.Function
	steps  []step
	ret    int
	buf    []Value // the nodes' values, reused from call to call
	in     []Value // the operands of one node, likewise
	active bool    // a call of the program is running (buf is in use)
}

type step struct {
	n      *outline.Node
	fast   fastOp // set where the result is bits of at most 64 bits
	args   []int  // operand positions in the function's node list
	a, b   int    // integer attributes: start/width, index, new_bit_count, width
	flag   bool   // lsb_prio
	lay    selLayout
	lit    Value    // literal
	callee *program // invoke
}

func (e *Evaluator) prepare(fn *outline.Function) (*program, error) {
	if prog := e.prepared[fn]; prog != nil {
		return prog, nil
	}
	if e.p.Func(fn.Name) != fn {
		if err := checkFunc(fn, e.p.Func); err != nil {
			return nil, err
		}
	}
	index := make(map[*outline.Node]int, len(fn.Nodes))
	prog := &program{fn: fn, steps: make([]step, len(fn.Nodes))}
	for i, n := range fn.Nodes {
		index[n] = i
		s := &prog.steps[i]
		s.n = n
		s.args = make([]int, len(n.Operands))
		for j, o := range n.Operands {
			s.args[j] = index[o]
		}
		if n.Type.Kind == outline.Bits && n.Type.Width <= 64 {
			s.fast = fastOps[n.Op]
		}
		switch n.Op {
		case "bit_slice":
			s.a, _ = intAttr(n, "start")
			s.b, _ = intAttr(n, "width")
		case "dynamic_bit_slice", "decode", "array_slice":
			s.b, _ = intAttr(n, "width")
		case "tuple_index":
			s.a, _ = intAttr(n, "index")
		case "one_hot":
			s.flag, _ = boolAttr(n, "lsb_prio")
		case "sel", "one_hot_sel", "priority_sel":
			s.lay, _ = layoutOf(n.Op, len(n.Operands), n.Operands[0].Type.Width)
		case "literal":
			v, _ := n.Attr("value")
			s.lit, _ = ParseValue(n.Type, v)
		case "invoke", "map", "counted_for", "dynamic_counted_for":
			name := callees(n)[0]
			callee, err := e.prepare(e.p.Func(name))
			if err != nil {
				return nil, err
			}
			s.callee = callee
			if n.Op == "counted_for" {
				s.a, _ = intAttr(n, "trip_count")
				s.b = 1
				if v, ok := n.Attr("stride"); ok {
					s.b, _ = strconv.Atoi(v)
				}
			}
		}
	}
	prog.ret = index[fn.Ret]
	e.prepared[fn] = prog
	return prog, nil
}

func (e *Evaluator) run(prog *program, args []Value) (Value, error) {
	// The values of a program's nodes live in its buffer, except while
	// a call of it is active (then a call gets its own).
	vals, in := prog.buf, prog.in
	if prog.active || vals == nil {
		vals, in = make([]Value, len(prog.steps)), make([]Value, 0, 8)
	}
	if !prog.active {
		prog.active = true
		defer func() { prog.buf, prog.in, prog.active = vals, in, false }()
	}
	copy(vals, args)
	for i := len(args); i < len(prog.steps); i++ {
		if e.limited {
			if e.budget <= 0 {
				return Value{}, fmt.Errorf("xls: evaluation budget exhausted")
			}
			e.budget--
		}
		s := &prog.steps[i]
		in = in[:0]
		for _, j := range s.args {
			in = append(in, vals[j])
		}
		if s.fast != 0 {
			if v, ok := fastStep(s, in); ok {
				vals[i] = v
				continue
			}
		}
		v, err := e.step(s, in)
		if err != nil {
			return Value{}, err
		}
		vals[i] = v
	}
	return vals[prog.ret], nil
}

// A fastOp is an operation that fastStep computes on uint64 values.
type fastOp uint8

const (
	fastNone fastOp = iota
	fastAdd
	fastSub
	fastUmul
	fastNeg
	fastAnd
	fastNand
	fastOr
	fastNor
	fastXor
	fastNot
	fastEq
	fastNe
	fastUlt
	fastUle
	fastUgt
	fastUge
	fastShll
	fastShrl
)

var fastOps = map[string]fastOp{
	"add": fastAdd, "sub": fastSub, "umul": fastUmul, "neg": fastNeg,
	"and": fastAnd, "nand": fastNand, "or": fastOr, "nor": fastNor, "xor": fastXor, "not": fastNot,
	"eq": fastEq, "ne": fastNe, "ult": fastUlt, "ule": fastUle, "ugt": fastUgt, "uge": fastUge,
	"shll": fastShll, "shrl": fastShrl,
}

// fastStep computes step s, whose result is bits of at most 64 bits, on
// uint64 values, when its operands are bits values of at most 64 bits;
// ok is false otherwise (step computes it then). The results are those
// of step: arithmetic modulo 2^w, shifts by the width or more give 0.
func fastStep(s *step, in []Value) (v Value, ok bool) {
	var x [4]uint64
	if len(in) > len(x) && s.fast != fastAnd && s.fast != fastOr && s.fast != fastXor &&
		s.fast != fastNand && s.fast != fastNor {
		return Value{}, false
	}
	for i, a := range in {
		if a.typ.Kind != outline.Bits || a.typ.Width > 64 {
			return Value{}, false
		}
		if i < len(x) {
			if x[i], ok = a.small(); !ok {
				return Value{}, false
			}
		}
	}
	t := s.n.Type
	m := mask64(t.Width)
	var r uint64
	switch s.fast {
	case fastAdd:
		r = x[0] + x[1]
	case fastSub:
		r = x[0] - x[1]
	case fastUmul:
		r = x[0] * x[1]
	case fastNeg:
		r = -x[0]
	case fastNot:
		r = ^x[0]
	case fastAnd, fastNand, fastOr, fastNor, fastXor:
		r = x[0]
		for i := 1; i < len(in); i++ {
			y := x[min(i, len(x)-1)]
			if i >= len(x) {
				y, _ = in[i].small()
			}
			switch s.fast {
			case fastAnd, fastNand:
				r &= y
			case fastOr, fastNor:
				r |= y
			default:
				r ^= y
			}
		}
		if s.fast == fastNand || s.fast == fastNor {
			r = ^r
		}
	case fastEq, fastNe:
		if in[0].typ.Width != in[1].typ.Width {
			return Value{}, false
		}
		r = bitOf((x[0] == x[1]) == (s.fast == fastEq))
	case fastUlt:
		r = bitOf(x[0] < x[1])
	case fastUle:
		r = bitOf(x[0] <= x[1])
	case fastUgt:
		r = bitOf(x[0] > x[1])
	case fastUge:
		r = bitOf(x[0] >= x[1])
	case fastShll, fastShrl:
		if x[1] >= uint64(t.Width) {
			r = 0
		} else if s.fast == fastShll {
			r = x[0] << x[1]
		} else {
			r = x[0] >> x[1]
		}
	default:
		return Value{}, false
	}
	return Value{typ: t, u: r & m}, true
}

func bitOf(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// step computes one node from its operands' values, with XLS's semantics.
func (e *Evaluator) step(s *step, in []Value) (Value, error) {
	n, t := s.n, s.n.Type
	w := t.Width
	switch n.Op {
	case "add":
		return mkBits(w, new(big.Int).Add(in[0].int(), in[1].int())), nil
	case "sub":
		return mkBits(w, new(big.Int).Sub(in[0].int(), in[1].int())), nil
	case "neg":
		return mkBits(w, new(big.Int).Neg(in[0].int())), nil
	case "umul":
		return mkBits(w, new(big.Int).Mul(in[0].int(), in[1].int())), nil
	case "smul":
		return mkBits(w, new(big.Int).Mul(signed(in[0]), signed(in[1]))), nil
	case "umulp", "smulp":
		// XLS leaves the split of the product open; we give (product, 0).
		x, y := in[0].int(), in[1].int()
		if n.Op == "smulp" {
			x, y = signed(in[0]), signed(in[1])
		}
		pw := t.Elems[0].Width
		return Tuple(mkBits(pw, new(big.Int).Mul(x, y)), Zero(t.Elems[0])), nil
	case "udiv":
		if in[1].int().Sign() == 0 {
			return allOnes(t), nil
		}
		return mkBits(w, new(big.Int).Quo(in[0].int(), in[1].int())), nil
	case "sdiv":
		x, y := signed(in[0]), signed(in[1])
		if y.Sign() == 0 {
			if w == 0 {
				return Zero(t), nil
			}
			if x.Sign() >= 0 {
				return Value{typ: t, bits: mask(w - 1)}, nil // largest positive
			}
			return Value{typ: t, bits: new(big.Int).Lsh(bigOne, uint(w-1))}, nil // most negative
		}
		return mkBits(w, x.Quo(x, y)), nil
	case "umod":
		if in[1].int().Sign() == 0 {
			return Zero(t), nil
		}
		return mkBits(w, new(big.Int).Rem(in[0].int(), in[1].int())), nil
	case "smod":
		x, y := signed(in[0]), signed(in[1])
		if y.Sign() == 0 {
			return Zero(t), nil
		}
		return mkBits(w, x.Rem(x, y)), nil
	case "and", "nand":
		x := new(big.Int).Set(in[0].int())
		for _, v := range in[1:] {
			x.And(x, v.int())
		}
		if n.Op == "nand" {
			x.Xor(x, mask(w))
		}
		return mkBits(w, x), nil
	case "or", "nor", "xor":
		x := new(big.Int).Set(in[0].int())
		for _, v := range in[1:] {
			if n.Op == "xor" {
				x.Xor(x, v.int())
			} else {
				x.Or(x, v.int())
			}
		}
		if n.Op == "nor" {
			x.Xor(x, mask(w))
		}
		return mkBits(w, x), nil
	case "not":
		return mkBits(w, new(big.Int).Xor(in[0].int(), mask(w))), nil
	case "identity":
		return in[0], nil
	case "reverse":
		x, r := in[0].int(), new(big.Int)
		for i := range w {
			if x.Bit(i) == 1 {
				r.SetBit(r, w-1-i, 1)
			}
		}
		return mkBits(w, r), nil
	case "and_reduce":
		return boolValue(in[0].int().Cmp(mask(in[0].typ.Width)) == 0), nil
	case "or_reduce":
		return boolValue(in[0].int().Sign() != 0), nil
	case "xor_reduce":
		ones := 0
		for _, word := range in[0].int().Bits() {
			ones += bits.OnesCount(uint(word))
		}
		return boolValue(ones%2 == 1), nil
	case "eq":
		return boolValue(Equal(in[0], in[1])), nil
	case "ne":
		return boolValue(!Equal(in[0], in[1])), nil
	case "ult", "ule", "ugt", "uge":
		return compare(n.Op[1:], in[0].int().Cmp(in[1].int())), nil
	case "slt", "sle", "sgt", "sge":
		return compare(n.Op[1:], signed(in[0]).Cmp(signed(in[1]))), nil
	case "shll", "shrl", "shra":
		return shift(n.Op, in[0], in[1]), nil
	case "concat":
		x := new(big.Int)
		for _, v := range in {
			x.Lsh(x, uint(v.typ.Width))
			x.Or(x, v.int())
		}
		return mkBits(w, x), nil
	case "bit_slice":
		return mkBits(s.b, new(big.Int).Rsh(in[0].int(), uint(s.a))), nil
	case "dynamic_bit_slice":
		// Bits past the operand's end read as zero.
		start, ok := smallInt(in[1], in[0].typ.Width)
		if !ok {
			return Zero(t), nil
		}
		return mkBits(s.b, new(big.Int).Rsh(in[0].int(), uint(start))), nil
	case "bit_slice_update":
		// Update bits that fall past the operand's end are dropped.
		start, ok := smallInt(in[1], w)
		if !ok {
			return in[0], nil
		}
		m := new(big.Int).Lsh(mask(in[2].typ.Width), uint(start))
		x := new(big.Int).AndNot(in[0].int(), m)
		x.Or(x, new(big.Int).Lsh(in[2].int(), uint(start)))
		return mkBits(w, x), nil
	case "sign_ext":
		return mkBits(w, signed(in[0])), nil
	case "zero_ext":
		return mkBits(w, new(big.Int).Set(in[0].int())), nil
	case "encode":
		// The OR of the positions of the set bits.
		x, r := in[0].int(), 0
		for i := range x.BitLen() {
			if x.Bit(i) == 1 {
				r |= i
			}
		}
		return Uint(w, uint64(r)), nil
	case "decode":
		k, ok := smallInt(in[0], s.b)
		if !ok {
			return Zero(t), nil
		}
		return mkBits(w, new(big.Int).Lsh(bigOne, uint(k))), nil
	case "one_hot":
		x, ow := in[0].int(), in[0].typ.Width
		k := ow // no bit set: the extra top bit
		if x.Sign() != 0 {
			if s.flag {
				k = int(x.TrailingZeroBits())
			} else {
				k = x.BitLen() - 1
			}
		}
		return mkBits(w, new(big.Int).Lsh(bigOne, uint(k))), nil
	case "sel":
		k, ok := smallInt(in[0], s.lay.cases)
		if !ok {
			return in[1+s.lay.cases], nil
		}
		return in[1+k], nil
	case "one_hot_sel":
		r := Zero(t)
		for i := range s.lay.cases {
			if in[0].int().Bit(i) == 1 {
				r = orValues(r, in[1+i])
			}
		}
		return r, nil
	case "priority_sel":
		x := in[0].int()
		if x.Sign() != 0 {
			return in[1+int(x.TrailingZeroBits())], nil
		}
		if s.lay.hasDefault {
			return in[1+s.lay.cases], nil
		}
		return Zero(t), nil
	case "gate":
		if in[0].int().Sign() != 0 {
			return in[1], nil
		}
		return Zero(t), nil
	case "tuple":
		return Value{typ: t, elems: append([]Value(nil), in...)}, nil
	case "tuple_index":
		return in[0].elems[s.a], nil
	case "array":
		return Value{typ: t, elems: append([]Value(nil), in...)}, nil
	case "array_index":
		// Indices past the end are clamped to the last element.
		v := in[0]
		for _, ix := range in[1:] {
			v = v.elems[clamp(ix, len(v.elems))]
		}
		return v, nil
	case "array_update":
		return arrayUpdate(in[0], in[2:], in[1]), nil
	case "array_concat":
		var es []Value
		for _, v := range in {
			es = append(es, v.elems...)
		}
		return Value{typ: t, elems: es}, nil
	case "array_slice":
		a := in[0]
		start, ok := smallInt(in[1], len(a.elems))
		if !ok {
			start = len(a.elems) - 1
		}
		es := make([]Value, s.b)
		for i := range es {
			es[i] = a.elems[min(start+i, len(a.elems)-1)]
		}
		return Value{typ: t, elems: es}, nil
	case "literal":
		return s.lit, nil
	case "invoke":
		return e.run(s.callee, in)
	case "map":
		r := Value{typ: t, elems: make([]Value, len(in[0].elems))}
		for i, x := range in[0].elems {
			v, err := e.run(s.callee, []Value{x})
			if err != nil {
				return Value{}, err
			}
			r.elems[i] = v
		}
		return r, nil
	case "counted_for":
		return e.loop(s, in[0], s.a, big.NewInt(int64(s.b)), in[1:])
	case "dynamic_counted_for":
		trip := in[1].int()
		if !trip.IsInt64() || trip.Int64() > maxTripCount {
			return Value{}, fmt.Errorf("xls: dynamic_counted_for of %s iterations (more than %d)", trip, maxTripCount)
		}
		return e.loop(s, in[0], int(trip.Int64()), signed(in[2]), in[3:])
	case "after_all", "min_delay":
		return TokenValue(), nil
	case "assert":
		if in[1].int().Sign() == 0 {
			msg, _ := n.Attr("message")
			e.effects = append(e.effects, "assert "+msg)
		}
		return TokenValue(), nil
	case "trace":
		if in[1].int().Sign() != 0 {
			format, _ := n.Attr("format")
			e.effects = append(e.effects, "trace "+format+": "+formatArgs(in[2:]))
		}
		return TokenValue(), nil
	case "cover":
		if in[0].int().Sign() != 0 {
			label, _ := n.Attr("label")
			e.effects = append(e.effects, "cover "+label)
		}
		return Zero(t), nil
	}
	return Value{}, fmt.Errorf("xls: cannot evaluate %s", n.Op)
}

// loop runs a counted_for body trips times: the induction variable is
// i·stride (wrapping to its width), the accumulator starts at init, and
// the invariant arguments follow.
func (e *Evaluator) loop(s *step, init Value, trips int, stride *big.Int, inv []Value) (Value, error) {
	acc := init
	w := s.callee.fn.Params[0].Type.Width
	args := make([]Value, 2+len(inv))
	copy(args[2:], inv)
	for i := range trips {
		if e.limited {
			if e.budget <= 0 {
				return Value{}, fmt.Errorf("xls: evaluation budget exhausted")
			}
			e.budget--
		}
		args[0] = mkBits(w, new(big.Int).Mul(big.NewInt(int64(i)), stride))
		args[1] = acc
		v, err := e.run(s.callee, args)
		if err != nil {
			return Value{}, err
		}
		acc = v
	}
	return acc, nil
}

func boolValue(b bool) Value {
	if b {
		return Value{typ: outline.BitsType(1), bits: big.NewInt(1)}
	}
	return Value{typ: outline.BitsType(1)}
}

// compare turns a comparison result c (-1, 0, 1) into lt, le, gt or ge.
func compare(rel string, c int) Value {
	switch rel {
	case "lt":
		return boolValue(c < 0)
	case "le":
		return boolValue(c <= 0)
	case "gt":
		return boolValue(c > 0)
	}
	return boolValue(c >= 0)
}

// smallInt returns the unsigned value of v when it is less than limit.
func smallInt(v Value, limit int) (int, bool) {
	x := v.int()
	if !x.IsInt64() || x.Int64() >= int64(limit) {
		return 0, false
	}
	return int(x.Int64()), true
}

// clamp returns the value of index, or n-1 if it is not less than n.
func clamp(index Value, n int) int {
	if k, ok := smallInt(index, n); ok {
		return k
	}
	return n - 1
}

// shift shifts x by amount: shifting by the width or more gives zero, or
// copies of the sign bit for shra.
func shift(op string, x, amount Value) Value {
	w := x.typ.Width
	k, ok := smallInt(amount, w)
	switch {
	case !ok && op == "shra" && w > 0 && x.int().Bit(w-1) == 1:
		return allOnes(x.typ)
	case !ok:
		return Zero(x.typ)
	case op == "shll":
		return mkBits(w, new(big.Int).Lsh(x.int(), uint(k)))
	case op == "shrl":
		return mkBits(w, new(big.Int).Rsh(x.int(), uint(k)))
	}
	return mkBits(w, new(big.Int).Rsh(signed(x), uint(k))) // Rsh of a negative number rounds down
}

// orValues returns the bitwise or of two values of one type.
func orValues(a, b Value) Value {
	if a.typ.Kind == outline.Bits {
		return Value{typ: a.typ, bits: new(big.Int).Or(a.int(), b.int())}
	}
	r := Value{typ: a.typ, elems: make([]Value, len(a.elems))}
	for i := range a.elems {
		r.elems[i] = orValues(a.elems[i], b.elems[i])
	}
	return r
}

// arrayUpdate returns a with the element at indices replaced by v, or a
// itself when an index is out of bounds.
func arrayUpdate(a Value, indices []Value, v Value) Value {
	if len(indices) == 0 {
		return v
	}
	k, ok := smallInt(indices[0], len(a.elems))
	if !ok {
		return a
	}
	r := Value{typ: a.typ, elems: append([]Value(nil), a.elems...)}
	r.elems[k] = arrayUpdate(a.elems[k], indices[1:], v)
	return r
}

// EvalEqual reports whether f1 of p1 and f2 of p2 agree on n input
// vectors: all zeros, all ones, then random ones drawn by RandomValue
// from seed. Their parameter and return types must be equal. It returns
// nil, or an error that gives the first input on which they differ.
func EvalEqual(p1 *outline.Package, f1 *outline.Function, p2 *outline.Package, f2 *outline.Function, n int, seed int64) error {
	e1, err := NewEvaluator(p1)
	if err != nil {
		return err
	}
	e2, err := NewEvaluator(p2)
	if err != nil {
		return err
	}
	if f1 == nil || f2 == nil {
		return fmt.Errorf("xls: EvalEqual: nil function")
	}
	if len(f1.Params) != len(f2.Params) {
		return fmt.Errorf("xls: %s has %d parameters, %s has %d", f1.Name, len(f1.Params), f2.Name, len(f2.Params))
	}
	for i := range f1.Params {
		if !f1.Params[i].Type.Equal(f2.Params[i].Type) {
			return fmt.Errorf("xls: parameter %d has type %s in %s, %s in %s", i, typeString(f1.Params[i].Type), f1.Name, typeString(f2.Params[i].Type), f2.Name)
		}
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	args := make([]Value, len(f1.Params))
	for k := range n {
		for i, q := range f1.Params {
			switch k {
			case 0:
				args[i] = Zero(q.Type)
			case 1:
				args[i] = allOnes(q.Type)
			default:
				args[i] = RandomValue(q.Type, r)
			}
		}
		v1, err := e1.Call(f1, args)
		if err != nil {
			return err
		}
		fx1 := e1.Effects()
		v2, err := e2.Call(f2, args)
		if err != nil {
			return err
		}
		if !Equal(v1, v2) {
			return fmt.Errorf("xls: %s and %s differ on %s: %s:%s vs %s:%s", f1.Name, f2.Name, formatArgs(args), typeString(v1.typ), v1, typeString(v2.typ), v2)
		}
		if fx2 := e2.Effects(); !slices.Equal(fx1, fx2) {
			return fmt.Errorf("xls: %s and %s differ in side effects on %s: %q vs %q", f1.Name, f2.Name, formatArgs(args), fx1, fx2)
		}
	}
	return nil
}

func formatArgs(args []Value) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = a.typ.String() + ":" + a.String()
	}
	return "(" + strings.Join(s, ", ") + ")"
}

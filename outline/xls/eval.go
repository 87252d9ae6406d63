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

// A step is one node prepared for evaluation.
type step struct {
	n      *outline.Node
	eval   evalFunc // the operation's (opInfo.eval)
	fast   fastOp   // set where the result is bits of at most 64 bits
	args   []int    // operand positions in the function's node list
	a, b   int      // integer attributes: start/width, index, new_bit_count, width
	flag   bool     // lsb_prio
	lay    selLayout
	lit    Value    // literal
	callee *program // invoke, map, counted_for, dynamic_counted_for
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
		info := ops[n.Op]
		s.eval = info.eval
		if n.Type.Kind == outline.Bits && n.Type.Width <= 64 {
			s.fast = info.fast
		}
		if info.prep != nil {
			info.prep(s)
		}
		if names := callees(n); len(names) > 0 {
			callee, err := e.prepare(e.p.Func(names[0]))
			if err != nil {
				return nil, err
			}
			s.callee = callee
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
		v, err := s.eval(e, s, in)
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

// fastStep computes step s, whose result is bits of at most 64 bits, on
// uint64 values, when its operands are bits values of at most 64 bits;
// ok is false otherwise (s.eval computes it then). The results are those
// of s.eval: arithmetic modulo 2^w, shifts by the width or more give 0.
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

// The evaluation functions of opTable, one per operation or family, with
// XLS's semantics (see the package documentation); their operands have
// the types Check requires.

func evalAdd(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.n.Type.Width, new(big.Int).Add(in[0].int(), in[1].int())), nil
}

func evalSub(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.n.Type.Width, new(big.Int).Sub(in[0].int(), in[1].int())), nil
}

func evalNeg(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.n.Type.Width, new(big.Int).Neg(in[0].int())), nil
}

func evalUmul(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.n.Type.Width, new(big.Int).Mul(in[0].int(), in[1].int())), nil
}

func evalSmul(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.n.Type.Width, new(big.Int).Mul(signed(in[0]), signed(in[1]))), nil
}

// evalMulp returns the evaluation of umulp (or smulp when isSigned). XLS
// leaves the split of the product open; we give (product, 0).
func evalMulp(isSigned bool) evalFunc {
	return func(_ *Evaluator, s *step, in []Value) (Value, error) {
		x, y := in[0].int(), in[1].int()
		if isSigned {
			x, y = signed(in[0]), signed(in[1])
		}
		t := s.n.Type
		pw := t.Elems[0].Width
		return Tuple(mkBits(pw, new(big.Int).Mul(x, y)), Zero(t.Elems[0])), nil
	}
}

func evalUdiv(_ *Evaluator, s *step, in []Value) (Value, error) {
	if in[1].int().Sign() == 0 {
		return allOnes(s.n.Type), nil
	}
	return mkBits(s.n.Type.Width, new(big.Int).Quo(in[0].int(), in[1].int())), nil
}

func evalSdiv(_ *Evaluator, s *step, in []Value) (Value, error) {
	t := s.n.Type
	w := t.Width
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
}

func evalUmod(_ *Evaluator, s *step, in []Value) (Value, error) {
	if in[1].int().Sign() == 0 {
		return Zero(s.n.Type), nil
	}
	return mkBits(s.n.Type.Width, new(big.Int).Rem(in[0].int(), in[1].int())), nil
}

func evalSmod(_ *Evaluator, s *step, in []Value) (Value, error) {
	x, y := signed(in[0]), signed(in[1])
	if y.Sign() == 0 {
		return Zero(s.n.Type), nil
	}
	return mkBits(s.n.Type.Width, x.Rem(x, y)), nil
}

// Word operations of evalLogic: z = x op y.
func andWords(z, x, y *big.Int) *big.Int { return z.And(x, y) }
func orWords(z, x, y *big.Int) *big.Int  { return z.Or(x, y) }
func xorWords(z, x, y *big.Int) *big.Int { return z.Xor(x, y) }

// evalLogic returns the evaluation of a variadic bitwise operation that
// folds its operands with op and, when invert is set, complements the
// result (nand, nor).
func evalLogic(op func(z, x, y *big.Int) *big.Int, invert bool) evalFunc {
	return func(_ *Evaluator, s *step, in []Value) (Value, error) {
		w := s.n.Type.Width
		x := new(big.Int).Set(in[0].int())
		for _, v := range in[1:] {
			op(x, x, v.int())
		}
		if invert {
			x.Xor(x, mask(w))
		}
		return mkBits(w, x), nil
	}
}

func evalNot(_ *Evaluator, s *step, in []Value) (Value, error) {
	w := s.n.Type.Width
	return mkBits(w, new(big.Int).Xor(in[0].int(), mask(w))), nil
}

func evalIdentity(_ *Evaluator, _ *step, in []Value) (Value, error) { return in[0], nil }

func evalReverse(_ *Evaluator, s *step, in []Value) (Value, error) {
	w := s.n.Type.Width
	x, r := in[0].int(), new(big.Int)
	for i := range w {
		if x.Bit(i) == 1 {
			r.SetBit(r, w-1-i, 1)
		}
	}
	return mkBits(w, r), nil
}

func evalAndReduce(_ *Evaluator, _ *step, in []Value) (Value, error) {
	return boolValue(in[0].int().Cmp(mask(in[0].typ.Width)) == 0), nil
}

func evalOrReduce(_ *Evaluator, _ *step, in []Value) (Value, error) {
	return boolValue(in[0].int().Sign() != 0), nil
}

func evalXorReduce(_ *Evaluator, _ *step, in []Value) (Value, error) {
	ones := 0
	for _, word := range in[0].int().Bits() {
		ones += bits.OnesCount(uint(word))
	}
	return boolValue(ones%2 == 1), nil
}

func evalEq(_ *Evaluator, _ *step, in []Value) (Value, error) {
	return boolValue(Equal(in[0], in[1])), nil
}

func evalNe(_ *Evaluator, _ *step, in []Value) (Value, error) {
	return boolValue(!Equal(in[0], in[1])), nil
}

// Relations of evalCompare on a comparison result c (-1, 0, 1).
func lt(c int) bool { return c < 0 }
func le(c int) bool { return c <= 0 }
func gt(c int) bool { return c > 0 }
func ge(c int) bool { return c >= 0 }

// evalCompare returns the evaluation of the comparison rel of its two
// operands, read as two's complement numbers when isSigned.
func evalCompare(isSigned bool, rel func(c int) bool) evalFunc {
	if isSigned {
		return func(_ *Evaluator, _ *step, in []Value) (Value, error) {
			return boolValue(rel(signed(in[0]).Cmp(signed(in[1])))), nil
		}
	}
	return func(_ *Evaluator, _ *step, in []Value) (Value, error) {
		return boolValue(rel(in[0].int().Cmp(in[1].int()))), nil
	}
}

// Shifts by the width or more give zero, or copies of the sign bit for
// shra.

func evalShll(_ *Evaluator, _ *step, in []Value) (Value, error) {
	x := in[0]
	k, ok := smallInt(in[1], x.typ.Width)
	if !ok {
		return Zero(x.typ), nil
	}
	return mkBits(x.typ.Width, new(big.Int).Lsh(x.int(), uint(k))), nil
}

func evalShrl(_ *Evaluator, _ *step, in []Value) (Value, error) {
	x := in[0]
	k, ok := smallInt(in[1], x.typ.Width)
	if !ok {
		return Zero(x.typ), nil
	}
	return mkBits(x.typ.Width, new(big.Int).Rsh(x.int(), uint(k))), nil
}

func evalShra(_ *Evaluator, _ *step, in []Value) (Value, error) {
	x := in[0]
	w := x.typ.Width
	k, ok := smallInt(in[1], w)
	switch {
	case !ok && w > 0 && x.int().Bit(w-1) == 1:
		return allOnes(x.typ), nil
	case !ok:
		return Zero(x.typ), nil
	}
	return mkBits(w, new(big.Int).Rsh(signed(x), uint(k))), nil // Rsh of a negative number rounds down
}

func evalConcat(_ *Evaluator, s *step, in []Value) (Value, error) {
	x := new(big.Int)
	for _, v := range in {
		x.Lsh(x, uint(v.typ.Width))
		x.Or(x, v.int())
	}
	return mkBits(s.n.Type.Width, x), nil
}

// prepBitSlice decodes bit_slice's start and width into a and b.
func prepBitSlice(s *step) {
	s.a, _ = intAttr(s.n, "start")
	s.b, _ = intAttr(s.n, "width")
}

// prepWidth decodes the width attribute into b.
func prepWidth(s *step) { s.b, _ = intAttr(s.n, "width") }

func evalBitSlice(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.b, new(big.Int).Rsh(in[0].int(), uint(s.a))), nil
}

// evalDynamicBitSlice: bits past the operand's end read as zero.
func evalDynamicBitSlice(_ *Evaluator, s *step, in []Value) (Value, error) {
	start, ok := smallInt(in[1], in[0].typ.Width)
	if !ok {
		return Zero(s.n.Type), nil
	}
	return mkBits(s.b, new(big.Int).Rsh(in[0].int(), uint(start))), nil
}

// evalBitSliceUpdate: update bits that fall past the operand's end are
// dropped.
func evalBitSliceUpdate(_ *Evaluator, s *step, in []Value) (Value, error) {
	w := s.n.Type.Width
	start, ok := smallInt(in[1], w)
	if !ok {
		return in[0], nil
	}
	m := new(big.Int).Lsh(mask(in[2].typ.Width), uint(start))
	x := new(big.Int).AndNot(in[0].int(), m)
	x.Or(x, new(big.Int).Lsh(in[2].int(), uint(start)))
	return mkBits(w, x), nil
}

func evalSignExt(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.n.Type.Width, signed(in[0])), nil
}

func evalZeroExt(_ *Evaluator, s *step, in []Value) (Value, error) {
	return mkBits(s.n.Type.Width, new(big.Int).Set(in[0].int())), nil
}

// evalEncode: the OR of the positions of the set bits.
func evalEncode(_ *Evaluator, s *step, in []Value) (Value, error) {
	x, r := in[0].int(), 0
	for i := range x.BitLen() {
		if x.Bit(i) == 1 {
			r |= i
		}
	}
	return Uint(s.n.Type.Width, uint64(r)), nil
}

func evalDecode(_ *Evaluator, s *step, in []Value) (Value, error) {
	k, ok := smallInt(in[0], s.b)
	if !ok {
		return Zero(s.n.Type), nil
	}
	return mkBits(s.n.Type.Width, new(big.Int).Lsh(bigOne, uint(k))), nil
}

// prepOneHot decodes lsb_prio into flag.
func prepOneHot(s *step) { s.flag, _ = boolAttr(s.n, "lsb_prio") }

func evalOneHot(_ *Evaluator, s *step, in []Value) (Value, error) {
	x, ow := in[0].int(), in[0].typ.Width
	k := ow // no bit set: the extra top bit
	if x.Sign() != 0 {
		if s.flag {
			k = int(x.TrailingZeroBits())
		} else {
			k = x.BitLen() - 1
		}
	}
	return mkBits(s.n.Type.Width, new(big.Int).Lsh(bigOne, uint(k))), nil
}

// prepSelect decodes the layout of a select's operands into lay.
func prepSelect(s *step) {
	s.lay, _ = layoutOf(s.n.Op, len(s.n.Operands), s.n.Operands[0].Type.Width)
}

func evalSel(_ *Evaluator, s *step, in []Value) (Value, error) {
	k, ok := smallInt(in[0], s.lay.cases)
	if !ok {
		return in[1+s.lay.cases], nil
	}
	return in[1+k], nil
}

func evalOneHotSel(_ *Evaluator, s *step, in []Value) (Value, error) {
	r := Zero(s.n.Type)
	for i := range s.lay.cases {
		if in[0].int().Bit(i) == 1 {
			r = orValues(r, in[1+i])
		}
	}
	return r, nil
}

func evalPrioritySel(_ *Evaluator, s *step, in []Value) (Value, error) {
	x := in[0].int()
	if x.Sign() != 0 {
		return in[1+int(x.TrailingZeroBits())], nil
	}
	if s.lay.hasDefault {
		return in[1+s.lay.cases], nil
	}
	return Zero(s.n.Type), nil
}

func evalGate(_ *Evaluator, s *step, in []Value) (Value, error) {
	if in[0].int().Sign() != 0 {
		return in[1], nil
	}
	return Zero(s.n.Type), nil
}

// evalAggregate builds a tuple or an array of its operands.
func evalAggregate(_ *Evaluator, s *step, in []Value) (Value, error) {
	return Value{typ: s.n.Type, elems: append([]Value(nil), in...)}, nil
}

// prepTupleIndex decodes the index into a.
func prepTupleIndex(s *step) { s.a, _ = intAttr(s.n, "index") }

func evalTupleIndex(_ *Evaluator, s *step, in []Value) (Value, error) {
	return in[0].elems[s.a], nil
}

// evalArrayIndex: indices past the end are clamped to the last element.
func evalArrayIndex(_ *Evaluator, _ *step, in []Value) (Value, error) {
	v := in[0]
	for _, ix := range in[1:] {
		v = v.elems[clamp(ix, len(v.elems))]
	}
	return v, nil
}

func evalArrayUpdate(_ *Evaluator, _ *step, in []Value) (Value, error) {
	return arrayUpdate(in[0], in[2:], in[1]), nil
}

func evalArrayConcat(_ *Evaluator, s *step, in []Value) (Value, error) {
	var es []Value
	for _, v := range in {
		es = append(es, v.elems...)
	}
	return Value{typ: s.n.Type, elems: es}, nil
}

// evalArraySlice: elements past the end read as the last one.
func evalArraySlice(_ *Evaluator, s *step, in []Value) (Value, error) {
	a := in[0]
	start, ok := smallInt(in[1], len(a.elems))
	if !ok {
		start = len(a.elems) - 1
	}
	es := make([]Value, s.b)
	for i := range es {
		es[i] = a.elems[min(start+i, len(a.elems)-1)]
	}
	return Value{typ: s.n.Type, elems: es}, nil
}

// prepLiteral decodes the value into lit.
func prepLiteral(s *step) {
	v, _ := s.n.Attr("value")
	s.lit, _ = ParseValue(s.n.Type, v)
}

func evalLiteral(_ *Evaluator, s *step, _ []Value) (Value, error) { return s.lit, nil }

func evalInvoke(e *Evaluator, s *step, in []Value) (Value, error) { return e.run(s.callee, in) }

func evalMap(e *Evaluator, s *step, in []Value) (Value, error) {
	r := Value{typ: s.n.Type, elems: make([]Value, len(in[0].elems))}
	for i, x := range in[0].elems {
		v, err := e.run(s.callee, []Value{x})
		if err != nil {
			return Value{}, err
		}
		r.elems[i] = v
	}
	return r, nil
}

// prepCountedFor decodes trip_count into a and stride (1 by default)
// into b.
func prepCountedFor(s *step) {
	s.a, _ = intAttr(s.n, "trip_count")
	s.b = 1
	if v, ok := s.n.Attr("stride"); ok {
		s.b, _ = strconv.Atoi(v)
	}
}

func evalCountedFor(e *Evaluator, s *step, in []Value) (Value, error) {
	return e.loop(s, in[0], s.a, big.NewInt(int64(s.b)), in[1:])
}

func evalDynamicCountedFor(e *Evaluator, s *step, in []Value) (Value, error) {
	trip := in[1].int()
	if !trip.IsInt64() || trip.Int64() > maxTripCount {
		return Value{}, fmt.Errorf("xls: dynamic_counted_for of %s iterations (more than %d)", trip, maxTripCount)
	}
	return e.loop(s, in[0], int(trip.Int64()), signed(in[2]), in[3:])
}

// evalToken gives a token (after_all, min_delay).
func evalToken(_ *Evaluator, _ *step, _ []Value) (Value, error) { return TokenValue(), nil }

func evalAssert(e *Evaluator, s *step, in []Value) (Value, error) {
	if in[1].int().Sign() == 0 {
		msg, _ := s.n.Attr("message")
		e.effects = append(e.effects, "assert "+msg)
	}
	return TokenValue(), nil
}

func evalTrace(e *Evaluator, s *step, in []Value) (Value, error) {
	if in[1].int().Sign() != 0 {
		format, _ := s.n.Attr("format")
		e.effects = append(e.effects, "trace "+format+": "+formatArgs(in[2:]))
	}
	return TokenValue(), nil
}

func evalCover(e *Evaluator, s *step, in []Value) (Value, error) {
	if in[0].int().Sign() != 0 {
		label, _ := s.n.Attr("label")
		e.effects = append(e.effects, "cover "+label)
	}
	return Zero(s.n.Type), nil
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

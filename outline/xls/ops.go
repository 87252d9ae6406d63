package xls

import "nestor/outline"

// An opInfo describes one XLS operation: how it is written (positional
// operands and keyword arguments), its type rule and its evaluation. The
// reader, Check, the writer and the evaluator all read it from ops, and
// only from there: an operation is supported exactly when it has an
// entry in opTable.
type opInfo struct {
	name     string
	operands int      // positional operands, or variadic
	keys     []string // keyword arguments besides id and pos, in the order written
	optional []string // the keys that may be left out

	// check is the type rule: it verifies the operands' types, the
	// attributes' values and the node's type (see checker). nil only for
	// param, which is a parameter and never a node of its own.
	check func(checker) error
	// prep decodes the attributes that eval reads into the step (nil
	// when eval reads none); Check has accepted them.
	prep func(*step)
	// eval computes the node from its operands' values (nil for param).
	eval evalFunc
	// fast, when set, is how fastStep computes the node on uint64 values.
	fast fastOp
}

// An evalFunc computes step s from the values of its operands, with XLS's
// semantics; Check has accepted the node.
type evalFunc func(e *Evaluator, s *step, in []Value) (Value, error)

const variadic = -1

// opTable is the supported subset of XLS's operations, one entry per
// operation; the type rules are in check.go, the evaluation functions in
// eval.go.
var opTable = []opInfo{
	// Arithmetic and comparisons of bits.
	{name: "add", operands: 2, check: checker.sameBits, eval: evalAdd, fast: fastAdd},
	{name: "sub", operands: 2, check: checker.sameBits, eval: evalSub, fast: fastSub},
	{name: "neg", operands: 1, check: checker.sameBits, eval: evalNeg, fast: fastNeg},
	{name: "umul", operands: 2, check: checker.mul, eval: evalUmul, fast: fastUmul},
	{name: "smul", operands: 2, check: checker.mul, eval: evalSmul},
	{name: "umulp", operands: 2, check: checker.mulp, eval: evalMulp(false)},
	{name: "smulp", operands: 2, check: checker.mulp, eval: evalMulp(true)},
	{name: "udiv", operands: 2, check: checker.sameBits, eval: evalUdiv},
	{name: "sdiv", operands: 2, check: checker.sameBits, eval: evalSdiv},
	{name: "umod", operands: 2, check: checker.sameBits, eval: evalUmod},
	{name: "smod", operands: 2, check: checker.sameBits, eval: evalSmod},
	{name: "eq", operands: 2, check: checker.equality, eval: evalEq, fast: fastEq},
	{name: "ne", operands: 2, check: checker.equality, eval: evalNe, fast: fastNe},
	{name: "ult", operands: 2, check: checker.compare, eval: evalCompare(false, lt), fast: fastUlt},
	{name: "ule", operands: 2, check: checker.compare, eval: evalCompare(false, le), fast: fastUle},
	{name: "ugt", operands: 2, check: checker.compare, eval: evalCompare(false, gt), fast: fastUgt},
	{name: "uge", operands: 2, check: checker.compare, eval: evalCompare(false, ge), fast: fastUge},
	{name: "slt", operands: 2, check: checker.compare, eval: evalCompare(true, lt)},
	{name: "sle", operands: 2, check: checker.compare, eval: evalCompare(true, le)},
	{name: "sgt", operands: 2, check: checker.compare, eval: evalCompare(true, gt)},
	{name: "sge", operands: 2, check: checker.compare, eval: evalCompare(true, ge)},
	{name: "shll", operands: 2, check: checker.shift, eval: evalShll, fast: fastShll},
	{name: "shrl", operands: 2, check: checker.shift, eval: evalShrl, fast: fastShrl},
	{name: "shra", operands: 2, check: checker.shift, eval: evalShra},

	// Bitwise logic.
	{name: "and", operands: variadic, check: checker.nary, eval: evalLogic(andWords, false), fast: fastAnd},
	{name: "or", operands: variadic, check: checker.nary, eval: evalLogic(orWords, false), fast: fastOr},
	{name: "xor", operands: variadic, check: checker.nary, eval: evalLogic(xorWords, false), fast: fastXor},
	{name: "nand", operands: variadic, check: checker.nary, eval: evalLogic(andWords, true), fast: fastNand},
	{name: "nor", operands: variadic, check: checker.nary, eval: evalLogic(orWords, true), fast: fastNor},
	{name: "not", operands: 1, check: checker.sameBits, eval: evalNot, fast: fastNot},
	{name: "identity", operands: 1, check: checker.identity, eval: evalIdentity},
	{name: "reverse", operands: 1, check: checker.sameBits, eval: evalReverse},
	{name: "and_reduce", operands: 1, check: checker.reduce, eval: evalAndReduce},
	{name: "or_reduce", operands: 1, check: checker.reduce, eval: evalOrReduce},
	{name: "xor_reduce", operands: 1, check: checker.reduce, eval: evalXorReduce},

	// Bit fields.
	{name: "bit_slice", operands: 1, keys: []string{"start", "width"}, check: checker.bitSlice, prep: prepBitSlice, eval: evalBitSlice},
	{name: "dynamic_bit_slice", operands: 2, keys: []string{"width"}, check: checker.dynamicBitSlice, prep: prepWidth, eval: evalDynamicBitSlice},
	{name: "bit_slice_update", operands: 3, check: checker.bitSliceUpdate, eval: evalBitSliceUpdate},
	{name: "concat", operands: variadic, check: checker.concat, eval: evalConcat},
	{name: "sign_ext", operands: 1, keys: []string{"new_bit_count"}, check: checker.extend, eval: evalSignExt},
	{name: "zero_ext", operands: 1, keys: []string{"new_bit_count"}, check: checker.extend, eval: evalZeroExt},
	{name: "encode", operands: 1, check: checker.encode, eval: evalEncode},
	{name: "decode", operands: 1, keys: []string{"width"}, check: checker.decode, prep: prepWidth, eval: evalDecode},
	{name: "one_hot", operands: 1, keys: []string{"lsb_prio"}, check: checker.oneHot, prep: prepOneHot, eval: evalOneHot},

	// Selection; the cases and default follow the selector in Operands.
	{name: "sel", operands: 1, keys: []string{"cases", "default"}, optional: []string{"default"}, check: checker.selector, prep: prepSelect, eval: evalSel},
	{name: "one_hot_sel", operands: 1, keys: []string{"cases"}, check: checker.selector, prep: prepSelect, eval: evalOneHotSel},
	{name: "priority_sel", operands: 1, keys: []string{"cases", "default"}, optional: []string{"default"}, check: checker.selector, prep: prepSelect, eval: evalPrioritySel},
	{name: "gate", operands: 2, check: checker.gate, eval: evalGate},

	// Tuples and arrays; array indices follow the positional operands.
	{name: "tuple", operands: variadic, check: checker.tuple, eval: evalAggregate},
	{name: "tuple_index", operands: 1, keys: []string{"index"}, check: checker.tupleIndex, prep: prepTupleIndex, eval: evalTupleIndex},
	{name: "array", operands: variadic, check: checker.array, eval: evalAggregate},
	{name: "array_index", operands: 1, keys: []string{"indices", "assumed_in_bounds"}, optional: []string{"assumed_in_bounds"}, check: checker.arrayIndex, eval: evalArrayIndex},
	{name: "array_update", operands: 2, keys: []string{"indices", "assumed_in_bounds"}, optional: []string{"assumed_in_bounds"}, check: checker.arrayUpdate, eval: evalArrayUpdate},
	{name: "array_concat", operands: variadic, check: checker.arrayConcat, eval: evalArrayConcat},
	{name: "array_slice", operands: 2, keys: []string{"width"}, check: checker.arraySlice, prep: prepWidth, eval: evalArraySlice},

	// Leaves and calls.
	{name: "literal", operands: 0, keys: []string{"value"}, check: checker.literal, prep: prepLiteral, eval: evalLiteral},
	{name: "param", operands: 0, keys: []string{"name"}},
	{name: "invoke", operands: variadic, keys: []string{"to_apply"}, check: checker.invoke, eval: evalInvoke},

	// Loops over functions; invariant arguments follow the positional
	// operands.
	{name: "counted_for", operands: 1, keys: []string{"trip_count", "stride", "body", "invariant_args"}, optional: []string{"stride", "invariant_args"}, check: checker.countedFor, prep: prepCountedFor, eval: evalCountedFor},
	{name: "dynamic_counted_for", operands: 3, keys: []string{"body", "invariant_args"}, optional: []string{"invariant_args"}, check: checker.dynamicCountedFor, eval: evalDynamicCountedFor},
	{name: "map", operands: 1, keys: []string{"to_apply"}, check: checker.mapOf, eval: evalMap},

	// Side effects and tokens; trace's data operands follow the token
	// and the condition.
	{name: "after_all", operands: variadic, check: checker.afterAll, eval: evalToken},
	{name: "min_delay", operands: 1, keys: []string{"delay"}, check: checker.minDelay, eval: evalToken},
	{name: "assert", operands: 2, keys: []string{"message", "label"}, optional: []string{"label"}, check: checker.effect, eval: evalAssert},
	{name: "trace", operands: 2, keys: []string{"format", "data_operands", "verbosity"}, optional: []string{"verbosity"}, check: checker.effect, eval: evalTrace},
	{name: "cover", operands: 1, keys: []string{"label"}, check: checker.cover, eval: evalCover},
}

// ops indexes opTable by name.
var ops = func() map[string]*opInfo {
	m := make(map[string]*opInfo, len(opTable))
	for i := range opTable {
		m[opTable[i].name] = &opTable[i]
	}
	return m
}()

// listKeys are the keyword arguments that list operands after the
// positional ones (cases= is laid out with default=, see layoutOf).
var listKeys = map[string]bool{"indices": true, "data_operands": true, "invariant_args": true}

// attrKeys are the keyword arguments kept in Node.Attrs; the other
// keywords (cases, default, indices) name operands, and id, pos and a
// param's name are kept elsewhere or dropped.
var attrKeys = map[string]bool{
	"start": true, "width": true, "new_bit_count": true, "index": true,
	"lsb_prio": true, "assumed_in_bounds": true, "to_apply": true, "value": true,
	"trip_count": true, "stride": true, "body": true, "delay": true,
	"message": true, "label": true, "format": true, "verbosity": true,
}

// calleeKeys are the attributes that name a function of the package.
var calleeKeys = []string{"to_apply", "body"}

// callees returns the names of the functions n calls.
func callees(n *outline.Node) []string {
	var names []string
	for _, k := range calleeKeys {
		if v, ok := n.Attr(k); ok {
			names = append(names, v)
		}
	}
	return names
}

// isOptional reports whether key may be left out of an op's arguments.
func (o *opInfo) isOptional(key string) bool {
	for _, k := range o.optional {
		if k == key {
			return true
		}
	}
	return false
}

// takes reports whether the op takes the keyword argument key.
func (o *opInfo) takes(key string) bool {
	for _, k := range o.keys {
		if k == key {
			return true
		}
	}
	return false
}

// hasList reports whether the op lists operands after its positional
// ones under a keyword (listKeys).
func (o *opInfo) hasList() bool {
	for _, k := range o.keys {
		if listKeys[k] {
			return true
		}
	}
	return false
}

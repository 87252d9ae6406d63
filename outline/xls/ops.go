package xls

import "nestor/outline"

// An opInfo says how an operation is written: how many positional
// operands it takes and which keyword arguments.
type opInfo struct {
	operands int      // positional operands, or variadic
	keys     []string // keyword arguments besides id and pos, in the order written
	optional []string // the keys that may be left out
}

const variadic = -1

// ops is the supported subset of XLS's operations. The reader, Check, the
// writer and the evaluator all read it.
var ops = map[string]opInfo{
	// Arithmetic and comparisons of bits.
	"add": {operands: 2}, "sub": {operands: 2}, "neg": {operands: 1},
	"umul": {operands: 2}, "smul": {operands: 2},
	"umulp": {operands: 2}, "smulp": {operands: 2},
	"udiv": {operands: 2}, "sdiv": {operands: 2},
	"umod": {operands: 2}, "smod": {operands: 2},
	"eq": {operands: 2}, "ne": {operands: 2},
	"ult": {operands: 2}, "ule": {operands: 2}, "ugt": {operands: 2}, "uge": {operands: 2},
	"slt": {operands: 2}, "sle": {operands: 2}, "sgt": {operands: 2}, "sge": {operands: 2},
	"shll": {operands: 2}, "shrl": {operands: 2}, "shra": {operands: 2},

	// Bitwise logic.
	"and": {operands: variadic}, "or": {operands: variadic}, "xor": {operands: variadic},
	"nand": {operands: variadic}, "nor": {operands: variadic},
	"not": {operands: 1}, "identity": {operands: 1}, "reverse": {operands: 1},
	"and_reduce": {operands: 1}, "or_reduce": {operands: 1}, "xor_reduce": {operands: 1},

	// Bit fields.
	"bit_slice":         {operands: 1, keys: []string{"start", "width"}},
	"dynamic_bit_slice": {operands: 2, keys: []string{"width"}},
	"bit_slice_update":  {operands: 3},
	"concat":            {operands: variadic},
	"sign_ext":          {operands: 1, keys: []string{"new_bit_count"}},
	"zero_ext":          {operands: 1, keys: []string{"new_bit_count"}},
	"encode":            {operands: 1},
	"decode":            {operands: 1, keys: []string{"width"}},
	"one_hot":           {operands: 1, keys: []string{"lsb_prio"}},

	// Selection; the cases and default follow the selector in Operands.
	"sel":          {operands: 1, keys: []string{"cases", "default"}, optional: []string{"default"}},
	"one_hot_sel":  {operands: 1, keys: []string{"cases"}},
	"priority_sel": {operands: 1, keys: []string{"cases", "default"}, optional: []string{"default"}},
	"gate":         {operands: 2},

	// Tuples and arrays; array indices follow the positional operands.
	"tuple":        {operands: variadic},
	"tuple_index":  {operands: 1, keys: []string{"index"}},
	"array":        {operands: variadic},
	"array_index":  {operands: 1, keys: []string{"indices", "assumed_in_bounds"}, optional: []string{"assumed_in_bounds"}},
	"array_update": {operands: 2, keys: []string{"indices", "assumed_in_bounds"}, optional: []string{"assumed_in_bounds"}},
	"array_concat": {operands: variadic},
	"array_slice":  {operands: 2, keys: []string{"width"}},

	// Leaves and calls.
	"literal": {operands: 0, keys: []string{"value"}},
	"param":   {operands: 0, keys: []string{"name"}},
	"invoke":  {operands: variadic, keys: []string{"to_apply"}},

	// Loops over functions; invariant arguments follow the positional
	// operands.
	"counted_for":         {operands: 1, keys: []string{"trip_count", "stride", "body", "invariant_args"}, optional: []string{"stride", "invariant_args"}},
	"dynamic_counted_for": {operands: 3, keys: []string{"body", "invariant_args"}, optional: []string{"invariant_args"}},
	"map":                 {operands: 1, keys: []string{"to_apply"}},

	// Side effects and tokens; trace's data operands follow the token
	// and the condition.
	"after_all": {operands: variadic},
	"min_delay": {operands: 1, keys: []string{"delay"}},
	"assert":    {operands: 2, keys: []string{"message", "label"}, optional: []string{"label"}},
	"trace":     {operands: 2, keys: []string{"format", "data_operands", "verbosity"}, optional: []string{"verbosity"}},
	"cover":     {operands: 1, keys: []string{"label"}},
}

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
func (o opInfo) isOptional(key string) bool {
	for _, k := range o.optional {
		if k == key {
			return true
		}
	}
	return false
}

// takes reports whether the op takes the keyword argument key.
func (o opInfo) takes(key string) bool {
	for _, k := range o.keys {
		if k == key {
			return true
		}
	}
	return false
}

// hasList reports whether the op lists operands after its positional
// ones under a keyword (listKeys).
func (o opInfo) hasList() bool {
	for _, k := range o.keys {
		if listKeys[k] {
			return true
		}
	}
	return false
}

package assoc

// Tables of proved operators.
//
// A Table holds the operators of one element type that the generator
// (gen.go) proved associative, with their identities and commutativity,
// and the higher-dimensional primitives added by hand (each proved the
// same way). Matching (match.go) looks operators up by the root operation
// of their first element, so a table keeps its entries grouped by that
// root and, within a group, in increasing number of leaves.

// Entry is one operator of a table.
type Entry struct {
	Operator
	// Leaves counts the leaves of the whole tuple.
	Leaves int
	// RealOnly marks a float operator proved over the reals only: it is
	// used only when the user lets float arithmetic be reassociated.
	RealOnly bool
	// Proof names what proved it (the prover and its version).
	Proof string
}

// Table is the set of proved operators of one element type.
type Table struct {
	Type    Type
	Version int
	// Entries are grouped by the root operation of element 0, each group
	// in increasing number of leaves.
	Entries []Entry
}

// ByRoot returns the entries whose element 0 has root operation op.
func (t *Table) ByRoot(op Op) []Entry {
	lo := -1
	for i := range t.Entries {
		if t.Entries[i].Elems[0].Op == op {
			if lo < 0 {
				lo = i
			}
		} else if lo >= 0 {
			return t.Entries[lo:i]
		}
	}
	if lo < 0 {
		return nil
	}
	return t.Entries[lo:]
}

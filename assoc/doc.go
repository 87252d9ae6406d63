// Package assoc synthesizes the associative operators of reductions, so
// that a reduction can be split into partial results computed in parallel
// and combined (Halide's rfactor; the system of
// ../shared/seeds/000_2efe5a952813ccb0.txt).
//
// # Expressions
//
// An [Expr] is a tree over the machine types of C ([Type]: bool, the
// signed and unsigned integers of 8 to 64 bits, float32 and float64).
// Leaves are x_i (element i of the partial result), y_j (element j of the
// value folded in), the generic constant k, literals and named values;
// inner nodes are C's arithmetic, min and max, comparisons, logic, bitwise
// operations and select (c ? a : b). A [Tuple] of n expressions is an
// operator on n-tuples: element i is the new x_i.
//
// # Invariants
//
//   - A node's Type is the type of its value: comparisons and logic are
//     Bool, their operands share a type.
//   - A [Value] is the bit pattern of its type, only its low Bits()
//     significant.
//
// # Files
//
// expr.go, eval.go, canon.go, text.go: the expressions, their C
// semantics, the canonical form and the notation. smt.go, z3.go,
// prove.go: the Z3 prover. enum.go, gen.go, table.go: enumeration, table
// generation and the table files (tables/, embedded). match.go,
// recognize.go: matching an update against the tables. factor.go:
// running a reduction in chunks with a recognized operator (tests and
// tools).
package assoc

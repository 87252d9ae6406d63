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
// operations, select (c ? a : b), conversions ([Cast]: C's casts,
// printed as Halide's u8(e)) and exp of a float (OpExp, over the reals
// only: Z3 knows it by exp(0) = 1, exp(a) > 0 and exp(a)·exp(b) =
// exp(a + b), which log-sum-exp's proof needs). A [Tuple] of n expressions is an
// operator on n-tuples: element i is the new x_i.
//
// # Invariants
//
//   - A node's Type is the type of its value: comparisons and logic are
//     Bool, their operands share a type; only a conversion's operand may
//     have another type than the node.
//   - A [Value] is the bit pattern of its type, only its low Bits()
//     significant.
//
// # Files
//
// expr.go, eval.go, canon.go, text.go: the expressions, their C
// semantics, the canonical form and the notation. smt.go, z3.go (z3_linux.go),
// prove.go: the Z3 prover. enum.go, gen.go, genclass.go, table.go:
// enumeration, table generation (genclass.go: one proof per class of
// candidates with the same values) and the table files (tables/,
// embedded); tablebin.go: their
// packed form, which a process loads (go generate writes it with
// internal/packtables). match.go,
// recognize.go: matching an update against the tables. synth.go, nf.go:
// synthesis of the input map y where the update is f(x, y) for a table
// entry f but y is not its literal operand (x - in is x + y with y =
// -in), checked by exact normal forms. closure.go: the proof that an
// update has no associative decomposition, the only ground for a "not
// associative" refusal. factor.go: running a reduction in chunks with a
// recognized operator (tests and tools).
//
// # What callers can rely on
//
//   - A [Match] is a claim: the update equals Operator applied to x and
//     Y (by canonical forms, a float product y_j·e meeting e with y_j = 1,
//     or by the normal forms of nf.go), Operator is proved associative by
//     Z3 (the tables; with exp, from exp(0) = 1, exp(a) > 0 and
//     exp(a)·exp(b) = exp(a + b), which the exponential satisfies), its
//     Identity and Commutative flag are Z3's. Nothing rests on random
//     testing alone.
//   - A [MatchError] with NotAssociative set carries a proof that no
//     associative operator decomposes the update (closure.go: exhaustive
//     at 8 bits); every other refusal says "not recognized".
//   - Z3's answers in the tests are bounded by its deterministic
//     resource count (Prover.SetResourceLimit), not by wall-clock time:
//     they do not change with the machine's load.
package assoc

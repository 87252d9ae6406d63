package ir

// Reduction describes a loop that runs as a factored reduction: each
// thread folds a chunk of iterations into private partial results, combined
// in thread order after the loop (package rfactor finds them, codegen
// prints them). Its
// expressions (Identity, Lift, Combine) are bodies of the loop's
// statements: IterRef levels are the statements' counters, and Load
// indices name x_i (0 ≤ index < n, the variable's value), y_j (n ≤ index <
// 2n, a partial result) or Accesses[index − 2n].
type Reduction struct {
	Level int   // the loop's level
	Stmts []int // the loop body's statements, in order (indices in Program.Stmts)
	// Vars are the reduction variables x_i: elements the loop does not
	// move, over the statements' counters.
	Vars []*Access
	// Temps are the arrays (scalars) each thread keeps private; LastPrivate
	// those whose last value is read after the loop.
	Temps       []int
	LastPrivate []bool
	Accesses    []*Access
	// Identity gives the identity of each x_i, nil when the operator has
	// none; Lift gives the value folded in at one iteration (used, without
	// an identity, at each thread's first iteration).
	Identity []Expr
	Lift     []Expr
	// Commutative says the operator is proved commutative: the partial
	// results may then be folded in any order (codegen's vector lanes).
	Commutative bool
	// Combine gives the new x_i from x (the running value) and y (a
	// thread's partial result).
	Combine []Expr
	// Unsigned marks the x_i of type int or long whose partial results
	// are kept in the unsigned type of the same width: the operator
	// reaches them through +, − and * only, which the unsigned types
	// compute modulo 2^n, so a partial sum may pass the signed range (in
	// C, undefined behavior) where the sequential order did not, and the
	// final value, converted back, is the sequential one.
	Unsigned []bool
	// Clause is the operator of OpenMP's reduction clause ("+", "*",
	// "min", "max", "&", "|", "^") when it does exactly this reduction,
	// else empty.
	Clause string
}

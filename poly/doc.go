// Package poly implements integer sets defined by affine constraints over
// named set dimensions and symbolic parameters, with exact arithmetic.
//
// A Space names the parameters and one tuple of set dimensions, as in isl's
// "[n] -> { S[i, j] }". A Set is a conjunction of Constraints, each an affine
// form over (dims, params, 1) that is either >= 0 or == 0. A Union is a
// disjunction of Sets in one Space. ParseUnion and ParseSet read isl notation;
// String prints it back.
//
// # Invariants
//
// Every coefficient lies in [-MaxInt64, MaxInt64]: math.MinInt64 never
// occurs, so negation is always safe. Constraint rows of a Set are normalized:
// the gcd of the variable coefficients of each row is 1 (inequality constants
// are tightened by floor division, an equality whose constant is not divisible
// makes the set empty), an equality's first nonzero coefficient is positive,
// equalities come first, rows are sorted and no row repeats, of inequalities
// with the same variable part only the strongest (smallest constant) is
// kept, rows with no variables are dropped (when true) or make the set empty
// (when false). An
// empty Set found by normalization has no rows and IsEmptyKnown reports it.
// Operations never modify their arguments; Sets are immutable values.
//
// # Exactness
//
// All arithmetic is on int64 with an overflow check on every addition and
// multiplication (math/bits). The linear programming in the simplex uses
// exact rationals built on the same checked int64 operations. Nothing is
// ever silently wrapped or rounded: an overflow aborts the operation, which
// returns ErrOverflow ("poly: overflow").
//
// Integer emptiness, integer minimum and maximum, and lexicographic minimum
// and maximum are exact. Equalities are first solved over the integers by a
// Hermite-style unimodular reduction (hermite.go), which decides divisibility
// obstructions and leaves an equality-free system in lattice coordinates; then
// a rational simplex decides rational feasibility and branch and bound on
// fractional values decides integer questions. The simplex tableau is
// fraction-free (int64 entries, one denominator per row, checked arithmetic
// and one gcd normalization per row per pivot) with the objective kept as a
// row; it pivots on the most negative reduced cost and falls back to Bland's
// rule after a run of degenerate pivots, so it cannot cycle. An inequality
// satisfied at the origin starts with its slack basic, so phase 1 only works
// on the others. Each branch and bound child adds its bound to a copy of the
// parent's optimal tableau and is reoptimized by the dual simplex method
// (Bland's rule). LexMin and LexMax run one lexicographic branch and bound:
// a node's rational lexicographic minimum comes from one tableau, each
// coordinate minimized on the optimal face of the earlier ones (the columns
// with a positive reduced cost frozen at 0); the node branches on its first
// fractional coordinate and is pruned when its rational minimum cannot beat
// the best integer point found. IsRationalEmpty decides the rational
// relaxation of the constraints as given. Branch and bound is cut off after
// maxBranchNodes nodes or maxBranchDepth levels (or when the Work budget
// of LexMinWork is spent); it then returns ErrLimit rather than a guess.
// A Work budget counts deterministic units (tableau entries a pivot
// updates, coefficients Fourier–Motzkin combines) shared by the calls a
// caller makes; EliminateRationalWork and LexMinWork charge it. On a
// bounded set it always terminates; on an unbounded integer-empty set it may
// hit the limit.
//
// EliminateRational projects out variables that are rational, not integer
// (Farkas multipliers): it never tightens a constant while they are there.
// It removes redundant rows with the dual linear program of each (one row
// per variable, one column per constraint: small when constraints
// outnumber variables).
//
// # Limits
//
// ProjectOutRational computes the rational shadow by Fourier–Motzkin: it is
// an over-approximation of the integer projection (it may contain integer
// points with no integer preimage). It reports exact == true only when it can
// prove the integer projection equals the shadow (elimination by a unit
// equality, or all lower or all upper bounds of the eliminated dimension
// having coefficient 1). There are no existentially quantified dimensions,
// no floor division.
//
// # Maps
//
// A Map (map.go) is a relation { S[x] -> T[y] : constraints over (x, y, p) },
// stored as a Set over the concatenated dims; a MapSpace names its params and
// both tuples. ParseMap and (*Map).String read and print isl notation; output
// entries may be affine expressions of earlier names ("S[i] -> T[i, i + 1]"),
// and an output dim fixed by an equality with coefficient ±1 on it (and 0 on
// the other outputs) prints that way. An AffineMap is a function: one affine
// form over (in dims, params, 1) per output dim.
//
// Exact results: Intersect, Reverse, IntersectDomain, IntersectRange,
// Wrap/Unwrap, IsEmpty, Contains, (*Set).Preimage (substitution), AffineMap
// Inverse and Map, and (*Set).Image under a unimodular AffineMap (square, with
// an integer inverse: computed as the preimage under the inverse).
// Otherwise Image, (*Map).Domain, Range and Apply return the rational shadow
// of the integer image, computed by repeated ProjectOutRational (exact steps
// preferred): it always contains every true image point, and exact == true
// is returned only when every elimination step was proved exact (or the
// shadow is empty), in which case it equals the integer image.
package poly

// Package prove is the Z3 prover of nestor/assoc: it proves claims about
// operators (assoc.Tuple) in the semantics of C's machine types, by
// SMT-LIB2 queries to Debian's z3 run as a subprocess.
//
// A [Prover] decides associativity, commutativity and the equality of two
// expressions, synthesizes a two-sided (or one-sided) identity from the
// candidates of each type's special values and the constants k the
// operator reads, checked by Z3, with a quantified query for "none
// exists" ([Prover.Identity], [Prover.IsIdentity],
// [Prover.IdentityExists]). [Options] picks the semantics: signed int32
// and int64 assumed not to overflow unless Wrap (then bit-vectors with
// the definedness of C's operations as side conditions, or bounded SMT
// integers where the operations are linear: [Options.IntEncoding]),
// floats as IEEE 754 unless Real makes them reals (exp and log
// uninterpreted beyond facts of the real functions, smtFuncs: a proof
// holds for them, a model is never a counterexample; fabs an ite, or
// fp.abs in IEEE 754).
//
// # Files
//
// smt.go: the translation of expressions to SMT-LIB2 terms, a value and
// the condition under which C defines it. prove.go: the claims and the
// identity synthesis. z3.go (z3_linux.go): the z3 process, its answers
// and counterexamples read back, [Z3Path] and [Z3Version].
//
// # Who uses it
//
// The table generator (nestor/assoc/gen) proves every table entry with
// it; internal/assoctables builds the test tables of rfactor and
// pipeline with it; the tests of nestor/assoc use it as an oracle.
// Matching an update against the tables (assoc.Recognize) needs no
// prover: the tables carry their proofs, so the optimizer does not link
// this package.
//
// # What callers can rely on
//
//   - Proved means Z3 proved the claim for every value of its variables
//     (under the mode's assumptions of defined behaviour); Refuted comes
//     with a counterexample (or, for an identity, a proof that none
//     exists); Unknown is never taken for either.
//   - With a resource limit (Prover.SetResourceLimit) an answer is bounded
//     by Z3's deterministic resource count, not by wall-clock time: it
//     does not change with the machine's load.
//   - A Prover runs one z3 process and is for one goroutine at a time.
package prove

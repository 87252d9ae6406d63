// Package rfactor finds the reduction loops of an ir.Program, has assoc
// prove their update associative, and describes the factored reductions
// that codegen prints as OpenMP code: per-thread partial results and a
// combine step in thread order (Halide's rfactor).
//
// # Reduction loops
//
// A loop qualifies when it runs one straight-line group of statements,
// all in the same innermost loop (it or one inside it) with the same
// domain, that writes only
//
//   - reduction variables: scalars, or array elements whose subscripts do
//     not move with the loop, every access of the group naming the same
//     element; and
//   - private temporaries: scalars one statement of the group assigns
//     before any statement of the same iteration reads them (the
//     condition of a data-dependent if, the temporary of a complex
//     product). One read after the loop makes the last value live out.
//
// Everything else the group reads is an input: an element of an array
// the group does not write, a counter, a parameter. The dependences
// carried by such a loop are then exactly those of the reduction
// variables (the temporaries' die with each iteration), so one iteration
// is the update x' = f(x, v) of the tuple x of the reduction variables by
// the inputs v of the iteration, and running the iterations in chunks on
// private copies of x is correct when f is associative — which assoc
// decides ([Find] builds the update, [Factor] asks assoc).
//
// # The update
//
// The group runs symbolically: each statement's value, with the current
// expressions of the variables and temporaries substituted for its reads,
// becomes the new expression of what it writes. The update's element i
// is the final expression of x_i over the x_j as they were before the
// iteration. Every maximal subexpression that reads no x is one named
// value (assoc.OpVar) — its C text is its name, and it is loop-invariant
// when it reads neither the loop's counter nor anything moving with it —
// except a conversion, which stays a conversion of the value named in its
// own type, and C's exp, log and fabs, which stay assoc's exp, log and
// fabs of the value named (exp(v[i]) is exp of v[i], so that a table's
// log(exp(x) + exp(y)) meets it with y = v[i]). C's conversions of a
// partial result, implicit or written, are assoc's casts (an unsigned
// char sum is promoted to int, added and converted back: u8(min(i32(x) +
// i32(y), 255)) when it saturates), and exp, log and fabs of a partial
// result are assoc's (log-sum-exp in both forms, over the reals; sums,
// products, least and largest of magnitudes).
//
// # Limits
//
// Statements in different inner loops, guards around part of the body,
// calls other than fmin, fmax, exp, log and fabs on a partial result, a type assoc
// has no table of (long double) and reading other elements of a
// reduction array keep a loop sequential; a loop nested in a parallel loop is left alone. Float reductions other
// than those assoc proves exactly in IEEE arithmetic are factored only
// with Options.Real (nestor's --assoc-math), and then only agree with the
// sequential result within rounding.
package rfactor

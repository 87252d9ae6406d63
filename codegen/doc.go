// Package codegen turns a program's statement domains and schedule into a
// loop AST and prints that AST as C.
//
// # The loop AST
//
// [Build] scans the statements' iteration domains in schedule order and
// returns a [Block] of [Node]s: [Loop] (a counter running from the max of
// its lower bounds to the min of its upper bounds, up or down, with a step
// and optional pragmas), [If] (a conjunction of affine guards), and
// [Instance] (one statement, with the value of each of its counters as an
// affine form of the enclosing loop counters). Bounds and guards are affine
// forms over the counters of the enclosing loops (outermost first) and the
// program's parameters; a [Bound] may round a quotient or take the min/max
// of other bounds, so schedules that need floor/ceil (tiling) fit the same
// shape.
//
// For now the schedule is the original one (Beta and Dir of each
// statement). Statements that share a Beta prefix share loops, ordered by
// their Beta values. The bounds of the loop at level k come from each
// statement's constraints whose innermost counter is k; when the statements
// of a loop disagree, the loop runs over the union of their ranges and each
// statement gets an if guard for the bounds the loop does not imply. A
// congruence i ≡ e (mod s) (a Div local with its defining equality) becomes
// the step of the loop when every statement in it has the same one and the
// loop starts on it; otherwise it becomes a guard "(i - e) % s == 0". An
// equality without locals gives a lower and an upper bound. Constraints over
// the parameters only become guards, unless Program.Context has them.
//
// # Invariants
//
//   - Every statement instance of the domain runs exactly once, in the
//     order ir.Less gives; a loop never iterates where none of its
//     statements runs at the loop's own level (its bounds are the union of
//     theirs), so no loop is empty in the sense of having no statement.
//   - A guard only reads counters of loops enclosing it and is placed as
//     high as possible: around the node shared by all statements needing it.
//   - Build never modifies the program.
//
// # Register tiles
//
// [UnrollJam] rewrites a built AST: a perfect nest of three point loops of
// one permutable band gets its two outer loops unrolled into the
// innermost one (rows × cols copies of the body), each unrolled loop
// followed by a rest loop ([Loop].Rest) that continues its counter; the
// printer declares such a counter once before the pair.
//
// # Factored reductions
//
// [MarkReductions] attaches an [ir.Reduction] (found by package rfactor) to
// the innermost loops that run its statements; such a loop prints as an
// OpenMP parallel region where each thread folds one contiguous chunk
// into private partial results, combined after the region in thread
// order (reduce.go), or with OpenMP's reduction clause where that is
// exactly the same.
//
// # Printing
//
// [PrintC] writes C99 statements, every line prefixed by the caller's
// indentation and two spaces per nesting level, braces only around bodies
// of more than one node, upper bounds as "i < n" when they read better so.
// Helper macros nestor_floord, nestor_ceild, nestor_min and nestor_max are
// defined at the top of the region, each in its own #ifndef, only when used;
// arrays with ir.ScopLocal storage are declared after them. Each macro
// repeats its arguments, so the text they expand to doubles with every
// level of nesting: a region whose bounds nest them deeper than
// maxMacroDepth (tiny tiles) uses the GNU C versions nestor_min_g, …,
// which evaluate each argument once in a statement expression (gcc and
// clang; other compilers then reject the region rather than expand it for
// minutes or run out of memory).
//
// # Separation
//
// Statements run at one point of a shared loop (one of their lower bounds
// equals one of their upper bounds; other bounds, such as the loop's
// tile, decide whether they run there) split it into the loops before, at
// and after the point (build.go): lu's division by the pivot leaves its
// update loops. After simplification, a
// loop whose body still has guards bounding its own counter is split
// where each guard changes value (split.go): the statements of a skewed
// stencil then run in a middle loop with no guard, and the few
// iterations where only one of them runs in loops of their own.
//
// # Limits
//
// Congruences that differ between the statements of a loop stay guards,
// and a loop is split at its guards only when it holds at most
// maxSplitInstances statement instances and the pieces number at most
// maxSplitPieces. The linear programs of one region's simplification share
// a budget of work, maxSolverWork (simplify.go): past it a guard stays, a
// bound term is not dropped, a loop is not known to run and accesses are
// not known apart, so the code stays correct and is only less simplified.
// The budget counts estimated work, not time, so the output does not
// depend on the machine.
package codegen

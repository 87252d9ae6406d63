// Package outline finds repeated subgraphs of dataflow graphs by
// collision-avoiding anti-unification and outlines them into functions
// (the pass proposed for the XLS hardware compiler,
// ../shared/seeds/001_6e16765b8886f4d7.txt), and inlines them back.
//
// # Graphs
//
// A [Package] holds [Function]s; a function is a dataflow graph of typed
// [Node]s in topological order. The representation is XLS's (operation
// names, bits/tuple/array types, attributes) but nothing in it depends on
// where a graph came from: the sub-package xls reads and writes XLS IR
// text and evaluates it, and nestor builds graphs from statement bodies.
//
// # The pass
//
// [Outline] repeats four steps on one function until nothing pays:
//
//   - analysis.go: the function as arrays, with its post-dominator tree;
//     the nodes a node's value alone feeds form its fanout-free cone.
//   - table.go: for every pair of nodes with one match key (Label and
//     operand types), the size of their anti-unifier, by dynamic
//     programming in topological order; after the first iteration only
//     the pairs whose cones changed are recomputed.
//   - choose.go: on each group of equal keys, the weighted graph of the
//     pairs; the AblateClique (greedy) or a maximum-clique search
//     (exact) proposes instance sets maximizing (n-1)·k; the best are
//     verified by anti-unifying the whole set.
//   - cones.go: beside the table, the cone miner groups nodes by hashes
//     of their bounded-depth post-dominator shapes and anti-unifies each
//     group's whole cones (dagMatch), a node shared inside an instance
//     at different depths (internal fan-out) included; a verified set
//     grows by the nodes of the root's key whose cones hold its pattern
//     (grow: a copy with a private input hashes apart); its best set
//     competes with the table's. Where the pairs of equal-key nodes
//     exceed maxTablePairs the table is not built: the miner alone
//     proposes, and the sets it verified are outlined together in one
//     pass over the function (a batch: disjointSets trims a set of the
//     instances that overlap sets taken before it, and lets a larger
//     pattern go before a smaller one it overlaps when that saves more
//     in the two, so that small patterns with many instances do not
//     pre-empt a larger motif); the pass stops when a batch
//     saves less than 1/minBatchGain of the cost (Report.Diminished).
//   - outline.go: the best set becomes a function outlined_N
//     (Function.Outlined), each instance an invoke of it; under Nodes, a
//     set whose pattern is the body of a function outlined before, in
//     this or another function of the package, invokes that one
//     (Outlined.Reused); under Area too, and there the choice prices
//     such a set by what the reuse saves once the multiplexers it widens
//     are charged (reuser), so a set that cannot pay as a reuse is never
//     chosen: no two outlined functions have one body, under either
//     objective. The loop runs
//     in rounds, each with a fresh table, until one outlines nothing
//     (so a second run changes nothing). Options.Budget stops the loop, with the
//     function as the last step left it, once Report.Work (nodes
//     analysed, pairs computed, nodes the miner visited: counted, not
//     timed) exceeds it; Options.Progress gets a line per iteration.
//
// An instance has one root. Once no single-output pattern pays, the pass
// looks for multi-output ones (bundle.go): where a node's users are
// siblings (it is used only by them, and they are otherwise independent),
// such as the two sels of a compare-exchange sharing their ult, a tuple
// bundles the siblings and tuple_index nodes read it in their place, so
// that the shared node and its users are one cone, rooted at the tuple.
// The four steps go on unchanged; an outlined bundle is an invoke of a
// function that returns a tuple, read by tuple_index nodes. When nothing
// more pays, the bundles that were not outlined are removed (each read
// becomes the element it selects), and if some were outlined the pass
// looks for single-output patterns again.
//
// [Antiunify] is the anti-unifier of two expression trees;
// [AntiunifySet] is the one the pass uses (antiunify.go explains it):
// instances are disjoint (collision avoidance), closed (no node but the
// root is used outside its instance) and consistent (a node an instance
// uses twice is one pattern node, used twice by every instance; where the
// instances disagree, the value is an input). Its size k counts matched
// operations: holes, parameters, literals, invokes, tuples and
// tuple_index nodes count 0 (a literal equal in all instances is kept
// inside the pattern; a tuple is wiring, so the tuple of a multi-output
// pattern and the reads of its outputs cost nothing). Commutative
// operands are put in a canonical order ([Canonicalize]) and, for two
// operands, exchanged when that matches more.
//
// Side effects: assert, trace, cover, after_all, min_delay, counted_for,
// dynamic_counted_for and map are never nodes of an instance, nor are
// invokes of a foreign function (#[ffi_proto]) or of one with side
// effects, directly or through its callees (fixedCallees); a foreign
// function's own body is not outlined.
//
// Objectives: [Nodes] saves (n-1)·k; [Area] weighs operations by width
// (areaOf) and charges, per extra instance, the width of each input that
// differs between instances, the multiplexers of the shared instance.
// [Cost] measures a package the same way: each step lowers it by at least
// the step's saving, which is positive, so the pass terminates, and
// [Options].MinSize keeps patterns of fewer operations out.
//
// # Invariants
//
//   - Every operand of a node is defined earlier in the same function.
//   - Parameters come first in Nodes, in the order of Params.
//   - Node IDs are unique within a function (the pass and Inline give new
//     nodes IDs unused in the whole package).
//   - Two nodes can be matched only when their Labels are equal.
//   - After Outline, every function passes Check and holds no bundle
//     that was not outlined: where nothing was outlined, the function is
//     its canonicalized input, node for node. Running Outline again on
//     the result changes nothing (unless a budget stopped it). Inline
//     inlines only invokes of functions Outline created
//     (Function.Outlined), drops those once nothing invokes them, and
//     keeps the user's functions and invokes; it gives back functions
//     StructurallyEqual to the originals once both are canonicalized
//     (same values, commutative operands possibly reordered): Inline
//     replaces a tuple_index of an inlined call's returned tuple by the
//     element it selects, and StructurallyEqual takes a tuple_index of a
//     tuple node for that element.
//
// # Limits
//
// Exact: the anti-unifier of a pair and of a set under the definition
// above; the table's entries, which equal AntiunifySet on the pair
// (tested), except where a collision lies more than maxWalk levels down
// the post-dominator tree, or the pair falls in two blocks of a group
// larger than maxGroup; the exact choice, optimal for the clique
// model max (n-1)·(minimum pairwise weight) when it finishes within
// maxBKCalls (Report.Exact says so). Heuristic: the clique model itself
// (the set's anti-unifier can be smaller than its weakest pair; the pass
// verifies before it outlines); the greedy choice; the multiplexer bits
// of a pair under Area (holes with equal arguments are merged only in the
// verified set); choosing one pattern at a time.
//
// Cone miner: exact for the set it anti-unifies (same definition as
// AntiunifySet, whole cones at once); heuristic in the sets it tries (the
// buckets of equal shape hashes, maxConeVerify of them per iteration
// (maxConeVerifyBatch in batches, where a candidate inside the
// instances of larger patterns found before is skipped),
// and subsets by pair size with the first roots of the commonest deeper
// shapes and the first root as references), in the orientation of
// commutative operands (by operand keys, then membership of the
// instance's cone, number of uses and shape) and in the batches of large
// functions (disjoint sets outlined together without re-analysis between
// them, in an order decided pair by pair, overlaps trimmed), and in the
// nodes grow scans (a work budget per iteration, best sets first).
//
// Not done: matching modulo associativity; in the table's sets, a node
// whose uses reach its post-dominator through another node's cone
// (rather than directly or through siblings) is never an inner node of
// an instance, unless it is the shared node of a bundle (the cone
// miner's sets include such nodes); the cone miner does not weigh
// repeats that differ (mutated copies) except by their common part; under Area, patterns never contain
// invokes, and operations whose area depends on a literal operand
// (shifts) match only with the same literal. Multi-output patterns are
// only those of one bundle: siblings that their users are interleaved
// with in the function's order are not bundled (no node is moved), nor
// are overlapping groups merged, and the outputs of a bundle share one
// node; they are sought only once single-output patterns no longer pay,
// so they never displace one but may lose to one chosen earlier. Under
// Area the pairwise multiplexer estimate counts a hole per operand
// position, so a pattern that uses its inputs several times (a
// compare-exchange: each input in the ult and both sels) looks costlier
// than it is and may not be found. Only the function given is searched,
// not the functions the pass creates: a repeat inside an outlined body
// repeats in every instance too, and would have been chosen first if it
// saved more.
package outline

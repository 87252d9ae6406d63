// Package outline finds repeated subgraphs of dataflow graphs by
// collision-avoiding anti-unification and outlines them into functions
// (the pass proposed for the XLS hardware compiler,
// ../shared/seeds/001_6e16765b8886f4d7.txt).
//
// # Graphs
//
// A [Package] holds [Function]s; a function is a dataflow graph of typed
// [Node]s in topological order. The representation is XLS's (operation
// names, bits/tuple/array types, attributes) but nothing in it depends on
// where a graph came from: the sub-package xls reads and writes XLS IR
// text and evaluates it, and nestor builds graphs from statement bodies.
//
// # Invariants
//
//   - Every operand of a node is defined earlier in the same function.
//   - Parameters come first in Nodes, in the order of Params.
//   - Node IDs are unique within a function.
//   - Two nodes can be matched only when their Labels are equal.
package outline

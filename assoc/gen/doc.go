// Package gen generates the tables of proved associative operators that
// nestor/assoc matches reductions against (`nestor assoc gen`; the
// paper's "Generating Elementary Operators", ../shared/seeds/000_2efe5a952813ccb0.txt).
//
// [Enumerate] builds the canonical 1- and 2-tuples of an operation set
// ([Ops]) by increasing number of leaves; [Generate] filters them by
// random evaluation with edge values (assoc.RandomAssociative, over the
// reals assoc.RealRandomAssociative), by a value-level use of x and y
// (assoc.RandomReadsBoth) and by decomposability ([Decomposable]), then
// proves associativity, the identity and commutativity with Z3
// (nestor/assoc/prove; [ProveEntry]) in parallel workers, with a journal
// that a rerun resumes ([ReadJournal] reads what a run has proved so
// far). With GenConfig.Classes the candidates that reach Z3 are grouped
// by their values on fixed points and Z3 proves one representative per
// class; each other member is shown equal to it as a function (the
// normal forms of assoc.Equivalent, or one Z3 equality query).
// [GenerateHand] proves the hand-written primitives of the tables'
// hand.txt (assoc.HandOps).
//
// # Files
//
// enum.go, enumfp.go: the enumeration and the value fingerprints that
// prune trees equal to smaller ones. gen.go: the pipeline of filters and
// proofs, its statistics, and the hand primitives. genclass.go: one proof
// per class of candidates with the same values. journal.go: the journal.
//
// The entries come out in table order; writing and packing a table are
// assoc's (Table.Write, Table.MarshalBinary), and `nestor assoc gen`
// (cmd/nestor) writes the text table and its packed form. The optimizer
// never imports this package.
package gen

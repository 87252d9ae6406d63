// Package xls reads, writes and evaluates the text form of XLS IR (the
// intermediate representation of Google's XLS hardware compiler, see
// docs_src/ir_semantics.md in github.com/google/xls), for the
// combinational subset: packages of functions over bits, tuples and
// arrays. Graphs are outline's: [Parse] turns text into an
// [outline.Package], [Write] turns one back into text, and [Eval] runs a
// function on [Value]s, so that the outliner can be tested on real IR and
// checked by evaluation ([EvalEqual]).
//
// # Text
//
// A file is "package NAME" (XLS's tests also write a lone function, proc
// or block without it: Package.Headless), optional "file_number N "path""
// lines, then functions, each after its attributes #[...] (kept as text
// in Function.Attrs: #[initiation_interval(2)], #[ffi_proto("""...""")],
// #[non_synth]):
//
//	fn add3(x: bits[8] id=1, y: bits[8] id=2) -> bits[8] {
//	  add.3: bits[8] = add(x, y, id=3, pos=[(0,1,2)])
//	  three: bits[8] = literal(value=3, id=4)
//	  ret add.5: bits[8] = add(add.3, three, id=5)
//	}
//
// with "top fn" marking the package's top function. Procs, blocks,
// channels and scheduled functions (proc, block, chan, scheduled_fn,
// scheduled_proc, scheduled_block, with "top" and attributes) are kept as
// text (outline.Opaque, from the first attribute to the closing brace, or
// parenthesis for chan): only their brackets are checked, the largest
// id=N in them is noted so that new nodes take other IDs, and the names of
// the functions they use (to_apply=, body=, ...). Comments run from // to
// the end of a line; the comment "// nestor: outlined" on the line before
// a function marks one that Outline created (Function.Outlined). Strings
// are "..." or """...""" (which may span lines). Types are bits[N], token,
// tuples (T, ...) and arrays T[N] (outer dimension last, as in XLS; N may
// be 0). Literal values are decimal, 0x hex or 0b binary numbers, negative
// ones in two's complement where they fit, optionally typed (bits[8]:5),
// tuples (1, 2), arrays [1, 2], and token. Older forms are read too: "ret
// NAME" alone, a parameter returned by "ret x: T = param(name=x)",
// pos=F,L,C.
//
// # Graphs
//
// Parse keeps, for every node: the ID (id=N; else N from a name op.N;
// else a fresh ID above all others), the Name (the name written, or ""
// when it is op.ID, so that Node.RefName gives it back), the operands in
// semantic order, the attributes, the source positions (pos=, in
// Node.Loc) and the position of the node's name. Attributes are those
// that are not operands, in canonical spelling and in a fixed order per
// operation: start, width, new_bit_count, index, lsb_prio,
// assumed_in_bounds, to_apply, trip_count, stride, body, delay, message,
// label, format, verbosity, value (a literal's value is written as
// [Value.String] writes it, so 0xff and 255 give equal labels; strings
// are kept as written, quotes included).
//
// Operands that XLS writes by keyword follow the positional ones:
//
//	sel(s, cases=[a, b, c], default=d)     Operands: s, a, b, c, d
//	one_hot_sel(s, cases=[a, b])           Operands: s, a, b
//	priority_sel(s, cases=[a, b], default=d)  Operands: s, a, b[, d]
//	array_index(x, indices=[i, j])         Operands: x, i, j
//	array_update(x, v, indices=[i])        Operands: x, v, i
//	trace(t, c, format="..", data_operands=[a, b])  Operands: t, c, a, b
//	counted_for(x, trip_count=4, body=f, invariant_args=[a])  Operands: x, a
//
// No attribute records whether a select has a default, because the
// operand count and the selector's width say it: a sel with a w-bit
// selector and k operands after it has a default when k < 2^w (XLS
// requires one exactly when the cases do not cover every selector
// value); with k = 2^w all are cases (a default that only the last
// selector value can reach is the same as one more case, and Write
// writes it so). one_hot_sel and priority_sel have one case per selector
// bit, so priority_sel has a default exactly when k = w+1.
//
// # Invariants
//
// A package returned by Parse passes [Check]: parameters first in Nodes,
// every operand defined earlier in its function, each node's type the one
// XLS's verifier requires of its operation, operands and attributes,
// invoked functions defined earlier (so no recursion), IDs unique in the
// package, names unique in each function. [Write] needs only what Check
// verifies and writes fresh IDs and names where the graph's are missing
// or repeated (see Write); Write(Parse(Write(p))) equals Write(p) byte
// for byte, and Parse(Write(p)) equals p when p came from Parse.
// Values are immutable. Parse, Check, Write and Eval return errors for
// bad input and never panic on it; Parse's errors are an [ErrorList] of
// file:line:col: message, the others start with "xls: ".
//
// # Operations
//
// Each supported operation is one entry of an op table (ops.go): its
// name, its positional operands and keyword arguments, its type rule and
// its evaluation function. The reader, [Check], the writer and the
// evaluator take all they know of an operation from there (Check verifies
// what all operations share, then calls the entry's type rule; the
// evaluator calls the entry's function, or computes the common
// operations of at most 64 bits on machine words), so an operation is
// added by adding its entry, with a case in TestOpTable.
//
// # Evaluation
//
// Eval follows docs_src/ir_semantics.md: arithmetic wraps; udiv by zero
// gives all ones, sdiv by zero the largest positive or most negative
// number (by the dividend's sign), umod and smod by zero give zero;
// signed division rounds toward zero and smod takes the dividend's sign;
// shifts by the width or more give zero (shra: copies of the sign bit);
// array indices past the end are clamped, array_update past the end
// changes nothing, dynamic_bit_slice reads zeros past the end and
// bit_slice_update drops bits past it. Bits values of any width are
// held in math/big, those of at most 64 bits as a uint64, on which the
// common operations (add, sub, umul, neg, bitwise, comparisons, shll,
// shrl) are computed directly (fastStep, tested against the general
// path). umulp and smulp return (product, 0), one of the pairs XLS
// allows.
//
// # Side effects and loops
//
// assert, trace and cover are evaluated: [Evaluator.Effects] lists the
// asserts that failed, the traces and covers that fired, and EvalEqual
// compares them (sorted: XLS orders effects only through tokens) with the
// values. after_all and min_delay give a token. counted_for and
// dynamic_counted_for call their body with the induction variable
// i·stride (wrapped to its width), the accumulator and the invariant
// arguments; map calls its function on each element.
//
// # Limits
//
// Supported operations: add sub neg umul smul umulp smulp udiv sdiv umod
// smod; and or xor nand nor not identity reverse and_reduce or_reduce
// xor_reduce; eq ne ult ule ugt uge slt sle sgt sge; shll shrl shra;
// bit_slice dynamic_bit_slice bit_slice_update concat sign_ext zero_ext
// encode decode one_hot; sel one_hot_sel priority_sel gate; tuple
// tuple_index array array_index array_update array_concat array_slice;
// literal invoke counted_for dynamic_counted_for map; after_all min_delay
// assert trace cover. The operations of procs and blocks (send, receive,
// state_read, next_value, register_read, ...) are read only inside the
// opaque text of a proc or block, never in a function. Attributes and
// opaque parts are checked for balanced brackets only: XLS checks the
// rest. An empty array cannot be indexed or sliced. A dynamic_counted_for
// runs at most maxTripCount iterations under evaluation. Keywords (fn,
// ret, bits, token, true, ...) are not accepted as names. A type may hold
// at most about 4 Mbit (maxTypeSize) and nest 64 deep. Parse accepts
// priority_sel without a default (older XLS), which newer XLS rejects;
// Write writes it so when the graph has none.
//
// # Corpus
//
// All 758 .ir files of the XLS repository (tests, examples, golden files;
// commit dd8e402) parse, round-trip and evaluate as their written copies
// (TestCorpus, with NESTOR_XLS_CORPUS naming a directory of them); a
// selection is in ../testdata/xls.
package xls

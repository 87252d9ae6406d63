package assoc

import (
	"bufio"
	"cmp"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Tables of proved operators.
//
// A Table holds the operators of one element type that the generator
// (assoc/gen) proved associative, with their identities and commutativity,
// and the higher-dimensional primitives added by hand (each proved the
// same way). Matching (match.go) looks operators up by the root operation
// of their first element, so a table keeps its entries grouped by that
// root and, within a group, in increasing number of leaves.

// Entry is one operator of a table.
type Entry struct {
	Operator
	// Leaves counts the leaves of the whole tuple.
	Leaves int
	// RealOnly marks a float operator proved over the reals only: it is
	// used only when the user lets float arithmetic be reassociated.
	RealOnly bool
	// Proof names what proved it (the prover and its version).
	Proof string
	// Wraps reports that the operator is also associative when int32 and
	// int64 arithmetic wraps around (prove.Options.Wrap); for the other integer
	// types and Bool it is the same as associative, for floats false.
	Wraps bool
	// Name names a primitive added by hand ("complex-mul"), "" for a
	// generated operator.
	Name string
	// canonical marks an operator known to be in canonical form (a
	// packed table records it): matching skips Canon.
	canonical bool
}

// Table is the set of proved operators of one element type.
type Table struct {
	Type    Type
	Version int
	// Entries are grouped by the root operation of element 0, each group
	// in increasing number of leaves.
	Entries []Entry
	// Generators describe the runs that produced the entries, one line
	// each (their settings); Prover names the prover ("z3 4.8.12").
	Generators []string
	Prover     string
	// layers, when not nil, makes a layered table (tablelazy.go): its
	// Entries are nil, and only matching reads it.
	layers *tableLayers
}

// ByRoot returns the entries whose element 0 has root operation op.
func (t *Table) ByRoot(op Op) []Entry {
	lo := -1
	for i := range t.Entries {
		if t.Entries[i].Elems[0].Op == op {
			if lo < 0 {
				lo = i
			}
		} else if lo >= 0 {
			return t.Entries[lo:i]
		}
	}
	if lo < 0 {
		return nil
	}
	return t.Entries[lo:]
}

// SortEntries puts entries in table order: grouped by the root operation
// of element 0 (in the order of Op), by increasing leaves within a group,
// otherwise keeping their order.
func SortEntries(entries []Entry) {
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Elems[0].Op, b.Elems[0].Op), cmp.Compare(a.Leaves, b.Leaves))
	})
}

// The table file.
//
// A table is a text file. Lines starting with # are comments (the shipped
// tables start with the command that regenerates them) and blank lines
// are ignored. The header comes first:
//
//	nestor-assoc-table v1
//	type int32
//	generator tuple=1 leaves=5 ops="+ - * min max & | ^" samples=100 seed=1 timeout=5s
//	prover z3 4.8.12
//
// with one generator line per run (any text) and at most one prover
// line. Then one entry per line, five or six fields separated by " ; ":
//
//	c-w 2 ; 0 ; x + y ; z3 4.8.12 bv wrap
//	--- 8 ; {1, 0} ; {x0*y0 - x1*y1, x0*y1 + x1*y0} ; z3 4.8.12 real ; complex-mul
//
// flags (c commutative, w associative with wrap-around too, r over the
// reals only; - for each one absent), the number of leaves, then the
// identity (a tuple of expressions in k and literals, or "none"), the
// operator in the paper's notation (text.go), the proof, and a name for
// the primitives added by hand. Entries are grouped by the root operation
// of element 0 and ordered by leaves within a group, as Table requires;
// the loader checks it, and that each operator, identity and leaf count
// is well formed.

// TableVersion is the version of the table file format.
const TableVersion = 1

const tableMagic = "nestor-assoc-table"

// TableError is a mistake in a table file, at a 1-based line and column.
type TableError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *TableError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// TableErrorAt places err, found in the field that starts at column col
// of line (1-based), in file, as a *TableError: a notation error ([Error])
// or an error of ParseEntryLine keeps its own column within the field.
func TableErrorAt(file string, line, col int, err error) error {
	var ne *Error
	if errors.As(err, &ne) {
		return &TableError{File: file, Line: line, Col: col + ne.Col - 1, Msg: ne.Msg}
	}
	var fe *fieldError
	if errors.As(err, &fe) {
		return &TableError{File: file, Line: line, Col: col + fe.col, Msg: fe.msg}
	}
	return &TableError{File: file, Line: line, Col: col, Msg: strings.TrimPrefix(err.Error(), "assoc: ")}
}

// fieldError is a mistake at a 0-based column of an entry line.
type fieldError struct {
	col int
	msg string
}

func (e *fieldError) Error() string { return e.msg }

const entrySep = " ; "

// FormatEntryLine writes e as an entry line of the table format (without
// the newline).
func FormatEntryLine(e *Entry) string {
	flags := []byte("---")
	if e.Commutative {
		flags[0] = 'c'
	}
	if e.Wraps {
		flags[1] = 'w'
	}
	if e.RealOnly {
		flags[2] = 'r'
	}
	id := "none"
	if e.Identity != nil {
		id = Tuple{Elems: e.Identity}.String()
	}
	fields := []string{fmt.Sprintf("%s %d", flags, e.Leaves), id, e.Tuple.String(), e.Proof}
	if e.Name != "" {
		fields = append(fields, e.Name)
	}
	return strings.Join(fields, entrySep)
}

// ParseEntryLine reads an entry line of a table of type t. Its errors
// carry columns within the line: [TableErrorAt] places them in a file.
func ParseEntryLine(line string, t Type) (*Entry, error) {
	fields := strings.Split(line, entrySep)
	if len(fields) < 4 || len(fields) > 5 {
		return nil, &fieldError{0, fmt.Sprintf("entry has %d fields separated by %q, want 4 or 5: flags and leaves, identity, operator, proof[, name]", len(fields), entrySep)}
	}
	col := make([]int, len(fields)) // 0-based start of each field
	for i := 1; i < len(fields); i++ {
		col[i] = col[i-1] + len(fields[i-1]) + len(entrySep)
	}
	e := &Entry{Proof: fields[3]}
	if len(fields) == 5 {
		e.Name = fields[4]
	}
	fl, lv, ok := strings.Cut(fields[0], " ")
	if !ok || len(fl) != 3 {
		return nil, &fieldError{0, fmt.Sprintf("flags and leaves %q: want three flags (c, w, r or -) and a number", fields[0])}
	}
	for i, want := range "cwr" {
		switch rune(fl[i]) {
		case want:
			*[]*bool{&e.Commutative, &e.Wraps, &e.RealOnly}[i] = true
		case '-':
		default:
			return nil, &fieldError{i, fmt.Sprintf("flag %q: want %c or -", fl[i], want)}
		}
	}
	n, err := strconv.Atoi(strings.TrimSpace(lv))
	if err != nil || n < 1 {
		return nil, &fieldError{4, fmt.Sprintf("leaves %q: want a positive number", lv)}
	}
	e.Leaves = n
	op, err := ParseTuple(fields[2], t)
	if err != nil {
		return nil, shift(err, col[2])
	}
	e.Tuple = op
	if got := op.Leaves(); got != n {
		return nil, &fieldError{4, fmt.Sprintf("leaves %d, but the operator has %d", n, got)}
	}
	if err := op.Validate(); err != nil {
		return nil, &fieldError{col[2], strings.TrimPrefix(err.Error(), "assoc: ")}
	}
	if fields[1] != "none" {
		id, err := ParseTuple(fields[1], t)
		if err != nil {
			return nil, shift(err, col[1])
		}
		if len(id.Elems) != len(op.Elems) {
			return nil, &fieldError{col[1], fmt.Sprintf("identity of %d elements for an operator of %d", len(id.Elems), len(op.Elems))}
		}
		for _, x := range id.Elems {
			if x.Uses(OpX) || x.Uses(OpY) {
				return nil, &fieldError{col[1], "identity reads x or y"}
			}
		}
		e.Identity = id.Elems
	}
	if e.RealOnly && !t.Float() {
		return nil, &fieldError{2, fmt.Sprintf("flag r on a %v operator", t)}
	}
	return e, nil
}

// shift moves a notation error by col columns (the start of its field).
func shift(err error, col int) error {
	var ne *Error
	if errors.As(err, &ne) && ne.Line == 1 {
		return &fieldError{col + ne.Col - 1, ne.Msg}
	}
	return &fieldError{col, strings.TrimPrefix(err.Error(), "assoc: ")}
}

// Write writes t in the table file format, after the comment lines
// (written with "# " before each).
func (t *Table) Write(w io.Writer, comments ...string) error {
	bw := bufio.NewWriter(w)
	for _, c := range comments {
		for _, l := range strings.Split(c, "\n") {
			fmt.Fprintln(bw, strings.TrimRight("# "+l, " "))
		}
	}
	fmt.Fprintf(bw, "%s v%d\ntype %v\n", tableMagic, TableVersion, t.Type)
	for _, g := range t.Generators {
		fmt.Fprintf(bw, "generator %s\n", g)
	}
	if t.Prover != "" {
		fmt.Fprintf(bw, "prover %s\n", t.Prover)
	}
	root := Op(numOps)
	for i := range t.Entries {
		e := &t.Entries[i]
		if r := e.Elems[0].Op; r != root {
			root = r
			fmt.Fprintf(bw, "\n# root %v\n", r)
		}
		fmt.Fprintln(bw, FormatEntryLine(e))
	}
	return bw.Flush()
}

// LoadTable reads a table file; name is the file's name in errors.
// Errors are *TableError with the line and column of the mistake.
func LoadTable(r io.Reader, name string) (*Table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	t := &Table{}
	lineNo := 0
	fail := func(col int, format string, args ...any) error {
		return &TableError{File: name, Line: lineNo, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	state := 0 // 0: before the magic line, 1: before type, 2: header, 3: entries
	lastRoot, lastLeaves := Op(0), 0
	seenRoot := map[Op]bool{}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		switch {
		case state == 0:
			if key != tableMagic {
				return nil, fail(1, "not a table file: want %q first", tableMagic+" v1")
			}
			v, err := strconv.Atoi(strings.TrimPrefix(rest, "v"))
			if err != nil || !strings.HasPrefix(rest, "v") {
				return nil, fail(len(key)+2, "version %q: want v%d", rest, TableVersion)
			}
			if v != TableVersion {
				return nil, fail(len(key)+2, "table format v%d, this nestor reads v%d (regenerate the table)", v, TableVersion)
			}
			t.Version = v
			state = 1
		case state == 1:
			if key != "type" {
				return nil, fail(1, "want the line \"type T\" after %q", tableMagic)
			}
			ty, err := ParseType(rest)
			if err != nil {
				return nil, fail(len(key)+2, "%s", strings.TrimPrefix(err.Error(), "assoc: "))
			}
			t.Type = ty
			state = 2
		case state == 2 && key == "generator":
			t.Generators = append(t.Generators, rest)
		case state == 2 && key == "prover":
			if t.Prover != "" {
				return nil, fail(1, "second prover line")
			}
			t.Prover = rest
		default:
			state = 3
			e, err := ParseEntryLine(line, t.Type)
			if err != nil {
				return nil, TableErrorAt(name, lineNo, 1, err)
			}
			root := e.Elems[0].Op
			switch {
			case root != lastRoot && seenRoot[root]:
				return nil, fail(1, "entry with root %v apart from the other %v entries (entries are grouped by root)", root, root)
			case root == lastRoot && e.Leaves < lastLeaves:
				return nil, fail(5, "entry of %d leaves after one of %d (a group is ordered by leaves)", e.Leaves, lastLeaves)
			}
			seenRoot[root] = true
			lastRoot, lastLeaves = root, e.Leaves
			t.Entries = append(t.Entries, *e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if state < 2 {
		lineNo++
		return nil, fail(1, "table ends before its header (%q and a type line)", tableMagic+" v1")
	}
	return t, nil
}

// ReadTableFile loads the table file name.
func ReadTableFile(name string) (*Table, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return LoadTable(f, name)
}

// The shipped tables: tables/<type>.txt, generated by nestor assoc gen
// (each file's first comment gives the command), with the primitives of
// tables/hand.txt proved for the type; a process loads their packed form,
// tables/<type>.bin (tablebin.go), which go generate writes from the
// text.

//go:generate go run ./internal/packtables

//go:embed tables
var tableFiles embed.FS

var embedded struct {
	sync.Mutex
	tables map[Type]*Table
}

// Embedded returns the shipped table of t. The table is loaded once and
// shared: callers must not modify it.
func Embedded(t Type) (*Table, error) {
	embedded.Lock()
	defer embedded.Unlock()
	if tb, ok := embedded.tables[t]; ok {
		return tb, nil
	}
	if t >= numTypes {
		return nil, fmt.Errorf("assoc: no table for %v", t)
	}
	name := "tables/" + t.String() + ".bin"
	data, err := tableFiles.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("assoc: no shipped table for %v", t)
	}
	tb := &Table{}
	if err := tb.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("assoc/%s: %v", name, strings.TrimPrefix(err.Error(), "assoc: "))
	}
	if tb.Type != t {
		return nil, fmt.Errorf("assoc/%s: table of %v, want %v", name, tb.Type, t)
	}
	if embedded.tables == nil {
		embedded.tables = map[Type]*Table{}
	}
	embedded.tables[t] = tb
	return tb, nil
}

// The larger operators of a type (tables/<type>.more.txt, packed as
// .more.bin: the 6-leaf 1-tuples of int32, tens of thousands) are kept
// apart from its table, so that a process matching a common update loads
// only the small one; Recognize consults them (EmbeddedAll) only for an
// update the small table does not recognize.

var embeddedAll struct {
	sync.Mutex
	tables map[Type]*Table
}

// EmbeddedMore returns the shipped larger operators of t, nil when there
// are none. Each call decodes them (EmbeddedAll keeps them).
func EmbeddedMore(t Type) (*Table, error) {
	if t >= numTypes {
		return nil, nil
	}
	name := "tables/" + t.String() + ".more.bin"
	data, err := tableFiles.ReadFile(name)
	if err != nil {
		return nil, nil
	}
	tb := &Table{}
	if err := tb.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("assoc/%s: %v", name, strings.TrimPrefix(err.Error(), "assoc: "))
	}
	if tb.Type != t {
		return nil, fmt.Errorf("assoc/%s: table of %v, want %v", name, tb.Type, t)
	}
	return tb, nil
}

// EmbeddedAll returns the shipped table of t with its larger operators
// (EmbeddedMore), in one table; the shipped table itself when t has none.
// Loaded once and shared: callers must not modify it.
func EmbeddedAll(t Type) (*Table, error) {
	embeddedAll.Lock()
	defer embeddedAll.Unlock()
	if tb, ok := embeddedAll.tables[t]; ok {
		return tb, nil
	}
	base, err := Embedded(t)
	if err != nil {
		return nil, err
	}
	more, err := EmbeddedMore(t)
	if err != nil {
		return nil, err
	}
	all := base
	if more != nil {
		all = &Table{Type: t, Version: base.Version, Prover: base.Prover,
			Generators: append(slices.Clone(base.Generators), more.Generators...),
			Entries:    append(slices.Clone(base.Entries), more.Entries...)}
		SortEntries(all.Entries)
	}
	if embeddedAll.tables == nil {
		embeddedAll.tables = map[Type]*Table{}
	}
	embeddedAll.tables[t] = all
	return all, nil
}

// HandOp is a higher-dimensional primitive of tables/hand.txt, which the
// enumeration cannot reach: its name, its operator in the notation, and
// its line in the file.
type HandOp struct {
	Name, Src string
	Line      int
	// Types lists the types the primitive is for (nil: every type but
	// Bool): a saturating add is one per unsigned type, Kadane's tuple is
	// associative only where the arithmetic does not wrap.
	Types []Type
}

// For reports whether h is a primitive of type t.
func (h HandOp) For(t Type) bool { return t != Bool && (h.Types == nil || slices.Contains(h.Types, t)) }

// HandOps returns the primitives of the shipped tables/hand.txt.
func HandOps() ([]HandOp, error) {
	data, err := tableFiles.ReadFile("tables/hand.txt")
	if err != nil {
		return nil, fmt.Errorf("assoc: %v", err)
	}
	return ParseHandOps(string(data), "assoc/tables/hand.txt")
}

// ParseHandOps reads a list of primitives: one per line, "name ; operator"
// or "name ; operator ; types" (types separated by commas), with #
// comments.
func ParseHandOps(src, file string) ([]HandOp, error) {
	var out []HandOp
	for i, line := range strings.Split(src, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, op, ok := strings.Cut(line, entrySep)
		if !ok || strings.TrimSpace(name) == "" {
			return nil, &TableError{File: file, Line: i + 1, Col: 1, Msg: fmt.Sprintf("want \"name%soperator\"", entrySep)}
		}
		h := HandOp{Name: strings.TrimSpace(name), Src: op, Line: i + 1}
		if src, types, ok := strings.Cut(op, entrySep); ok {
			h.Src = src
			for _, ts := range strings.Split(types, ",") {
				t, err := ParseType(strings.TrimSpace(ts))
				if err != nil {
					return nil, &TableError{File: file, Line: i + 1, Col: len(name) + len(src) + 2*len(entrySep) + 1, Msg: strings.TrimPrefix(err.Error(), "assoc: ")}
				}
				h.Types = append(h.Types, t)
			}
		}
		out = append(out, h)
	}
	return out, nil
}

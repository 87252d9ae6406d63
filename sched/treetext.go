package sched

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"nestor/ir"
)

// String prints t as isl prints schedule trees, in YAML-like lines:
//
//	domain: "[n] -> { S0[i, j]; S1[i, j, k] }"
//	child:
//	  sequence:
//	  - filter: "{ S0[i, j] }"
//	    child:
//	      band:
//	        schedule: "[n] -> [{ S0[i, j] -> [(i)] }, { S0[i, j] -> [(j)] }]"
//	        permutable: 1
//	        coincident: [ 1, 1 ]
//	        coincident_for: [ [S0], [S0] ]
//
// A node without a child line has a leaf below it. coincident_for is
// nestor's: per member, the statements whose dependences it does not
// carry (a loop of the member around only those is parallel).
func (t *Tree) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "domain: %q\n", t.tuples(allStmts(len(t.Stmts)), true))
	if t.Root != nil && t.Root.Kind != LeafNode {
		b.WriteString("child:\n")
		t.print(&b, t.Root, "  ")
	}
	return b.String()
}

func allStmts(n int) []int {
	all := make([]int, n)
	for k := range all {
		all[k] = k
	}
	return all
}

// tuples prints "[n] -> { S0[i, j]; S1[i, j, k] }" (with params) or
// "{ S0[i, j] }".
func (t *Tree) tuples(stmts []int, params bool) string {
	var parts []string
	for _, s := range stmts {
		parts = append(parts, fmt.Sprintf("%s[%s]", t.Stmts[s], strings.Join(t.Iters[s], ", ")))
	}
	set := "{ " + strings.Join(parts, "; ") + " }"
	if params && len(t.Params) > 0 {
		set = "[" + strings.Join(t.Params, ", ") + "] -> " + set
	}
	return set
}

func (t *Tree) print(b *strings.Builder, nd *TreeNode, in string) {
	switch nd.Kind {
	case SequenceNode:
		fmt.Fprintf(b, "%ssequence:\n", in)
		for _, f := range nd.Children {
			fmt.Fprintf(b, "%s- filter: %q\n", in, t.tuples(f.Stmts, false))
			if len(f.Children) == 1 && f.Children[0].Kind != LeafNode {
				fmt.Fprintf(b, "%s  child:\n", in)
				t.print(b, f.Children[0], in+"    ")
			}
		}
	case BandNode:
		fmt.Fprintf(b, "%sband:\n", in)
		var members []string
		for _, rows := range nd.Rows {
			var maps []string
			for _, s := range nd.Stmts {
				names := ir.Names{Iter: t.Iters[s], Param: t.Params}
				maps = append(maps, fmt.Sprintf("%s[%s] -> [(%s)]", t.Stmts[s], strings.Join(t.Iters[s], ", "), ir.FormatAff(rows[s], names)))
			}
			members = append(members, "{ "+strings.Join(maps, "; ")+" }")
		}
		sched := "[" + strings.Join(members, ", ") + "]"
		if len(t.Params) > 0 {
			sched = "[" + strings.Join(t.Params, ", ") + "] -> " + sched
		}
		fmt.Fprintf(b, "%s  schedule: %q\n", in, sched)
		fmt.Fprintf(b, "%s  permutable: %d\n", in, b2i(nd.Permutable))
		var coin, coinFor []string
		for m := range nd.Rows {
			coin = append(coin, strconv.Itoa(b2i(nd.Coincident[m].All)))
			var names []string
			for _, s := range nd.Stmts {
				if nd.Coincident[m].Of(s) {
					names = append(names, t.Stmts[s])
				}
			}
			coinFor = append(coinFor, "["+strings.Join(names, ", ")+"]")
		}
		fmt.Fprintf(b, "%s  coincident: [ %s ]\n", in, strings.Join(coin, ", "))
		fmt.Fprintf(b, "%s  coincident_for: [ %s ]\n", in, strings.Join(coinFor, ", "))
		if l := nd.Layout; l != nil {
			fmt.Fprintf(b, "%s  layout_order: %s\n", in, intList(l.Order))
			if l.Tile {
				fmt.Fprintf(b, "%s  layout_tiles: %s\n", in, intList(l.Tiles))
				fmt.Fprintf(b, "%s  layout_sizes: %s\n", in, intList(l.Sizes))
				fmt.Fprintf(b, "%s  layout_wavefront: %d\n", in, b2i(l.Wavefront))
			}
			if l.Sink >= 0 {
				fmt.Fprintf(b, "%s  layout_sink: %d\n", in, l.Sink)
			}
			fmt.Fprintf(b, "%s  layout_marks: %s\n", in, l.Marks)
		}
		if len(nd.Children) == 1 && nd.Children[0].Kind != LeafNode {
			fmt.Fprintf(b, "%s  child:\n", in)
			t.print(b, nd.Children[0], in+"    ")
		}
	}
}

// intList prints [ 1, 0, 2 ].
func intList[T int | int64](xs []T) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, strconv.FormatInt(int64(x), 10))
	}
	return "[ " + strings.Join(parts, ", ") + " ]"
}

// parseInts reads what intList prints.
func parseInts(v string) ([]int64, error) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return nil, fmt.Errorf("want [ n, ... ], have %q", v)
	}
	var out []int64
	for _, f := range strings.Split(v[1:len(v)-1], ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("want [ n, ... ], have %q", v)
		}
		out = append(out, n)
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ParseTree reads the text String prints. Statements are named in the
// domain line, with their counters; band rows are affine forms over those
// counters and the domain's parameters.
func ParseTree(text string) (*Tree, error) {
	p := &treeParser{}
	for n, raw := range strings.Split(text, "\n") {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		ind := len(raw) - len(strings.TrimLeft(raw, " "))
		p.lines = append(p.lines, treeLine{ind, strings.TrimSpace(raw), n + 1})
	}
	t, err := p.tree()
	if err != nil {
		return nil, err
	}
	return t, nil
}

type treeLine struct {
	indent int
	text   string
	no     int
}

type treeParser struct {
	lines []treeLine
	pos   int
	t     *Tree
	index map[string]int
}

func (p *treeParser) errorf(format string, args ...any) error {
	no := 0
	if p.pos < len(p.lines) {
		no = p.lines[p.pos].no
	} else if len(p.lines) > 0 {
		no = p.lines[len(p.lines)-1].no
	}
	return fmt.Errorf("schedule tree, line %d: %s", no, fmt.Sprintf(format, args...))
}

// next returns the value of the line at indent with key, and advances.
func (p *treeParser) next(indent int, key string) (string, error) {
	if p.pos >= len(p.lines) {
		return "", p.errorf("missing %q", key)
	}
	l := p.lines[p.pos]
	if l.indent != indent || !strings.HasPrefix(l.text, key+":") {
		return "", p.errorf("want %q at indentation %d, have %q", key, indent, l.text)
	}
	p.pos++
	v := strings.TrimSpace(strings.TrimPrefix(l.text, key+":"))
	if strings.HasPrefix(v, `"`) {
		u, err := strconv.Unquote(v)
		if err != nil {
			return "", p.errorf("bad string %s", v)
		}
		v = u
	}
	return v, nil
}

// peek reports whether the next line is key at indent.
func (p *treeParser) peek(indent int, key string) bool {
	return p.pos < len(p.lines) && p.lines[p.pos].indent == indent && strings.HasPrefix(p.lines[p.pos].text, key+":")
}

func (p *treeParser) tree() (*Tree, error) {
	dom, err := p.next(0, "domain")
	if err != nil {
		return nil, err
	}
	p.t = &Tree{}
	p.index = map[string]int{}
	params, body := splitParams(dom)
	p.t.Params = params
	tuples, err := p.tupleList(body)
	if err != nil {
		return nil, err
	}
	var all []int
	for _, tp := range tuples {
		if _, dup := p.index[tp.name]; dup {
			return nil, p.errorf("statement %s twice in the domain", tp.name)
		}
		p.index[tp.name] = len(p.t.Stmts)
		all = append(all, len(p.t.Stmts))
		p.t.Stmts = append(p.t.Stmts, tp.name)
		p.t.Iters = append(p.t.Iters, tp.iters)
	}
	p.t.Root = &TreeNode{Kind: LeafNode, Stmts: all}
	if p.peek(0, "child") {
		p.pos++
		if p.t.Root, err = p.node(2, all); err != nil {
			return nil, err
		}
	}
	if p.pos < len(p.lines) {
		return nil, p.errorf("unexpected %q", p.lines[p.pos].text)
	}
	return p.t, nil
}

// node reads the band or sequence at indent running stmts.
func (p *treeParser) node(indent int, stmts []int) (*TreeNode, error) {
	switch {
	case p.peek(indent, "band"):
		p.pos++
		return p.band(indent+2, stmts)
	case p.peek(indent, "sequence"):
		p.pos++
		seq := &TreeNode{Kind: SequenceNode, Stmts: stmts}
		var covered []int
		for p.pos < len(p.lines) && p.lines[p.pos].indent == indent && strings.HasPrefix(p.lines[p.pos].text, "- filter:") {
			p.lines[p.pos].text = strings.TrimPrefix(p.lines[p.pos].text, "- ")
			v, err := p.next(indent, "filter")
			if err != nil {
				return nil, err
			}
			tuples, err := p.tupleList(v)
			if err != nil {
				return nil, err
			}
			var group []int
			for _, tp := range tuples {
				s, ok := p.index[tp.name]
				if !ok || !slices.Contains(stmts, s) {
					return nil, p.errorf("filter names %s, not a statement of the enclosing node", tp.name)
				}
				if slices.Contains(covered, s) {
					return nil, p.errorf("statement %s in two filters", tp.name)
				}
				covered = append(covered, s)
				group = append(group, s)
			}
			slices.Sort(group)
			f := &TreeNode{Kind: FilterNode, Stmts: group, Children: []*TreeNode{{Kind: LeafNode, Stmts: group}}}
			if p.peek(indent+2, "child") {
				p.pos++
				if f.Children[0], err = p.node(indent+4, group); err != nil {
					return nil, err
				}
			}
			seq.Children = append(seq.Children, f)
		}
		if len(covered) != len(stmts) {
			return nil, p.errorf("the filters of a sequence cover %d of its %d statements", len(covered), len(stmts))
		}
		return seq, nil
	}
	if p.pos < len(p.lines) {
		return nil, p.errorf("want a band or a sequence at indentation %d, have %q", indent, p.lines[p.pos].text)
	}
	return nil, p.errorf("want a band or a sequence")
}

func (p *treeParser) band(indent int, stmts []int) (*TreeNode, error) {
	v, err := p.next(indent, "schedule")
	if err != nil {
		return nil, err
	}
	_, body := splitParams(v)
	body = strings.TrimSpace(body)
	if !strings.HasPrefix(body, "[") || !strings.HasSuffix(body, "]") {
		return nil, p.errorf("a band's schedule is [{ ... }, ...]")
	}
	n := len(p.t.Stmts)
	band := &TreeNode{Kind: BandNode, Stmts: stmts}
	for _, member := range splitTop(body[1:len(body)-1], ',') {
		rows := make([]ir.Aff, n)
		seen := map[int]bool{}
		m := strings.TrimSpace(member)
		if !strings.HasPrefix(m, "{") || !strings.HasSuffix(m, "}") {
			return nil, p.errorf("a band member is { S[i] -> [(expr)]; ... }")
		}
		for _, entry := range splitTop(m[1:len(m)-1], ';') {
			lhs, rhs, ok := strings.Cut(entry, "->")
			if !ok {
				return nil, p.errorf("a member's entry is S[i] -> [(expr)], have %q", entry)
			}
			tp, err := parseTuple(lhs)
			if err != nil {
				return nil, p.errorf("%v", err)
			}
			s, ok := p.index[tp.name]
			if !ok || !slices.Contains(stmts, s) {
				return nil, p.errorf("band row of %s, not a statement of the band", tp.name)
			}
			rhs = strings.TrimSpace(rhs)
			if !strings.HasPrefix(rhs, "[") || !strings.HasSuffix(rhs, "]") {
				return nil, p.errorf("a row is [(expr)], have %q", rhs)
			}
			a, err := parseAff(rhs[1:len(rhs)-1], tp.iters, p.t.Params)
			if err != nil {
				return nil, p.errorf("%v", err)
			}
			rows[s], seen[s] = a, true
		}
		if len(seen) != len(stmts) {
			return nil, p.errorf("a band member gives rows for %d of its %d statements", len(seen), len(stmts))
		}
		band.Rows = append(band.Rows, rows)
	}
	perm, err := p.next(indent, "permutable")
	if err != nil {
		return nil, err
	}
	band.Permutable = perm == "1"
	coin, err := p.next(indent, "coincident")
	if err != nil {
		return nil, err
	}
	for _, c := range splitTop(strings.Trim(strings.TrimSpace(coin), "[]"), ',') {
		free := make([]bool, n)
		all := strings.TrimSpace(c) == "1"
		if all {
			for _, s := range stmts {
				free[s] = true
			}
		}
		band.Coincident = append(band.Coincident, Coincidence{All: all, For: free})
	}
	if len(band.Coincident) != len(band.Rows) {
		return nil, p.errorf("coincident has %d entries for %d members", len(band.Coincident), len(band.Rows))
	}
	if p.peek(indent, "coincident_for") {
		v, _ := p.next(indent, "coincident_for")
		v = strings.TrimSpace(v)
		if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
			return nil, p.errorf("coincident_for is [ [S0, ...], ... ]")
		}
		lists := splitTop(v[1:len(v)-1], ',')
		if len(lists) != len(band.Rows) {
			return nil, p.errorf("coincident_for has %d entries for %d members", len(lists), len(band.Rows))
		}
		for m, l := range lists {
			for _, name := range splitTop(strings.Trim(strings.TrimSpace(l), "[]"), ',') {
				if name = strings.TrimSpace(name); name == "" {
					continue
				}
				s, ok := p.index[name]
				if !ok || !slices.Contains(stmts, s) {
					return nil, p.errorf("coincident_for names %s, not a statement of the band", name)
				}
				band.Coincident[m].For[s] = true
			}
		}
	}
	if err := p.layout(indent, band); err != nil {
		return nil, err
	}
	band.Children = []*TreeNode{{Kind: LeafNode, Stmts: stmts}}
	if p.peek(indent, "child") {
		p.pos++
		if band.Children[0], err = p.node(indent+2, stmts); err != nil {
			return nil, err
		}
	}
	return band, nil
}

// layout reads a band's layout_ lines, when it has them. The layout's
// Dims and Band are not in the text: SetLayouts' caller knows them.
func (p *treeParser) layout(indent int, band *TreeNode) error {
	if !p.peek(indent, "layout_order") {
		return nil
	}
	l := &Layout{Sink: -1}
	ints := func(key string) ([]int64, error) {
		v, err := p.next(indent, key)
		if err != nil {
			return nil, err
		}
		xs, err := parseInts(v)
		if err != nil {
			return nil, p.errorf("%s: %v", key, err)
		}
		return xs, nil
	}
	toInt := func(xs []int64) []int {
		out := make([]int, len(xs))
		for k, x := range xs {
			out[k] = int(x)
		}
		return out
	}
	order, err := ints("layout_order")
	if err != nil {
		return err
	}
	l.Order = toInt(order)
	if p.peek(indent, "layout_tiles") {
		tiles, err := ints("layout_tiles")
		if err != nil {
			return err
		}
		if l.Sizes, err = ints("layout_sizes"); err != nil {
			return err
		}
		w, err := p.next(indent, "layout_wavefront")
		if err != nil {
			return err
		}
		l.Tile, l.Tiles, l.Wavefront = true, toInt(tiles), w == "1"
	}
	if p.peek(indent, "layout_sink") {
		v, _ := p.next(indent, "layout_sink")
		k, err := strconv.Atoi(v)
		if err != nil {
			return p.errorf("layout_sink: want a member index, have %q", v)
		}
		l.Sink = k
	}
	if p.peek(indent, "layout_marks") {
		v, _ := p.next(indent, "layout_marks")
		m, err := ParseMarks(v)
		if err != nil {
			return p.errorf("layout_marks: %v", err)
		}
		l.Marks = m
	}
	band.Layout = l
	return nil
}

// splitParams splits "[n, m] -> rest" into the parameter names and rest.
func splitParams(s string) ([]string, string) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") {
		return nil, s
	}
	end := strings.Index(s, "]")
	rest := strings.TrimSpace(s[end+1:])
	if end < 0 || !strings.HasPrefix(rest, "->") {
		return nil, s
	}
	var names []string
	for _, n := range strings.Split(s[1:end], ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names, strings.TrimSpace(strings.TrimPrefix(rest, "->"))
}

// splitTop splits s at sep outside brackets, braces and parentheses.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:k])
				start = k + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" || len(parts) > 0 {
		parts = append(parts, s[start:])
	}
	return parts
}

type tuple struct {
	name  string
	iters []string
}

// tupleList reads "{ S0[i, j] : constraints; S1[k] }" (constraints are
// ignored: the program's domains are the statements' own).
func (p *treeParser) tupleList(s string) ([]tuple, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, p.errorf("want { S[i, ...]; ... }, have %q", s)
	}
	var out []tuple
	for _, part := range splitTop(s[1:len(s)-1], ';') {
		head, _, _ := strings.Cut(part, ":")
		tp, err := parseTuple(head)
		if err != nil {
			return nil, p.errorf("%v", err)
		}
		out = append(out, tp)
	}
	return out, nil
}

// parseTuple reads "S0[i, j]".
func parseTuple(s string) (tuple, error) {
	s = strings.TrimSpace(s)
	open := strings.Index(s, "[")
	if open <= 0 || !strings.HasSuffix(s, "]") {
		return tuple{}, fmt.Errorf("want S[i, ...], have %q", s)
	}
	tp := tuple{name: strings.TrimSpace(s[:open])}
	for _, it := range strings.Split(s[open+1:len(s)-1], ",") {
		if it = strings.TrimSpace(it); it != "" {
			tp.iters = append(tp.iters, it)
		}
	}
	return tp, nil
}

// parseAff reads an affine form over iters and params as FormatAff
// prints it, in optional parentheses: "2*i - j + n - 1", "(-k)", "0".
func parseAff(s string, iters, params []string) (ir.Aff, error) {
	a := ir.Aff{Iter: make([]int64, len(iters)), Param: make([]int64, len(params))}
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if s == "" {
		return a, fmt.Errorf("empty affine form")
	}
	s = strings.ReplaceAll(s, "-", "+-")
	for _, term := range strings.Split(s, "+") {
		term = strings.ReplaceAll(term, " ", "")
		if term == "" {
			continue
		}
		sign := int64(1)
		if strings.HasPrefix(term, "-") {
			sign, term = -1, term[1:]
		}
		coef, name := int64(1), term
		if c, n, ok := strings.Cut(term, "*"); ok {
			v, err := strconv.ParseInt(c, 10, 64)
			if err != nil {
				return a, fmt.Errorf("bad coefficient %q", c)
			}
			coef, name = v, n
		} else if v, err := strconv.ParseInt(term, 10, 64); err == nil {
			a.Const += sign * v
			continue
		}
		if k := slices.Index(iters, name); k >= 0 {
			a.Iter[k] += sign * coef
		} else if k := slices.Index(params, name); k >= 0 {
			a.Param[k] += sign * coef
		} else {
			return a, fmt.Errorf("unknown name %q in %q", name, s)
		}
	}
	return a, nil
}

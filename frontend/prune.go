package frontend

// Declaring only what the file uses. A flattened header (cache.go) is cut
// into its top-level declarations, each with the names it declares and the
// identifiers it mentions; a translation unit then gets only the
// declarations its own identifiers need, closed under what those mention
// and under the system macros they name. The user's identifiers are every
// identifier of the source and of the files it includes with quotes, and
// of the -D values; a declaration needed later than its header is emitted
// where the need is found (before the header that needs it). So are the
// #define and #undef lines: a header's lines for a name the file needs are
// kept, those of other names are held back, and a name needed later (a
// needed macro's body names it) gets its held-back lines, in order, before
// the header whose need found it. A flattened header's own text is already
// expanded, so only the user's files read macros, and they read only the
// names they mention; a header read as it is (cache.go) may test any
// macro, so it first gets every line held back (rest). Names made by
// token pasting cannot be
// seen this way: a user macro or a needed system macro with ## turns the
// pruning off for the rest of the file, which then gets every declaration.

import (
	"strings"

	"modernc.org/cc/v4"
)

// chunk is one top-level declaration of a flattened header.
type chunk struct {
	Text string
	Decl []string // the names it declares: objects, functions, typedefs, tags, enumerators
	Refs []string // every identifier in it
}

// macroLine is one #define or #undef line of a flattened header.
type macroLine struct {
	Name  string
	Line  string
	Refs  []string // the identifiers of its body
	Paste bool     // its body pastes tokens (##)
}

// ctoken is a token of the declarations' text.
type ctoken struct {
	text       string
	ident      bool
	start, end int
}

// tokenize splits preprocessed C into identifiers, literals and single
// punctuation characters; a line starting with # is one token.
func tokenize(src string) []ctoken {
	var out []ctoken
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#' && lineStart:
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			out = append(out, ctoken{text: src[i : i+j], start: i, end: i + j})
			i += j
			continue
		}
		lineStart = false
		j := i + 1
		switch {
		case isIdentStart(c):
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			out = append(out, ctoken{text: src[i:j], ident: true, start: i, end: j})
			i = j
			continue
		case c >= '0' && c <= '9' || c == '.' && j < len(src) && src[j] >= '0' && src[j] <= '9':
			for j < len(src) && (isIdentChar(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && strings.ContainsRune("eEpP", rune(src[j-1]))) {
				j++
			}
		case c == '"' || c == '\'':
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
		}
		out = append(out, ctoken{text: src[i:j], start: i, end: j})
		i = j
	}
	return out
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

// notDeclared are keywords and GNU spellings that look like names.
var notDeclared = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct
		switch typedef union unsigned void volatile while _Bool _Complex _Imaginary _Alignas _Alignof
		_Atomic _Generic _Noreturn _Static_assert _Thread_local __extension__ __inline __inline__
		__restrict __restrict__ __const __const__ __volatile __volatile__ __signed __signed__
		__typeof __typeof__ typeof __thread __attribute __attribute__ __asm __asm__ asm __declspec
		__int128 __label__ __alignof__ __builtin_va_list _Float16 _Float32 _Float64 _Float128
		_Float32x _Float64x _Float128x __float128 __ibm128 __auto_type __complex__ __real__ __imag__`) {
		notDeclared[k] = true
	}
}

// attributeLike are the words whose parenthesized argument declares nothing.
var attributeLike = map[string]bool{"__attribute__": true, "__attribute": true, "__asm__": true,
	"__asm": true, "asm": true, "__declspec": true, "__typeof__": true, "__typeof": true, "typeof": true,
	"sizeof": true, "_Alignas": true, "_Alignof": true, "__alignof__": true, "_Static_assert": true}

// splitDecls cuts the declarations of a flattened header at the top-level
// ";" and at the "}" that ends a function body, and finds what each
// declares: at file level a name followed by ( ; = [ , ) : or an
// attribute, a name after struct, union or enum, a name in "(*name", and
// the enumerators of an enum's braces.
func splitDecls(src string) []chunk {
	toks := tokenize(src)
	var out []chunk
	start := 0 // token index of the chunk's first token
	paren, brace := 0, 0
	funcBody := false
	skipAt := -1 // paren depth of an attribute's argument being skipped
	var enumBraces []int
	decl, refs := map[string]bool{}, map[string]bool{}
	flush := func(end int) {
		if end < start {
			return
		}
		c := chunk{Text: src[toks[start].start:toks[end].end]}
		for n := range decl {
			c.Decl = append(c.Decl, n)
		}
		for n := range refs {
			c.Refs = append(c.Refs, n)
		}
		out = append(out, c)
		start, funcBody = end+1, false
		decl, refs = map[string]bool{}, map[string]bool{}
	}
	text := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].text
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if strings.HasPrefix(t.text, "#") {
			if i == start && paren == 0 && brace == 0 {
				flush(i) // a directive line between declarations: its own chunk
			}
			continue
		}
		switch t.text {
		case "(":
			paren++
			if attributeLike[text(i-1)] && skipAt < 0 {
				skipAt = paren
			}
		case ")":
			if paren == skipAt {
				skipAt = -1
			}
			paren--
		case "{":
			if paren == 0 && brace == 0 && text(i-1) == ")" {
				funcBody = true
			}
			brace++
			if text(i-1) == "enum" || text(i-2) == "enum" {
				enumBraces = append(enumBraces, brace)
			}
		case "}":
			if n := len(enumBraces); n > 0 && enumBraces[n-1] == brace {
				enumBraces = enumBraces[:n-1]
			}
			brace--
			if brace == 0 && paren == 0 && funcBody {
				flush(i)
				continue
			}
		case ";":
			if brace == 0 && paren == 0 {
				flush(i)
				continue
			}
		}
		if !t.ident {
			continue
		}
		refs[t.text] = true
		if skipAt >= 0 || notDeclared[t.text] {
			continue
		}
		prev, next := text(i-1), text(i+1)
		switch {
		case prev == "struct" || prev == "union" || prev == "enum":
			decl[t.text] = true
		case paren == 0 && brace == 0 && (strings.Contains("(;=[,):", next) && next != "" || attributeLike[next]):
			decl[t.text] = true
		case prev == "*" && text(i-2) == "(" && brace == 0:
			decl[t.text] = true
		case len(enumBraces) > 0 && enumBraces[len(enumBraces)-1] == brace && (prev == "{" || prev == ","):
			decl[t.text] = true
		}
	}
	if start < len(toks) {
		flush(len(toks) - 1)
	}
	return out
}

// parseMacroLine reads a "#define NAME ..." or "#undef NAME" line.
func parseMacroLine(line string) macroLine {
	m := macroLine{Line: line}
	rest := strings.TrimPrefix(strings.TrimPrefix(line, "#define "), "#undef ")
	j := 0
	for j < len(rest) && isIdentChar(rest[j]) {
		j++
	}
	m.Name, rest = rest[:j], rest[j:]
	seen := map[string]bool{}
	for _, id := range identRE.FindAllString(rest, -1) {
		if !seen[id] {
			seen[id] = true
			m.Refs = append(m.Refs, id)
		}
	}
	m.Paste = strings.Contains(rest, "##")
	return m
}

// pruner chooses the declarations of the flattened headers of one
// translation unit.
type pruner struct {
	off     bool // print every declaration
	need    map[string]bool
	queue   []string
	recs    []*headerRecord
	kept    [][]bool // per record and chunk: needed
	emitted [][]bool // per record and chunk: printed already
	said    [][]bool // per record and macro line: printed already
	decl    map[string][][2]int
	macros  map[string][]*macroLine
}

func newPruner(idents map[string]bool, off bool) *pruner {
	p := &pruner{off: off, need: map[string]bool{}, decl: map[string][][2]int{}, macros: map[string][]*macroLine{}}
	for id := range idents {
		p.want(id)
	}
	return p
}

func (p *pruner) want(id string) {
	if !p.need[id] {
		p.need[id] = true
		p.queue = append(p.queue, id)
	}
}

// add takes the record of the next header and returns the text cc reads
// for it: the declarations needed now and not printed yet, from it and
// from the headers before it, then its macro lines.
func (p *pruner) add(r *headerRecord) string {
	k := len(p.recs)
	p.recs = append(p.recs, r)
	p.kept = append(p.kept, make([]bool, len(r.Chunks)))
	p.emitted = append(p.emitted, make([]bool, len(r.Chunks)))
	p.said = append(p.said, make([]bool, len(r.Macros)))
	for j, c := range r.Chunks {
		if len(c.Decl) == 0 {
			p.keep(k, j) // declares nothing we can name: kept
		}
		for _, d := range c.Decl {
			p.decl[d] = append(p.decl[d], [2]int{k, j})
			if p.need[d] {
				p.keep(k, j)
			}
		}
	}
	for j := range r.Macros {
		m := &r.Macros[j]
		p.macros[m.Name] = append(p.macros[m.Name], m)
		if p.need[m.Name] {
			p.useMacro(m)
		}
	}
	for len(p.queue) > 0 {
		id := p.queue[0]
		p.queue = p.queue[1:]
		for _, at := range p.decl[id] {
			p.keep(at[0], at[1])
		}
		for _, m := range p.macros[id] {
			p.useMacro(m)
		}
	}
	var b strings.Builder
	for i, rec := range p.recs {
		for j, c := range rec.Chunks {
			if (p.off || p.kept[i][j]) && !p.emitted[i][j] {
				p.emitted[i][j] = true
				b.WriteString(c.Text)
				b.WriteByte('\n')
			}
		}
	}
	p.writeMacros(&b, false)
	return b.String()
}

// writeMacros writes the macro lines not printed yet, in the order of the
// headers and of their lines: those of needed names, or all with every.
func (p *pruner) writeMacros(b *strings.Builder, every bool) {
	for i, rec := range p.recs {
		for j := range rec.Macros {
			m := &rec.Macros[j]
			if !p.said[i][j] && (every || p.off || p.need[m.Name]) {
				p.said[i][j] = true
				b.WriteString(m.Line)
				b.WriteByte('\n')
			}
		}
	}
}

// rest returns every macro line held back so far: the text a header read
// as it is must follow, so that it sees the macros as the headers before
// it left them.
func (p *pruner) rest() string {
	var b strings.Builder
	p.writeMacros(&b, true)
	return b.String()
}

func (p *pruner) keep(k, j int) {
	if p.kept[k][j] {
		return
	}
	p.kept[k][j] = true
	for _, id := range p.recs[k].Chunks[j].Refs {
		p.want(id)
	}
}

func (p *pruner) useMacro(m *macroLine) {
	if m.Paste {
		p.off = true // a pasted name cannot be traced: every declaration from here on
	}
	for _, id := range m.Refs {
		p.want(id)
	}
}

// implicitCall reports whether a function defined in the translation unit
// calls a name that no declaration resolves: C89 declares it implicitly,
// which cc accepts silently. A pruned header must never cause that, so a
// parse with flattened headers that shows one is repeated on the headers
// as they are.
func implicitCall(ast *cc.AST) bool {
	found := false
	for tu := ast.TranslationUnit; tu != nil && !found; tu = tu.TranslationUnit {
		ed := tu.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef {
			continue
		}
		walk(ed.FunctionDefinition, func(n cc.Node) bool {
			if pe, ok := n.(*cc.PostfixExpression); ok && pe.Case == cc.PostfixExpressionCall {
				if id, ok := unparen(pe.PostfixExpression).(*cc.PrimaryExpression); ok && id.Case == cc.PrimaryExpressionIdent && !declaredCallee(id) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// declaredCallee reports whether the name id resolves to has a
// declaration: cc synthesizes one for an implicitly declared function, and
// for the compiler's builtins, which no header declares.
func declaredCallee(id *cc.PrimaryExpression) bool {
	name := id.Token.SrcStr()
	for _, p := range []string{"__builtin_", "__sync_", "__atomic_", "__c11_atomic_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	d, ok := id.ResolvedTo().(*cc.Declarator)
	return ok && !d.IsSynthetic()
}

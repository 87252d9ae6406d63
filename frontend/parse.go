package frontend

import (
	"fmt"
	gotoken "go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"modernc.org/cc/v4"
	mtoken "modernc.org/token"
)

// expansionLimit bounds the tokens macro expansion may process in one
// parse, so that a few hundred bytes of hostile macros cannot run for hours.
const expansionLimit = 50_000_000

var (
	baseOnce sync.Once
	baseCfg  *cc.Config
	baseErr  error
)

// hostConfig returns the system compiler's configuration, computed once
// (cc.NewConfig runs the C compiler to learn its predefined macros) and
// kept in the cache (cache.go).
func hostConfig() (*cc.Config, error) {
	baseOnce.Do(func() {
		baseCfg, baseErr = cachedHostConfig()
	})
	return baseCfg, baseErr
}

// ParseFile reads the C file at path and parses it with Parse.
func ParseFile(path string, cfg Config) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src, cfg)
}

// Parse preprocesses and parses src (the contents of the file path) and
// translates each #pragma scop region into an ir.Program. User errors come
// back as an ErrorList; every other error is an internal one.
func Parse(path string, src []byte, cfg Config) (f *File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, internalError("panic: %v\n%s", r, debug.Stack())
		}
	}()
	f = &File{Path: path, Src: src}
	var errs ErrorList
	regions := findRegions(path, src, &errs)
	ast, err := translateC(path, src, cfg)
	if err != nil {
		return nil, err
	}
	p := &parser{path: path, src: src, ast: ast, errs: &errs}
	byFunc := map[*cc.FunctionDefinition]*Func{}
	for _, r := range regions {
		s, fd := p.scop(r)
		if s != nil {
			f.Scops = append(f.Scops, s)
			if byFunc[fd] == nil {
				byFunc[fd] = s.Func
			}
		}
	}
	f.Funcs = p.funcs(byFunc)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return f, nil
}

// translateC runs cc's preprocessor, parser and type checker on src, with
// the system headers flattened from the cache (cache.go) when it can; if
// that fails, or leaves a called function implicitly declared, it runs
// again on the headers as they are, whose result is the one returned.
func translateC(path string, src []byte, cfg Config) (*cc.AST, error) {
	host, err := hostConfig()
	if err != nil {
		return nil, fmt.Errorf("frontend: %v", err)
	}
	if hfs := newHeaderFS(path, src, cfg, host); hfs != nil {
		if ast, err := translate(path, src, cfg, host, hfs); err == nil && !implicitCall(ast) && !hfs.broken {
			return ast, nil
		}
		flatStats.retried.Add(1)
	}
	return translate(path, src, cfg, host, nil)
}

// translate is one run of cc on src; hfs, when not nil, serves the system
// headers. cc panics on some malformed inputs; that comes back as a user
// error at the start of the file, since the input is not valid C.
func translate(path string, src []byte, cfg Config, host *cc.Config, hfs *headerFS) (ast *cc.AST, err error) {
	defer func() {
		if r := recover(); r != nil {
			ast = nil
			err = ErrorList{{Pos: gotoken.Position{Filename: path, Line: 1, Column: 1},
				Msg: fmt.Sprintf("the C parser failed on this input (%v)", r)}}
		}
	}()
	c := *host
	if hfs != nil {
		c.FS = hfs
	}
	dir := filepath.Dir(path)
	// "" is the including file's folder; -I folders come before the
	// system ones, and must be in SysIncludePaths too for <...>.
	c.IncludePaths = append([]string{"", dir}, cfg.IncludePaths...)
	c.IncludePaths = append(c.IncludePaths, host.IncludePaths...)
	c.SysIncludePaths = append(append([]string{}, cfg.IncludePaths...), host.SysIncludePaths...)
	c.ExpansionLimit = expansionLimit
	var pre strings.Builder
	pre.WriteString(host.Predefined)
	pre.WriteString("\n")
	for _, d := range cfg.Defines {
		name, val, ok := strings.Cut(d, "=")
		if !ok {
			val = "1"
		}
		fmt.Fprintf(&pre, "#define %s %s\n", name, val)
	}
	srcs := []cc.Source{
		{Name: "<predefined>", Value: pre.String()},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: path, Value: src},
	}
	ast, err = cc.Translate(&c, srcs)
	if err != nil && hfs != nil {
		return nil, err // translateC tries again, on the headers as they are
	}
	if err != nil {
		return nil, userErrors(&c, srcs, path, ccErrors(path, err))
	}
	return ast, nil
}

// ccPos matches the position prefix of one of cc's error messages.
var ccPos = regexp.MustCompile(`^(.*?):(\d+):(\d+): ?(.*)$`)

// ccErrors turns cc's newline-separated messages into an ErrorList.
func ccErrors(path string, err error) ErrorList {
	var errs ErrorList
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if m := ccPos.FindStringSubmatch(line); m != nil {
			ln, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			errs.Add(gotoken.Position{Filename: m[1], Line: ln, Column: col}, m[4])
			continue
		}
		errs.Add(gotoken.Position{Filename: path}, line)
	}
	errs.Sort()
	return errs
}

// goPos converts a position of modernc.org/token.
func goPos(p mtoken.Position) gotoken.Position {
	return gotoken.Position{Filename: p.Filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// region is one #pragma scop ... #pragma endscop pair in the raw source.
type region struct {
	start, end int              // Scop.Start and Scop.End
	indent     string           // Scop.Indent
	pos        gotoken.Position // of the '#' of "#pragma scop"
	endPos     gotoken.Position // of the '#' of "#pragma endscop"
}

// pragmaLine matches a scop pragma line: "#pragma scop", "# pragma endscop",
// with any blanks and a trailing comment.
var pragmaLine = regexp.MustCompile(`^([ \t]*)#[ \t]*pragma[ \t]+(scop|endscop)[ \t]*(?://.*|/\*.*)?\r?$`)

// findRegions scans the raw lines of src for scop pragmas; unmatched ones
// are errors.
func findRegions(path string, src []byte, errs *ErrorList) []region {
	var out []region
	var open *region
	off := 0
	for line := 1; off <= len(src); line++ {
		end := off
		for end < len(src) && src[end] != '\n' {
			end++
		}
		text := string(src[off:end])
		next := end + 1
		if next > len(src) {
			next = len(src)
		}
		if m := pragmaLine.FindStringSubmatch(text); m != nil {
			pos := gotoken.Position{Filename: path, Offset: off + len(m[1]), Line: line, Column: len(m[1]) + 1}
			switch m[2] {
			case "scop":
				if open != nil {
					errs.Add(pos, "#pragma scop inside the region opened at line "+strconv.Itoa(open.pos.Line))
					break
				}
				open = &region{start: next, indent: m[1], pos: pos}
			case "endscop":
				if open == nil {
					errs.Add(pos, "#pragma endscop without #pragma scop")
					break
				}
				open.end, open.endPos = off, pos
				out = append(out, *open)
				open = nil
			}
		}
		if end >= len(src) {
			break
		}
		off = end + 1
	}
	if open != nil {
		errs.Add(open.pos, "#pragma scop without #pragma endscop")
	}
	return out
}

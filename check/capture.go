package check

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"nestor/frontend"
	"nestor/ir"
)

// Execute's harness also reports the function locals its region reads:
// their values are computed by the kernel before the region, where the
// harness cannot reach. It builds an instrumented copy of the original file
// in which the line after "#pragma scop" writes every local of the scop to
// the harness's input file when nestor_capture is set (only in mode "in",
// once), followed by a #line directive that restores the numbering and
// name of the user's file. Compare never instruments.

// captureDecls come before the kernel's file in the harness: the
// instrumented region refers to them.
const captureDecls = `static void *nestor_capture; /* the FILE * of mode "in" while the kernel runs */
static void nestor_capture_put(const char *, const void *, __SIZE_TYPE__, int, int, const long long *);
`

// captureFuncs define what captureDecls declare, after the prelude.
const captureFuncs = `
static void nestor_capture_put(const char *nestor_name, const void *nestor_p, __SIZE_TYPE__ nestor_size, int nestor_ld, int nestor_rank, const long long *nestor_d) {
	size_t nestor_n = 1;
	for (int nestor_k = 0; nestor_k < nestor_rank; nestor_k++)
		nestor_n *= nestor_d[nestor_k] > 0 ? (size_t)nestor_d[nestor_k] : 0;
	printf("\n"); /* in case the kernel left a line unfinished */
	nestor_dims(nestor_name, nestor_rank, nestor_d);
	if (nestor_ld) {
		const long double *nestor_q = nestor_p;
		for (size_t nestor_k = 0; nestor_k < nestor_n; nestor_k++) {
			double nestor_x = (double)nestor_q[nestor_k];
			nestor_write(nestor_capture, &nestor_x, sizeof nestor_x);
		}
	} else
		nestor_write(nestor_capture, nestor_p, nestor_n * nestor_size);
}
`

// planCapture sets h.locals to the function locals of the region's
// program that the harness can capture; it warns about the others.
func (h *harness) planCapture(scop *frontend.Scop) {
	p := scop.Prog
	names := ir.Names{Param: ir.ParamNames(p)}
	for _, a := range p.Arrays {
		if a.Storage != ir.FuncLocal || h.value(a.Name) != nil || h.local(a.Name) != nil {
			continue
		}
		v := &value{name: a.Name, elem: a.Elem, role: roleLocal, rank: a.Rank(), members: a.Members != nil}
		ok := true
		for _, d := range a.Dims {
			if absent(d) {
				ok = false
				break
			}
			v.dims = append(v.dims, "("+ir.FormatAff(d, names)+")")
		}
		if !ok {
			h.warnings = append(h.warnings, fmt.Sprintf("local %s not captured: it has no first size", a.Name))
			continue
		}
		h.locals = append(h.locals, v)
	}
}

func (h *harness) local(name string) *value {
	for _, v := range slices.Concat(h.locals, h.endLocals) {
		if v.name == name {
			return v
		}
	}
	return nil
}

// captureLine is the C line inserted at the start of the region.
func (h *harness) captureLine() string {
	var b strings.Builder
	b.WriteString("if (nestor_capture) {")
	for _, v := range h.locals {
		ld := 0
		if v.elem == ir.LongDouble {
			ld = 1
		}
		addr, dims := "&"+v.name, "0"
		if v.rank > 0 {
			if !v.members || v.rank > 1 {
				addr = v.name // an array: its address (a struct's is &v)
			}
			dims = "(const long long[]){" + strings.Join(wrapEach(v.dims, "(long long)", ""), ", ") + "}"
		}
		size := fmt.Sprintf("sizeof(%s)", cType(v.elem))
		if ld == 1 {
			size = "sizeof(0.0L)" // not "long double", which the reference's macros rewrite
		}
		fmt.Fprintf(&b, " nestor_capture_put(\"%s\", (const void *)%s, %s, %d, %d, %s);", v.name, addr, size, ld, v.rank, dims)
	}
	b.WriteString(" nestor_capture = 0; }")
	return b.String()
}

// instrument writes the copy of the original file f whose region scop
// captures h.locals to dir and returns its path.
func (h *harness) instrument(dir string, f *frontend.File, scop *frontend.Scop) (string, error) {
	src := f.Src
	if scop.Start <= 0 || scop.Start > len(src) || src[scop.Start-1] != '\n' {
		return "", fmt.Errorf("check: %s: the region does not start a line", scop.Pos)
	}
	line := 1 + bytes.Count(src[:scop.Start], []byte("\n"))
	var b bytes.Buffer
	fmt.Fprintf(&b, "#line 1 \"%s\"\n", h.origPath)
	b.Write(src[:scop.Start])
	fmt.Fprintf(&b, "%s\n#line %d \"%s\"\n", h.captureLine(), line, h.origPath)
	b.Write(src[scop.Start:])
	path := filepath.Join(dir, "capture", filepath.Base(f.Path))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("check: %v", err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("check: %v", err)
	}
	return path, nil
}

// The end capture. When the regions are in main, what they compute often
// lives in main's own variables, which the harness cannot reach after main
// returned. Compare then builds both variants from copies of their files
// whose last region of main ends with a line that writes those variables
// (the locals the regions write, and the arrays declared in the region) to
// the output file of mode "out", once. The optimized file keeps the
// pragma lines, so its region is found the same way.

// planEndCapture sets h.endLocals to the variables of main that the
// kernel's regions write and the harness can capture at the end of its
// last region: function locals of any rank, and arrays declared in the
// region (nestor declares them first in its output, under their names).
func (h *harness) planEndCapture(scops []*frontend.Scop) {
	seen := map[string]bool{}
	for _, s := range scops {
		p := s.Prog
		names := ir.Names{Param: ir.ParamNames(p)}
	arrays:
		for k, a := range p.Arrays {
			if seen[a.Name] || !p.Writes(k) || h.value(a.Name) != nil ||
				!(a.Storage == ir.FuncLocal || a.Storage == ir.ScopLocal && a.Rank() > 0) {
				continue
			}
			v := &value{name: a.Name, elem: a.Elem, role: roleLocal, rank: a.Rank(), members: a.Members != nil, written: true}
			for _, d := range a.Dims {
				if absent(d) || len(d.Param) > 0 && slices.ContainsFunc(d.Param, func(c int64) bool { return c != 0 }) {
					continue arrays // only constant sizes are known after main returns
				}
				v.dims = append(v.dims, "("+ir.FormatAff(d, names)+")")
			}
			seen[a.Name] = true
			h.endLocals = append(h.endLocals, v)
		}
	}
}

// endCaptureLine is the C line inserted at the end of the region.
func (h *harness) endCaptureLine() string {
	saved := h.locals
	h.locals = h.endLocals
	defer func() { h.locals = saved }()
	return h.captureLine()
}

// instrumentEnd writes to dir/sub a copy of the file src (at path, text
// text) whose k-th region (counting every "#pragma endscop" line) ends with
// the end capture line, and returns its path.
func (h *harness) instrumentEnd(dir, sub, path string, text []byte, k int) (string, error) {
	off, n := 0, 0
	at := -1
	for off < len(text) {
		end := bytes.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text) - off
		}
		line := text[off : off+end]
		if endscopLine.Match(line) {
			if n == k {
				at = off
				break
			}
			n++
		}
		off += end + 1
	}
	if at < 0 {
		return "", fmt.Errorf("check: %s: no region %d to capture main's variables at", path, k+1)
	}
	line := 1 + bytes.Count(text[:at], []byte("\n"))
	var b bytes.Buffer
	fmt.Fprintf(&b, "#line 1 \"%s\"\n", path)
	b.Write(text[:at])
	fmt.Fprintf(&b, "%s\n#line %d \"%s\"\n", h.endCaptureLine(), line, path)
	b.Write(text[at:])
	out := filepath.Join(dir, sub, filepath.Base(path))
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", fmt.Errorf("check: %v", err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("check: %v", err)
	}
	return out, nil
}

// endscopLine matches a "#pragma endscop" line as the frontend finds it.
var endscopLine = regexp.MustCompile(`^[ \t]*#[ \t]*pragma[ \t]+endscop[ \t]*(?://.*|/\*.*)?\r?$`)

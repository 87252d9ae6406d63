package frontend

// The preprocessing cache. Most of a parse of a small kernel file went to
// its system headers: cc.NewConfig runs the C compiler twice to learn its
// predefined macros and include paths, and cc's preprocessor then walks the
// few dozen files behind <math.h> or <stdio.h> for every run. Both results
// are kept on disk, in the user's cache folder (NESTOR_CACHE names another
// folder; NESTOR_CACHE=off turns the cache off):
//
//   - the host configuration, keyed by the compiler's path, size and
//     modification time;
//   - each system header, flattened: the compiler's own preprocessor
//     (cc -E -dD) expands it once, in the context of the system headers
//     included before it, and cc then reads the declarations it produced
//     followed by the #define and #undef lines that leave the macros as the
//     header leaves them. A record is keyed by the compiler, the -D and -I
//     flags, the header's name and the system headers before it, and lists
//     every file the compiler read, with size and modification time: a
//     record whose files changed is rebuilt;
//   - the text each header was served as, pruned for a file's identifiers
//     (prune.go), keyed by those identifiers and the records before it:
//     a file parsed again reads a few kilobytes per header instead of
//     decoding and pruning its record (see servedRecord).
//
// A flattened header means what the header means only when no macro of the
// user's files can change its expansion. The user's files (the source and
// the files it includes with quotes) are scanned for the names they
// #define or #undef; a header whose files or expansion mention one of them
// is read as it is, as is every header after it. Any parse that fails with
// flattened headers is repeated without them, so errors are always those of
// the headers as written.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"modernc.org/cc/v4"
)

// cacheVersion changes whenever the format or the meaning of a record
// changes; it is part of every key.
const cacheVersion = "nestor-pp-4"

// cacheEnv names the cache folder, or "off".
const cacheEnv = "NESTOR_CACHE"

// cacheRoot returns the cache folder, or "" when caching is off.
func cacheRoot() string {
	switch v := os.Getenv(cacheEnv); v {
	case "off":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(d, "nestor")
	default:
		return v
	}
}

// hostRecord is the part of cc.Config that cc.NewConfig learns by running
// the compiler.
type hostRecord struct {
	Key                                   string
	CC, Predefined                        string
	IncludePaths, SysIncludePaths         []string
	HostIncludePaths, HostSysIncludePaths []string
}

// compilerStamp identifies the compiler cc.NewConfig would run ($CC, cc or
// gcc, the first on PATH): its name, path, size and modification time.
func compilerStamp() (string, bool) {
	for _, c := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if c == "" {
			continue
		}
		p, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("%s|%s|%s/%s|%s|%d|%d", cacheVersion, c, runtime.GOOS, runtime.GOARCH, p, fi.Size(), fi.ModTime().UnixNano()), true
	}
	return "", false
}

// cachedHostConfig returns the host configuration from the cache, or runs
// cc.NewConfig and records its result.
func cachedHostConfig() (*cc.Config, error) {
	root := cacheRoot()
	stamp, ok := compilerStamp()
	if root == "" || !ok {
		return cc.NewConfig(runtime.GOOS, runtime.GOARCH)
	}
	file := filepath.Join(root, "host-"+hash(stamp)+".json")
	var r hostRecord
	if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &r) == nil && r.Key == stamp {
		abi, err := cc.NewABI(runtime.GOOS, runtime.GOARCH)
		if err == nil && !c23(r.Predefined) {
			return &cc.Config{ABI: abi, CC: r.CC, Predefined: r.Predefined,
				IncludePaths: r.IncludePaths, SysIncludePaths: r.SysIncludePaths,
				HostIncludePaths: r.HostIncludePaths, HostSysIncludePaths: r.HostSysIncludePaths}, nil
		}
	}
	c, err := cc.NewConfig(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return nil, err
	}
	r = hostRecord{Key: stamp, CC: c.CC, Predefined: c.Predefined,
		IncludePaths: c.IncludePaths, SysIncludePaths: c.SysIncludePaths,
		HostIncludePaths: c.HostIncludePaths, HostSysIncludePaths: c.HostSysIncludePaths}
	if b, err := json.Marshal(r); err == nil {
		writeAtomic(file, b)
	}
	return c, nil
}

// c23 reports whether the predefined macros select C23, for which
// cc.NewConfig adjusts the keywords (which a Config built here cannot):
// such a compiler is asked every time.
func c23(predefined string) bool {
	m := regexp.MustCompile(`(?m)^#define __STDC_VERSION__ (\d+)L`).FindStringSubmatch(predefined)
	if m == nil {
		return false
	}
	v, err := strconv.Atoi(m[1])
	return err != nil || v >= 202000
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}

// writeAtomic writes b to file through a temporary file and a rename, so
// that concurrent runs never read half a record. Failures are ignored: the
// cache is only a cache.
func writeAtomic(file string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if err2 := tmp.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// headerRecord is one flattened system header in one context.
type headerRecord struct {
	Key    string
	Files  []fileStamp // every file the compiler read for it
	Idents []string    // every identifier of those files and of the output
	Chunks []chunk     // the declarations, in order (prune.go)
	Macros []macroLine // the #define and #undef lines, in order
}

type fileStamp struct {
	Path  string
	Size  int64
	MTime int64
}

func stampOf(path string) (fileStamp, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, false
	}
	return fileStamp{Path: path, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}, true
}

// headerFS serves the system headers of one translation unit flattened
// (see the top of this file); it is the FS of the cc.Config. Any other
// name is not found in it, and cc then reads the file itself.
type headerFS struct {
	root     string
	host     *cc.Config
	stamp    string   // of the compiler (compilerStamp)
	sysDirs  []string // the host's include folders: what counts as a system header
	flags    []string // -D and -I for the compiler, absolute
	user     map[string]bool
	ctx      []string // the headers served so far, as named in <...>
	ctxPaths []string // and the files they are
	off      bool     // a header could not be flattened: cc reads the rest itself
	prune    *pruner  // the declarations the file needs (prune.go)
	// chain names what the pruner's next output depends on: its first
	// needs and the records given to it so far (servedKey).
	chain string
	// lag are the records served from their pruned text (served.go
	// below) that the pruner has not been given yet.
	lag []lagRecord
	// broken says a record changed between a run that served its pruned
	// text and this one: the parse is repeated on the real headers.
	broken bool
}

// lagRecord is a header record served from its pruned text, which the
// pruner catches up on only when it must (catchUp).
type lagRecord struct{ key, file string }

// newHeaderFS returns the FS for parsing src (the file path) with cfg, or
// nil when the cache is off or the user's files cannot be scanned for
// their macros.
func newHeaderFS(path string, src []byte, cfg Config, host *cc.Config) *headerFS {
	root := cacheRoot()
	if root == "" {
		return nil
	}
	user, idents, paste, ok := userMacros(path, src, cfg)
	stamp, ok2 := compilerStamp()
	if !ok || !ok2 {
		return nil
	}
	for _, d := range cfg.Defines {
		addIdents(idents, d)
	}
	addIdents(idents, host.Predefined)
	h := &headerFS{root: root, host: host, stamp: stamp, user: user, prune: newPruner(idents, paste || pruneOff)}
	h.chain = firstChain(idents, user, paste || pruneOff)
	for _, d := range append(slices.Clone(host.HostIncludePaths), host.HostSysIncludePaths...) {
		if d = filepath.Clean(d); filepath.IsAbs(d) && !slices.Contains(h.sysDirs, d) {
			h.sysDirs = append(h.sysDirs, d)
		}
	}
	for _, d := range cfg.Defines {
		h.flags = append(h.flags, "-D", d)
	}
	for _, d := range cfg.IncludePaths {
		if a, err := filepath.Abs(d); err == nil {
			d = a
		}
		h.flags = append(h.flags, "-I", d)
	}
	return h
}

// Open implements fs.FS: a system header opens as a file whose contents
// are flattened when first read; any other name is not in this FS.
func (h *headerFS) Open(name string) (fs.File, error) {
	path := filepath.FromSlash(name)
	if h.off || !filepath.IsAbs(path) {
		return nil, fs.ErrNotExist
	}
	for _, d := range h.sysDirs {
		rel, err := filepath.Rel(d, path)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		fi, err := os.Stat(path)
		if err != nil || fi.IsDir() {
			return nil, fs.ErrNotExist
		}
		return &flatFile{h: h, path: path, rel: filepath.ToSlash(rel), info: fi}, nil
	}
	return nil, fs.ErrNotExist
}

// flatFile is a system header served by a headerFS. Opening it costs
// nothing (__has_include only opens); reading it flattens it, or reads
// the file as it is when that cannot be done.
type flatFile struct {
	h         *headerFS
	path, rel string
	info      fs.FileInfo
	r         io.Reader
}

func (f *flatFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *flatFile) Close() error               { return nil }

func (f *flatFile) Read(b []byte) (int, error) {
	if f.r == nil {
		text, err := f.h.flatten(f.rel, f.path)
		if err != nil {
			f.h.off = true
			raw, err := os.ReadFile(f.path)
			if err != nil {
				return 0, err
			}
			// The macros the pruner held back, then the header as it is,
			// its lines numbered as in the file.
			if !f.h.catchUp() {
				return 0, fmt.Errorf("frontend: %s: the cache changed while it was read", f.path)
			}
			if rest := f.h.prune.rest(); rest != "" {
				raw = append([]byte(rest+"#line 1 "+strconv.Quote(f.path)+"\n"), raw...)
			}
			text = raw
		}
		f.r = bytes.NewReader(text)
	}
	return f.r.Read(b)
}

// flatStats counts, for tests, the headers served flattened, those
// refused because of a user macro, and the parses repeated on the real
// headers.
var flatStats struct{ served, refused, retried, fromText atomic.Int64 }

// errUserMacro: a macro of the user's files could change the header.
var errUserMacro = errors.New("frontend: a user macro appears in the header")

// flatten returns the flattened text of the system header rel in the
// context of the headers served before it, from the cache or from the
// compiler.
//
// The key holds the file each name resolved to (the header and those
// before it): a header installed later in an earlier folder of the search
// path makes a new record.
func (h *headerFS) flatten(rel, path string) ([]byte, error) {
	key := strings.Join([]string{cacheVersion, h.host.CC, h.stamp, strings.Join(h.flags, "\x00"),
		strings.Join(h.sysDirs, "\x00"), strings.Join(h.ctxPaths, "\x00"), rel, path}, "\x01")
	file := filepath.Join(h.root, "headers", hash(key)+".gob")
	// The guard makes a second #include of the header empty, as the
	// header's own guard would: cc reuses what it read the first time.
	guard := "NESTOR_FLAT_" + hash(rel)
	wrap := func(text string) []byte {
		return []byte("#ifndef " + guard + "\n#define " + guard + "\n" + text + "#endif\n")
	}
	skey := h.chain + "\x02" + key
	sfile := filepath.Join(h.root, "served", hash(skey)+".gob")
	if text, ok := readServed(sfile, skey); ok {
		flatStats.served.Add(1)
		flatStats.fromText.Add(1)
		h.lag = append(h.lag, lagRecord{key, file})
		h.ctx, h.ctxPaths = append(h.ctx, rel), append(h.ctxPaths, path)
		h.chain = hash(h.chain + "\x03" + key)
		return wrap(text), nil
	}
	if !h.catchUp() {
		return nil, errors.New("frontend: the cache changed while it was read")
	}
	var r headerRecord
	if b, err := os.ReadFile(file); err != nil || gob.NewDecoder(bytes.NewReader(b)).Decode(&r) != nil || r.Key != key || !fresh(r.Files) {
		var err error
		if r, err = h.build(rel); err != nil {
			return nil, err
		}
		r.Key = key
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(r); err == nil {
			writeAtomic(file, b.Bytes())
		}
	}
	for _, id := range r.Idents {
		if h.user[id] {
			flatStats.refused.Add(1)
			return nil, errUserMacro
		}
	}
	flatStats.served.Add(1)
	h.ctx, h.ctxPaths = append(h.ctx, rel), append(h.ctxPaths, path)
	text := h.prune.add(&r)
	h.chain = hash(h.chain + "\x03" + key)
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(servedRecord{Key: skey, Files: r.Files, Text: text}); err == nil {
		writeAtomic(sfile, b.Bytes())
	}
	return wrap(text), nil
}

// The pruned text of a header (prune.go) depends on the record, on the
// file's identifiers and on the records the pruner was given before it;
// for a file whose identifiers were seen before (a file built again), it
// is kept as it was served, so that the next run reads a few kilobytes of
// text instead of decoding the record of every declaration and macro of
// the header and pruning it again. The key chains the pruner's inputs:
// firstChain of the file's needs, then each record's key (which names the
// compiler, the flags, the headers before it and the header's files); the
// record's files are checked as the record's own are. The pruner is
// given the records skipped so only when a later header needs it
// (catchUp): a header not served so, or one read as it is.

// servedRecord is the pruned text of one header in one chain.
type servedRecord struct {
	Key   string
	Files []fileStamp
	Text  string
}

// firstChain names the pruner's first inputs: the identifiers the file
// needs, the macros it defines, and whether pruning is off.
func firstChain(idents, user map[string]bool, off bool) string {
	var b strings.Builder
	b.WriteString(cacheVersion)
	for _, set := range []map[string]bool{idents, user} {
		b.WriteString("\x01")
		for _, id := range slices.Sorted(maps.Keys(set)) {
			b.WriteString(id + " ")
		}
	}
	fmt.Fprintf(&b, "\x01%v", off)
	return hash(b.String())
}

// readServed returns the served text of key from file, if it is there and
// its files are unchanged.
func readServed(file, key string) (string, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	var r servedRecord
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&r) != nil || r.Key != key || !fresh(r.Files) {
		return "", false
	}
	return r.Text, true
}

// catchUp gives the pruner the records served from their text, in order,
// dropping what it would print (the text served printed it). It reports
// false when a record is missing or changed since its text was served.
func (h *headerFS) catchUp() bool {
	for _, l := range h.lag {
		var r headerRecord
		b, err := os.ReadFile(l.file)
		if err != nil || gob.NewDecoder(bytes.NewReader(b)).Decode(&r) != nil || r.Key != l.key || !fresh(r.Files) {
			h.lag, h.broken = nil, true
			return false
		}
		h.prune.add(&r)
	}
	h.lag = nil
	return true
}

// fresh reports whether every file is as it was stamped.
func fresh(files []fileStamp) bool {
	for _, f := range files {
		if g, ok := stampOf(f.Path); !ok || g != f {
			return false
		}
	}
	return len(files) > 0
}

// flatMarker separates, in the compiler's output, the context headers from
// the header being flattened.
const flatMarker = "nestor_flat_marker_"

// flatTimeout bounds one run of the compiler's preprocessor.
const flatTimeout = 30 * time.Second

// build runs the compiler's preprocessor on the context headers, a
// marker and the header rel, and keeps what follows the marker.
func (h *headerFS) build(rel string) (headerRecord, error) {
	var drv strings.Builder
	for _, c := range h.ctx {
		fmt.Fprintf(&drv, "#include <%s>\n", c)
	}
	fmt.Fprintf(&drv, "%s\n#include <%s>\n", flatMarker, rel)
	args := append([]string{"-E", "-dD", "-H"}, h.flags...)
	args = append(args, "-x", "c", "-")
	cmd := exec.Command(h.host.CC, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.Stdin = strings.NewReader(drv.String())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	timer := time.AfterFunc(flatTimeout, func() {
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
	})
	err := cmd.Run()
	timer.Stop()
	if err != nil {
		return headerRecord{}, fmt.Errorf("frontend: %s -E: %v", h.host.CC, err)
	}
	var decls, macros strings.Builder
	idents := map[string]bool{}
	files := map[string]bool{}
	after := false
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if !after {
			after = strings.TrimSpace(line) == flatMarker
			continue
		}
		t := strings.TrimLeft(line, " \t")
		switch {
		case lineMarker.MatchString(t):
			if m := lineMarker.FindStringSubmatch(t); m != nil && filepath.IsAbs(m[1]) {
				files[m[1]] = true
			}
			continue
		case strings.HasPrefix(t, "#define ") || strings.HasPrefix(t, "#undef "):
			macros.WriteString(t + "\n")
		case t == "":
			continue
		default:
			decls.WriteString(line + "\n")
		}
		addIdents(idents, line)
	}
	if !after {
		return headerRecord{}, fmt.Errorf("frontend: %s -E: no marker in the output", h.host.CC)
	}
	// -H lists every header the compiler opened, with dots for the depth;
	// those of the context come before the marker's header, but a context
	// header's guard keeps it from changing the output.
	for _, line := range strings.Split(stderr.String(), "\n") {
		if p := strings.TrimLeft(line, "."); len(p) < len(line) && strings.HasPrefix(p, " ") {
			files[strings.TrimSpace(p)] = true
		}
	}
	r := headerRecord{Chunks: splitDecls(decls.String())}
	for _, line := range strings.Split(macros.String(), "\n") {
		if line != "" {
			r.Macros = append(r.Macros, parseMacroLine(line))
		}
	}
	for p := range files {
		s, ok := stampOf(p)
		if !ok {
			return headerRecord{}, fmt.Errorf("frontend: %s: cannot stat %s", rel, p)
		}
		r.Files = append(r.Files, s)
		raw, err := os.ReadFile(p)
		if err != nil {
			return headerRecord{}, err
		}
		addIdents(idents, stripComments(string(raw)))
	}
	slices.SortFunc(r.Files, func(a, b fileStamp) int { return strings.Compare(a.Path, b.Path) })
	for id := range idents {
		r.Idents = append(r.Idents, id)
	}
	slices.Sort(r.Idents)
	return r, nil
}

// stripComments returns src with its C comments, string and character
// literals blanked: a header's comments name macros it never reads.
func stripComments(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			end := len(b)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			blank(b[i:end])
			i = end - 1
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			end := i
			for end < len(b) && b[end] != '\n' {
				end++
			}
			blank(b[i:end])
			i = end - 1
		case b[i] == '"' || b[i] == '\'':
			q, end := b[i], i+1
			for end < len(b) && b[end] != q && b[end] != '\n' {
				if b[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end+1, len(b))
			blank(b[i:end])
			i = end - 1
		}
	}
	return string(b)
}

func blank(b []byte) {
	for k := range b {
		if b[k] != '\n' {
			b[k] = ' '
		}
	}
}

// lineMarker matches the compiler's "# 12 "file" 1 3 4" lines.
var lineMarker = regexp.MustCompile(`^# \d+ "([^"]*)"`)

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

func addIdents(set map[string]bool, text string) {
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isIdentStart(c):
			j := i + 1
			for j < len(text) && isIdentChar(text[j]) {
				j++
			}
			set[text[i:j]] = true
			i = j
		case c >= '0' && c <= '9':
			for i < len(text) && isIdentChar(text[i]) { // a number's suffix is no name
				i++
			}
		default:
			i++
		}
	}
}

var (
	macroDirective   = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*(?:define|undef)[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)
	includeDirective = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include(?:_next)?[ \t]*(.)([^">\n]*)`)
)

// userMacros returns the names that the user's files #define or #undef,
// and every identifier in them: the file src and, recursively, the files
// it includes with quotes that are not system headers. paste reports a
// ## in them; ok is false for an include it cannot follow (a computed
// #include).
func userMacros(path string, src []byte, cfg Config) (names, idents map[string]bool, paste, ok bool) {
	names, idents = map[string]bool{}, map[string]bool{}
	seen := map[string]bool{}
	var pastes []string // the files that paste tokens
	var scan func(path string, src []byte) bool
	scan = func(path string, src []byte) bool {
		for _, m := range macroDirective.FindAllSubmatch(src, -1) {
			names[string(m[1])] = true
		}
		code := stripComments(string(src))
		addIdents(idents, code)
		if strings.Contains(code, "##") {
			pastes = append(pastes, code)
		}
		for _, m := range includeDirective.FindAllSubmatch(src, -1) {
			switch string(m[1]) {
			case "<":
				continue // a system header, flattened or read as it is
			case `"`:
			default:
				return false
			}
			name := string(m[2])
			for _, d := range append([]string{filepath.Dir(path)}, cfg.IncludePaths...) {
				p := filepath.Join(d, name)
				if seen[p] {
					break
				}
				b, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				seen[p] = true
				if !scan(p, b) {
					return false
				}
				break
			}
		}
		return true
	}
	ok = scan(path, src)
	paste = false
	for _, code := range pastes {
		paste = paste || !pastedNames(code, idents)
	}
	return names, idents, paste, ok
}

// pasteDefine matches a #define line (continuations joined) that pastes.
var pasteDefine = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*(\(([^)]*)\))?(.*##.*)$`)

// pastedNames adds to idents the names the pasting macros of code can
// make from the user's identifiers: an operand of ## that is a parameter
// stands for any identifier of the user's files (an argument comes from
// them), or for nothing. It reports false when it cannot tell (a paste of
// three operands, or of a pasted result).
func pastedNames(code string, idents map[string]bool) bool {
	code = strings.ReplaceAll(code, "\\\n", " ")
	user := slices.Collect(maps.Keys(idents))
	for _, m := range pasteDefine.FindAllStringSubmatch(code, -1) {
		params := map[string]bool{}
		for _, p := range strings.Split(m[2], ",") {
			params[strings.TrimSpace(p)] = true
		}
		body := m[3]
		for {
			k := strings.Index(body, "##")
			if k < 0 {
				break
			}
			left := lastWord(body[:k])
			right := firstWord(body[k+2:])
			if strings.HasPrefix(strings.TrimLeft(body[k+2:], " \t")[len(right):], "##") || strings.HasPrefix(right, "#") {
				return false
			}
			for _, l := range operand(left, params, user) {
				for _, r := range operand(right, params, user) {
					if l+r != "" {
						idents[l+r] = true
					}
				}
			}
			body = body[k+2:]
		}
	}
	return true
}

// operand is what one side of ## can be: the word itself, or for a
// parameter any identifier of the user's, or nothing.
func operand(w string, params map[string]bool, user []string) []string {
	if params[w] || w == "__VA_ARGS__" {
		return append([]string{""}, user...)
	}
	return []string{w}
}

func lastWord(s string) string {
	s = strings.TrimRight(s, " \t")
	i := len(s)
	for i > 0 && isIdentChar(s[i-1]) {
		i--
	}
	return s[i:]
}

func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && isIdentChar(s[i]) {
		i++
	}
	return s[:i]
}

// pruneOff turns off the pruning of declarations (for tests).
var pruneOff = false

// Package isloracle is a test-only oracle for dependence analysis: it
// describes an ir.Program in isl notation (Describe) and asks a small C
// helper built against Debian's libisl-dev for the memory-based flow, anti
// and output dependences between statement instances (Oracle.Deps), or
// whether candidate relations equal isl's (Oracle.Equal).
//
// # Invariants
//
// Every relation of a Model lives in one parameter space (Model.Params).
// Schedules are the 2d+1 original schedules of ir.Stmt.Schedule, padded
// with zeros to one length, so the lexicographic order on them is
// ir.Less. Names that would clash in isl (a counter named like a
// parameter, a repeated counter, an isl keyword) are renamed, so the text
// always parses; statement and array names are kept when they can be.
//
// # Limits
//
// The helper is compiled with the system C compiler on first use and
// cached under os.UserCacheDir, keyed by the hash of its source; New
// returns an error wrapping ErrUnavailable when no compiler or no isl is
// found, which tests turn into a skip. Dependences are memory-based
// (every earlier access to the element, not only the last writer), and
// both sides of Equal are compared under the program's context.
package isloracle

// Package diag holds the errors that nestor's readers (the C frontend,
// the XLS IR parser) report about their input: an [Error] is a message at
// a position (file, line, column) and prints as "file:line:col: msg"; a
// [List] collects them, in the manner of go/scanner's ErrorList.
//
// # Invariants
//
// After [List.Sort], a list is ordered by file, line, column and message
// and holds at most one error per line (the first in that order). Err
// returns nil exactly when the list is empty, so a reader returns
// list.Err() and callers test for nil as usual. These are user errors
// (bad input); a reader reports a broken invariant of its own otherwise.
package diag

package xls

import "nestor/internal/diag"

// An Error is a problem in XLS IR text, at a position; it prints as
// file:line:col: msg.
type Error = diag.Error

// An ErrorList is the list of Errors that Parse returns: sorted by
// position, one per line, each on a line of its own when printed. It is
// the C frontend's type too.
type ErrorList = diag.List

package frontend

import (
	"fmt"

	"nestor/internal/diag"
)

// Error is a user error at a position in the input: bad C, or C outside
// the supported subset. It prints as "file:line:col: msg".
type Error = diag.Error

// ErrorList is a list of *Errors, like go/scanner's: Sort orders it by
// position and keeps one error per line, and Err returns nil when the list
// is empty. The XLS IR parser (outline/xls) returns the same type.
type ErrorList = diag.List

// notSCoP is the prefix of every message about a construct outside the
// supported subset.
const notSCoP = "not a static control part: "

// internalError reports a bug in the frontend (a broken invariant), never a
// problem with the input.
func internalError(format string, args ...any) error {
	return fmt.Errorf("frontend: internal error: "+format, args...)
}

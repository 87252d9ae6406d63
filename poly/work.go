package poly

// Work is a budget of arithmetic work that several poly operations share:
// a caller that must finish in bounded time, whatever its input (the
// scheduler's Farkas systems can grow exponentially with the depth of a
// nest), passes the same *Work to each operation, and once the work spent
// passes the limit every operation returns ErrLimit. Work is counted in
// deterministic units — one per tableau entry a simplex pivot updates, one
// per coefficient of a row Fourier–Motzkin combines — so a result never
// depends on the machine or its load. A nil *Work is unlimited.
//
// A Work is not safe for concurrent use.
type Work struct {
	limit, used int64
}

// NewWork returns a budget of limit units.
func NewWork(limit int64) *Work { return &Work{limit: limit} }

// Used returns the units spent so far (also past the limit: the operation
// that crossed it is charged in full).
func (w *Work) Used() int64 {
	if w == nil {
		return 0
	}
	return w.used
}

// Exhausted reports whether the budget is spent.
func (w *Work) Exhausted() bool { return w != nil && w.used > w.limit }

// overLimit is the panic value that aborts an operation whose Work is
// spent; catch turns it into ErrLimit.
type overLimit struct{}

// charge spends n units and aborts the operation (panic overLimit) when
// the budget is spent.
func (w *Work) charge(n int64) {
	if w == nil {
		return
	}
	w.used += n
	if w.used > w.limit {
		panic(overLimit{})
	}
}

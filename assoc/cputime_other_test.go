//go:build !linux

package assoc

// threadCPU is unavailable here: BenchmarkRecognize reports wall time only.
func threadCPU() (int64, bool) { return 0, false }

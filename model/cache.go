package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// MachineEnv names the environment variable that overrides where the
// measured machine is kept (a JSON file, read by Load and written by
// nestor machine).
const MachineEnv = "NESTOR_MACHINE"

// CachePath returns where the measurements of this host are kept:
// $NESTOR_MACHINE when set, else machine-<fingerprint>.json in the nestor
// folder of the user's cache folder.
func CachePath() (string, error) {
	if p := os.Getenv(MachineEnv); p != "" {
		return p, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("model: %w", err)
	}
	return filepath.Join(dir, "nestor", "machine-"+Host().Fingerprint+".json"), nil
}

// Load returns the measured machine cached for this host (CachePath), or
// Nominal when nothing was measured. A file that cannot be read or is not
// a machine returns Nominal with the error; so does a missing file that
// $NESTOR_MACHINE names.
func Load() (Machine, error) {
	path, err := CachePath()
	if err != nil {
		return Nominal(), nil
	}
	m, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && os.Getenv(MachineEnv) == "" {
		return Nominal(), nil
	}
	if err != nil {
		return Nominal(), err
	}
	return m, nil
}

// ReadFile reads a machine written by Save. A file for another
// fingerprint is read as it is: it describes the machine it was measured
// on.
func ReadFile(path string) (Machine, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Machine{}, fmt.Errorf("model: %w", err)
	}
	var m Machine
	if err := json.Unmarshal(b, &m); err != nil {
		return Machine{}, fmt.Errorf("model: %s: %w", path, err)
	}
	if m.Format != Format {
		return Machine{}, fmt.Errorf("model: %s: format %d, this nestor reads %d (run nestor machine --refresh)", path, m.Format, Format)
	}
	if err := m.validate(); err != nil {
		return Machine{}, fmt.Errorf("model: %s: %w", path, err)
	}
	return m, nil
}

// validate reports what breaks the package's invariants: a size,
// throughput or cost that is not positive.
func (m Machine) validate() error {
	if m.Cores < 1 || m.L1 <= 0 || m.L2 <= 0 || m.L3 <= 0 || m.VectorRegs <= 0 || m.VectorBytes <= 0 {
		return fmt.Errorf("not a machine: cores %d, caches %d %d %d, vector %d bytes, %d registers",
			m.Cores, m.L1, m.L2, m.L3, m.VectorBytes, m.VectorRegs)
	}
	rates := map[string]float64{"fma peak": m.FMAPeak, "fma latency": m.FMALatency, "vector load": m.VectorLoad,
		"vector store": m.VectorStore, "scalar load": m.ScalarLoad, "scalar store": m.ScalarStore}
	for _, b := range m.Read {
		rates[b.Level+" per core"], rates[b.Level+" all cores"] = b.PerCore, b.All
	}
	for name, costs := range map[string][]Overhead{"fork": m.ForkJoin, "barrier": m.Barrier, "wake": m.Wake} {
		for _, o := range costs {
			rates[fmt.Sprintf("OpenMP %s, %d threads", name, o.Threads)] = min(o.Min, o.Median)
		}
	}
	for name, x := range rates {
		if !(x > 0) {
			return fmt.Errorf("%s is %g, not positive", name, x)
		}
	}
	if len(m.ForkJoin) == 0 || len(m.Barrier) == 0 || len(m.Wake) == 0 {
		return errors.New("no OpenMP costs")
	}
	return nil
}

// Save writes m as indented JSON to path, creating its folder; the file
// is replaced whole (written aside, then renamed), so a reader never sees
// half of it.
func (m Machine) Save(path string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".machine-*.json")
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("model: %w", err)
	}
	return nil
}

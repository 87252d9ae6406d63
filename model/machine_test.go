package model

import "testing"

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{{"48K", 48 << 10, true}, {"32M", 32 << 20, true}, {"4096", 4096, true}, {"", 0, false}, {"-1K", 0, false}, {"xK", 0, false}} {
		got, ok := parseSize(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("parseSize(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestHostPositive(t *testing.T) {
	m := Host()
	if m.Cores < 1 || m.L1 <= 0 || m.L2 < m.L1 || m.L3 <= 0 {
		t.Errorf("Host() = %+v: sizes must be positive and L2 ≥ L1", m)
	}
}

func TestRegisterTile(t *testing.T) {
	for _, c := range []struct {
		regs       int
		rows, cols int64
	}{{32, 6, 4}, {16, 4, 2}} {
		r, k := Machine{VectorRegs: c.regs}.RegisterTile()
		if r != c.rows || k != c.cols {
			t.Errorf("%d registers: tile %d×%d, want %d×%d", c.regs, r, k, c.rows, c.cols)
		}
		if need := r*k + r + 2; need > int64(c.regs) {
			t.Errorf("%d registers: tile %d×%d needs %d", c.regs, r, k, need)
		}
	}
}

package check

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// run runs the harness exe in mode ("in", "out" or "time"), writing to file
// when mode is not "time", and returns what it wrote and the kernel's time.
func (h *harness) run(ctx context.Context, exe, mode, file string) (*Data, time.Duration, error) {
	return h.runEnv(ctx, exe, mode, file, nil)
}

// runEnv is run with the environment env (nil: nestor's own).
func (h *harness) runEnv(ctx context.Context, exe, mode, file string, env []string) (*Data, time.Duration, error) {
	args := []string{mode}
	if file != "" {
		args = append(args, file)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, 0, fmt.Errorf("check: running %s %s: %v\n%s", exe, mode, err, strings.TrimSpace(stderr.String()))
	}
	d := &Data{Params: map[string]int64{}}
	var t time.Duration
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], "nestor-") {
			continue // the kernel's own output
		}
		nums := make([]int64, 0, len(f))
		for _, s := range f[1:] {
			if x, err := strconv.ParseInt(s, 10, 64); err == nil {
				nums = append(nums, x)
			}
		}
		bad := func() error { return fmt.Errorf("check: %s %s: bad manifest line %q", exe, mode, sc.Text()) }
		switch f[0] {
		case "nestor-time":
			if len(f) != 2 || len(nums) != 1 {
				return nil, 0, bad()
			}
			t = time.Duration(nums[0])
		case "nestor-param":
			if len(f) != 3 || len(nums) != 1 {
				return nil, 0, bad()
			}
			d.Params[f[1]] = nums[0]
		case "nestor-array":
			if len(f) < 3 || len(nums) != len(f)-2 || int(nums[0]) != len(nums)-1 {
				return nil, 0, bad()
			}
			a := &ArrayData{Name: f[1]}
			if len(nums) > 1 {
				a.Dims = nums[1:]
			}
			d.Arrays = append(d.Arrays, a)
		}
	}
	if file == "" {
		return d, t, nil
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, 0, fmt.Errorf("check: %v", err)
	}
	if err := h.bindTypes(d); err != nil {
		return nil, 0, err
	}
	for _, a := range d.Arrays {
		n := a.Len() * storage(a.Elem).Size()
		if n > len(raw) {
			return nil, 0, fmt.Errorf("check: %s: %d bytes, too short for array %s", file, len(raw), a.Name)
		}
		a.Raw, raw = raw[:n:n], raw[n:]
	}
	if len(raw) != 0 {
		return nil, 0, fmt.Errorf("check: %s: %d bytes more than the manifest lists", file, len(raw))
	}
	return d, t, nil
}

// bindTypes sets the element types of d's arrays from the harness plan.
func (h *harness) bindTypes(d *Data) error {
	for _, a := range d.Arrays {
		v := h.value(a.Name)
		if v == nil {
			v = h.local(a.Name)
		}
		if v == nil || v.role == roleSize {
			return fmt.Errorf("check: harness wrote an unknown array %s", a.Name)
		}
		if v.rank != len(a.Dims) {
			return fmt.Errorf("check: harness wrote array %s with %d sizes, want %d", a.Name, len(a.Dims), v.rank)
		}
		a.Elem = v.elem
	}
	return nil
}

func (h *harness) value(name string) *value {
	for _, v := range h.values {
		if v.name == name {
			return v
		}
	}
	return nil
}

// Len is the number of elements of a.
func (a *ArrayData) Len() int {
	n := 1
	for _, d := range a.Dims {
		n *= int(max(d, 0))
	}
	return n
}

// At returns element k (in row-major order) of a.
func (a *ArrayData) At(k int) Value {
	t := storage(a.Elem)
	sz := t.Size()
	b := a.Raw[k*sz : (k+1)*sz]
	v := Value{T: a.Elem}
	le := binary.LittleEndian
	switch {
	case t.IsFloat() && sz == 4:
		v.F = float64(math.Float32frombits(le.Uint32(b)))
	case t.IsFloat():
		v.F = math.Float64frombits(le.Uint64(b))
	case sz == 1 && t.IsUnsigned():
		v.I = int64(b[0])
	case sz == 1:
		v.I = int64(int8(b[0]))
	case sz == 2 && t.IsUnsigned():
		v.I = int64(le.Uint16(b))
	case sz == 2:
		v.I = int64(int16(le.Uint16(b)))
	case sz == 4 && t.IsUnsigned():
		v.I = int64(le.Uint32(b))
	case sz == 4:
		v.I = int64(int32(le.Uint32(b)))
	default:
		v.I = int64(le.Uint64(b))
	}
	return v
}

// Index returns the index tuple of the k-th element in row-major order.
func (a *ArrayData) Index(k int) []int64 {
	idx := make([]int64, len(a.Dims))
	for r := len(a.Dims) - 1; r >= 0; r-- {
		if a.Dims[r] > 0 {
			idx[r] = int64(k) % a.Dims[r]
			k /= int(a.Dims[r])
		}
	}
	return idx
}

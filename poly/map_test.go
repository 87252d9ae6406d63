package poly

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

const mapCases = 400

// randMapSpace returns a space with 1..3 in dims, 1..3 out dims and 0..2
// params; out dims sometimes reuse the in dims' names.
func randMapSpace(rng *rand.Rand) MapSpace {
	sp := MapSpace{InName: "S", OutName: "T"}
	ni, no, np := 1+rng.IntN(3), 1+rng.IntN(3), rng.IntN(3)
	clash := rng.IntN(2) == 0
	for i := range ni {
		sp.In = append(sp.In, fmt.Sprintf("x%d", i))
	}
	for i := range no {
		if clash {
			sp.Out = append(sp.Out, fmt.Sprintf("x%d", i))
		} else {
			sp.Out = append(sp.Out, fmt.Sprintf("y%d", i))
		}
	}
	for i := range np {
		sp.Params = append(sp.Params, fmt.Sprintf("p%d", i))
	}
	return sp
}

func mapBoxSize(nv int) int64 {
	switch {
	case nv <= 4:
		return 3
	case nv <= 5:
		return 2
	}
	return 1
}

// randUnitEqs returns, with probability 1/2 each, rows o_k = form(in, params)
// with coefficients in [-2, 2], to exercise the expression printing.
func randUnitEqs(rng *rand.Rand, sp MapSpace) []Constraint {
	var rows []Constraint
	ni, no, nv := sp.NIn(), sp.NOut(), sp.NVar()
	for k := range no {
		if rng.IntN(2) == 0 {
			continue
		}
		c := make([]int64, nv+1)
		for j := range nv + 1 {
			if j < ni || j >= ni+no {
				c[j] = int64(rng.IntN(5) - 2)
			}
		}
		c[ni+k] = []int64{1, -1}[rng.IntN(2)]
		rows = append(rows, Constraint{Eq: true, Coef: c})
	}
	return rows
}

// randMap returns a random map boxed on all its variables, and the box size.
func randMap(t testing.TB, rng *rand.Rand) (*Map, int64) {
	sp := randMapSpace(rng)
	b := mapBoxSize(sp.NVar())
	rows := slices.Concat(randRows(rng, sp.NVar()), randUnitEqs(rng, sp), boxRows(sp.wrapped(), b))
	if rng.IntN(3) == 0 {
		rows = slices.Concat(randUnitEqs(rng, sp), boxRows(sp.wrapped(), b))
	}
	m, err := NewMap(sp, rows...)
	if err != nil {
		t.Fatal(err)
	}
	return m, b
}

func key(p []int64) string { return fmt.Sprint(p) }

// checkImage checks that res contains every point of truth (keys of
// dims+params points) and, when exact, that res has no other point: none in
// the box [lo, hi] outside truth and none outside the box. The enumeration
// is skipped (and reported false) when the box is larger than maxBox.
func checkImage(t *testing.T, what string, res *Set, exact bool, truth map[string][]int64, lo, hi []int64) bool {
	t.Helper()
	for _, p := range truth {
		ok, err := res.Contains(p)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Fatalf("%s: result %v misses true point %v", what, res, p)
		}
	}
	if !exact {
		return true
	}
	nv := res.Space().NVar()
	vol := int64(1)
	for i := range nv {
		vol *= hi[i] - lo[i] + 1
		c := make([]int64, nv+1)
		c[i], c[nv] = 1, -hi[i]-1
		d := make([]int64, nv+1)
		d[i], d[nv] = -1, lo[i]-1
		for _, r := range []Constraint{{Coef: c}, {Coef: d}} {
			x, err := res.With(r)
			if err != nil {
				t.Fatal(err)
			}
			e, err := x.IsEmpty()
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if !e {
				t.Fatalf("%s: exact result %v has points outside the true bounding box", what, res)
			}
		}
	}
	if vol > 300000 {
		return false
	}
	p := make([]int64, nv)
	var rec func(i int)
	rec = func(i int) {
		if i == nv {
			ok, err := res.Contains(p)
			if err != nil {
				t.Fatal(err)
			}
			if ok && truth[key(p)] == nil {
				t.Fatalf("%s: result %v reported exact has extra point %v", what, res, p)
			}
			return
		}
		for v := lo[i]; v <= hi[i]; v++ {
			p[i] = v
			rec(i + 1)
		}
	}
	rec(0)
	return true
}

func boxBounds(n int, b int64) (lo, hi []int64) {
	for range n {
		lo, hi = append(lo, -b), append(hi, b)
	}
	return lo, hi
}

func TestMapReverseTwice(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	for range mapCases {
		m, b := randMap(t, rng)
		r := m.Reverse()
		rr := r.Reverse()
		if !rr.Space().Equal(m.Space()) || !slices.EqualFunc(rr.Constraints(), m.Constraints(), func(x, y Constraint) bool {
			return x.Eq == y.Eq && slices.Equal(x.Coef, y.Coef)
		}) {
			t.Fatalf("Reverse twice: %v became %v", m, rr)
		}
		ni, no := m.space.NIn(), m.space.NOut()
		box(m.space.NVar(), b, func(p []int64) {
			a, err1 := m.Contains(p[:ni], p[ni:ni+no], p[ni+no:])
			c, err2 := r.Contains(p[ni:ni+no], p[:ni], p[ni+no:])
			if err1 != nil || err2 != nil || a != c {
				t.Fatalf("Reverse of %v is %v: differs at %v", m, r, p)
			}
		})
	}
}

func TestMapWrapUnwrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	for range mapCases / 4 {
		m, _ := randMap(t, rng)
		w := m.Wrap()
		s, err := ParseSet(w.String())
		if err != nil {
			t.Fatalf("%v: wrapped %v does not parse: %v", m, w, err)
		}
		u := Unwrap(s, m.Space())
		if u.String() != m.String() {
			t.Fatalf("Unwrap(Wrap) changed %v into %v", m, u)
		}
	}
}

func TestMapRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	exprs := 0
	for range mapCases {
		m, b := randMap(t, rng)
		text := m.String()
		m2, err := ParseMap(text)
		if err != nil {
			t.Fatalf("%q does not parse: %v", text, err)
		}
		if m2.String() != text {
			t.Fatalf("unstable print:\n%s\n%s", text, m2)
		}
		if strings.Contains(text, "T[") && !strings.Contains(strings.SplitN(text, "T[", 2)[1][:strings.Index(strings.SplitN(text, "T[", 2)[1], "]")], "y") {
			exprs++
		}
		box(m.space.NVar(), b, func(p []int64) {
			a, err1 := m.set.Contains(p)
			c, err2 := m2.set.Contains(p)
			if err1 != nil || err2 != nil || a != c {
				t.Fatalf("%v reparsed as %v: differs at %v", m, m2, p)
			}
		})
	}
	t.Logf("%d of %d printed with expression outputs", exprs, mapCases)
}

func TestMapParseExamples(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"[n] -> { S[i, j] -> T[i, j + 1] : 0 <= i < n }", "[n] -> { S[i, j] -> T[i, j + 1] : n >= i + 1 and i >= 0 }"},
		{"{ S[i] -> T[a, b] : a = 2i + 1 and b = -i and a >= 0 }", "{ S[i] -> T[2i + 1, -i] : i >= 0 }"},
		{"{ S[i] -> T[a, a + 1] : a = 2i }", "{ S[i] -> T[2i, 2i + 1] }"},
		{"{ [i] -> [j] : 2j = i }", "{ [i] -> [j] : i = 2j }"},
		{"{ S[i] -> T[j] : false }", "{ S[i] -> T[j] : false }"},
		{"{ S[i] -> T[i] : i > 0 and i < 0 }", "{ S[i] -> T[o0] : false }"},
		{"[n] -> { S[] -> T[n, 3] }", "[n] -> { S[] -> T[n, 3] }"},
		{"{ S[i] -> T[j] : i = j or i = j }", "{ S[i] -> T[i] }"},
	} {
		m, err := ParseMap(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if m.String() != c.out {
			t.Errorf("%q printed as %q, want %q", c.in, m, c.out)
		}
	}
	for _, bad := range []string{
		"{ S[i] -> T[j] : i = j or i = j + 1 }",
		"{ S[i] }",
		"{ S[i] -> T[j, k }",
		"{ S[i, i] -> T[j] }",
		"{ S[i] -> T[j + k] }",
		"{ S[i] -> T[i*i] }",
	} {
		if _, err := ParseMap(bad); err == nil || !strings.HasPrefix(err.Error(), "poly: ") {
			t.Errorf("%q: got error %v", bad, err)
		}
	}
}

func TestMapDomainRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	exact := [2]int{}
	for range mapCases {
		m, b := randMap(t, rng)
		ni, no := m.space.NIn(), m.space.NOut()
		dom, ran := map[string][]int64{}, map[string][]int64{}
		box(m.space.NVar(), b, func(p []int64) {
			ok, err := m.set.Contains(p)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				d := slices.Concat(p[:ni], p[ni+no:])
				r := slices.Clone(p[ni:])
				dom[key(d)], ran[key(r)] = d, r
			}
		})
		d, ex, err := m.Domain()
		if err != nil {
			t.Fatal(err)
		}
		if !d.Space().Equal(m.space.Domain()) {
			t.Fatalf("Domain space %v", d.Space())
		}
		lo, hi := boxBounds(d.Space().NVar(), b)
		checkImage(t, "Domain of "+m.String(), d, ex, dom, lo, hi)
		if ex {
			exact[0]++
		}
		r, ex, err := m.Range()
		if err != nil {
			t.Fatal(err)
		}
		lo, hi = boxBounds(r.Space().NVar(), b)
		checkImage(t, "Range of "+m.String(), r, ex, ran, lo, hi)
		if ex {
			exact[1]++
		}
	}
	t.Logf("exact: domain %d, range %d of %d", exact[0], exact[1], mapCases)
}

func TestMapApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	nexact := 0
	for range mapCases {
		m, b := randMap(t, rng)
		ni, no := m.space.NIn(), m.space.NOut()
		s, err := NewSet(m.space.Domain(), randRows(rng, ni+m.space.NParam())...)
		if err != nil {
			t.Fatal(err)
		}
		truth := map[string][]int64{}
		box(m.space.NVar(), b, func(p []int64) {
			ok, err := m.set.Contains(p)
			if err != nil {
				t.Fatal(err)
			}
			in, err := s.Contains(slices.Concat(p[:ni], p[ni+no:]))
			if err != nil {
				t.Fatal(err)
			}
			if ok && in {
				truth[key(p[ni:])] = slices.Clone(p[ni:])
			}
		})
		res, exact, err := m.Apply(s)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := boxBounds(res.Space().NVar(), b)
		checkImage(t, fmt.Sprintf("Apply %v to %v", m, s), res, exact, truth, lo, hi)
		if exact {
			nexact++
		}
	}
	t.Logf("%d of %d exact", nexact, mapCases)
}

// randAffine returns a random function with coefficients in [-5, 5].
func randAffine(t testing.TB, rng *rand.Rand, sp MapSpace) *AffineMap {
	var exprs [][]int64
	for range sp.NOut() {
		e := make([]int64, sp.NIn()+sp.NParam()+1)
		for j := range e {
			e[j] = int64(rng.IntN(11) - 5)
		}
		exprs = append(exprs, e)
	}
	f, err := NewAffineMap(sp, exprs...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func applyF(f *AffineMap, p []int64) []int64 {
	ni := f.space.NIn()
	var y []int64
	for _, e := range f.exprs {
		y = append(y, eval(e, p))
	}
	return append(y, p[ni:]...)
}

func TestPreimageBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	for range mapCases {
		sp := randMapSpace(rng)
		f := randAffine(t, rng, sp)
		rsp := sp.Range()
		b := mapBoxSize(rsp.NVar())
		s, err := NewSet(rsp, append(randRows(rng, rsp.NVar()), boxRows(rsp, b)...)...)
		if err != nil {
			t.Fatal(err)
		}
		pre, err := s.Preimage(f)
		if err != nil {
			t.Fatal(err)
		}
		if !pre.Space().Equal(sp.Domain()) {
			t.Fatalf("Preimage space %v", pre.Space())
		}
		box(sp.NIn()+sp.NParam(), mapBoxSize(sp.NIn()+sp.NParam()), func(p []int64) {
			a, err1 := pre.Contains(p)
			c, err2 := s.Contains(applyF(f, p))
			if err1 != nil || err2 != nil || a != c {
				t.Fatalf("Preimage of %v under %v is %v: wrong at %v", s, f.exprs, pre, p)
			}
		})
	}
}

// randUnimodular returns a random n×n integer matrix with determinant ±1
// and entries in [-5, 5], built from elementary row operations.
func randUnimodular(rng *rand.Rand, n int) [][]int64 {
	for {
		a := make([][]int64, n)
		for i := range a {
			a[i] = make([]int64, n)
			a[i][i] = 1
		}
		ok := true
		for range rng.IntN(6) {
			i, j := rng.IntN(n), rng.IntN(n)
			switch {
			case i == j:
				for k := range a[i] {
					a[i][k] = -a[i][k]
				}
			case rng.IntN(3) == 0:
				a[i], a[j] = a[j], a[i]
			default:
				q := int64(rng.IntN(5) - 2)
				for k := range a[i] {
					a[i][k] += q * a[j][k]
					ok = ok && a[i][k] >= -5 && a[i][k] <= 5
				}
			}
		}
		if ok {
			return a
		}
	}
}

func TestImageUnimodular(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	for range mapCases {
		sp := randMapSpace(rng)
		sp.Out = sp.Out[:0]
		for i := range sp.NIn() {
			sp.Out = append(sp.Out, fmt.Sprintf("y%d", i))
		}
		ni, np := sp.NIn(), sp.NParam()
		a := randUnimodular(rng, ni)
		var exprs [][]int64
		for i := range ni {
			e := slices.Clone(a[i])
			for range np + 1 {
				e = append(e, int64(rng.IntN(11)-5))
			}
			exprs = append(exprs, e)
		}
		f, err := NewAffineMap(sp, exprs...)
		if err != nil {
			t.Fatal(err)
		}
		dsp := sp.Domain()
		b := mapBoxSize(dsp.NVar())
		s, err := NewSet(dsp, append(randRows(rng, dsp.NVar()), boxRows(dsp, b)...)...)
		if err != nil {
			t.Fatal(err)
		}
		img, exact, err := s.Image(f)
		if err != nil {
			t.Fatal(err)
		}
		if !exact {
			t.Fatalf("image of %v under unimodular %v not exact", s, exprs)
		}
		// f is a bijection for each params, so img = f(s) iff
		// q = f^-1(img) = s: equal on the box and empty outside.
		q, err := img.Preimage(f)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := boxBounds(dsp.NVar(), b)
		truth := map[string][]int64{}
		for _, p := range points(t, s, b) {
			truth[key(p)] = p
		}
		checkImage(t, fmt.Sprintf("image of %v under %v is %v; preimage", s, exprs, img), q, true, truth, lo, hi)
		// Also the image contains f of every point.
		for _, p := range truth {
			if ok, _ := img.Contains(applyF(f, p)); !ok {
				t.Fatalf("image %v misses f(%v)", img, p)
			}
		}
	}
}

func TestImageGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	nexact, skipped := 0, 0
	for range mapCases {
		sp := randMapSpace(rng)
		f := randAffine(t, rng, sp)
		dsp := sp.Domain()
		b := int64(2)
		if dsp.NVar() > 3 {
			b = 1
		}
		s, err := NewSet(dsp, append(randRows(rng, dsp.NVar()), boxRows(dsp, b)...)...)
		if err != nil {
			t.Fatal(err)
		}
		img, exact, err := s.Image(f)
		if err != nil {
			t.Fatal(err)
		}
		if !img.Space().Equal(sp.Range()) {
			t.Fatalf("Image space %v", img.Space())
		}
		truth := map[string][]int64{}
		n := sp.NOut() + sp.NParam()
		lo, hi := make([]int64, n), make([]int64, n)
		first := true
		for _, p := range points(t, s, b) {
			y := applyF(f, p)
			truth[key(y)] = y
			for i, v := range y {
				if first || v < lo[i] {
					lo[i] = v
				}
				if first || v > hi[i] {
					hi[i] = v
				}
			}
			first = false
		}
		if first { // empty: any box works
			lo, hi = boxBounds(n, 0)
		}
		if !checkImage(t, fmt.Sprintf("image of %v under %v", s, f.exprs), img, exact, truth, lo, hi) {
			skipped++
		}
		if exact {
			nexact++
		}
	}
	t.Logf("%d of %d exact, %d enumerations skipped", nexact, mapCases, skipped)
}

func TestInverse(t *testing.T) {
	sp := MapSpace{Params: []string{"n"}, In: []string{"i", "j"}, Out: []string{"a", "b"}}
	f, _ := NewAffineMap(sp, []int64{2, 1, 1, 3}, []int64{1, 1, 0, -1})
	g, ok, err := f.Inverse()
	if err != nil || !ok {
		t.Fatalf("Inverse: %v %v", ok, err)
	}
	box(3, 3, func(p []int64) {
		y := applyF(f, p)
		if x := applyF(g, y); !slices.Equal(x, p) {
			t.Fatalf("g(f(%v)) = %v", p, x)
		}
	})
	h, _ := NewAffineMap(sp, []int64{2, 0, 0, 0}, []int64{0, 1, 0, 0})
	if _, ok, _ := h.Inverse(); ok {
		t.Fatal("non-unimodular map inverted")
	}
	big, _ := NewAffineMap(sp, []int64{1, 0, 1 << 62, 1 << 62}, []int64{0, 1, 0, 0})
	if _, _, err := big.Inverse(); err != nil {
		t.Fatalf("inverse of translation: %v", err)
	}
	over, _ := NewAffineMap(sp, []int64{1, 1 << 40, 0, 0}, []int64{1 << 40, 1<<40*(1<<22) + 1, 0, 0})
	if _, _, err := over.Inverse(); err != ErrOverflow {
		t.Fatalf("large inverse: got %v, want ErrOverflow", err)
	}
}

func FuzzParseMap(f *testing.F) {
	for _, s := range []string{
		"[n] -> { S[i, j] -> T[i, j + 1] : 0 <= i < n }",
		"{ S[i] -> T[a, a + 1] : a = 2i }",
		"{ [i] -> [j] : 2j = i or false }",
		"[n, m] -> { A[a, b] -> B[c] : a + 2b - 3c = n and -m <= a - c < 4 }",
		"{ S[i] -> T[i'] : i' >= -(3 - 2i) }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ParseMap(src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "poly: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		text := m.String()
		m2, err := ParseMap(text)
		if err != nil {
			t.Fatalf("%q printed as %q, which fails: %v", src, text, err)
		}
		if m2.String() != text {
			t.Fatalf("unstable print:\n%s\n%s", text, m2)
		}
		if n := m.space.NVar(); n <= 5 {
			box(n, 2, func(p []int64) {
				a, err1 := m.set.Contains(p)
				b, err2 := m2.set.Contains(p)
				if a != b || (err1 == nil) != (err2 == nil) {
					t.Fatalf("%q and %q differ at %v", src, text, p)
				}
			})
		}
	})
}

func TestMapIntersectDomainRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	for range mapCases / 2 {
		m, b := randMap(t, rng)
		ni, no, np := m.space.NIn(), m.space.NOut(), m.space.NParam()
		d, err := NewSet(m.space.Domain(), randRows(rng, ni+np)...)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewSet(m.space.Range(), randRows(rng, no+np)...)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := NewMap(m.space, randRows(rng, m.space.NVar())...)
		if err != nil {
			t.Fatal(err)
		}
		md, mr, mm := m.IntersectDomain(d), m.IntersectRange(r), m.Intersect(m2)
		box(m.space.NVar(), b, func(p []int64) {
			x, y, q := p[:ni], p[ni:ni+no], p[ni+no:]
			in, _ := m.Contains(x, y, q)
			ind, _ := d.Contains(slices.Concat(x, q))
			inr, _ := r.Contains(slices.Concat(y, q))
			in2, _ := m2.Contains(x, y, q)
			a, _ := md.Contains(x, y, q)
			c, _ := mr.Contains(x, y, q)
			e, _ := mm.Contains(x, y, q)
			if a != (in && ind) || c != (in && inr) || e != (in && in2) {
				t.Fatalf("%v: intersections wrong at %v", m, p)
			}
		})
		want := true
		box(m.space.NVar(), b, func(p []int64) {
			if ok, _ := mm.set.Contains(p); ok {
				want = false
			}
		})
		if e, err := mm.IsEmpty(); err != nil || e != want {
			t.Fatalf("%v: IsEmpty = %v, %v; want %v", mm, e, err, want)
		}
	}
}

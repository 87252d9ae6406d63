package poly

// Subtract returns s \ t as a union of pairwise disjoint sets. With t the
// conjunction of rows r_1..r_m, a point of s is outside t iff some first row
// fails: s \ t = ∪_k (s ∧ r_1 ∧ … ∧ r_{k-1} ∧ ¬r_k). Over the integers
// ¬(r >= 0) is -r - 1 >= 0 and ¬(r = 0) is r - 1 >= 0 or -r - 1 >= 0.
// Pieces that normalization proves empty are dropped; others may still be
// empty (use IsEmpty). It panics if the spaces differ.
func (s *Set) Subtract(t *Set) (u *Union, err error) {
	defer catch(&err)
	mustSameSpace(s.space, t.space)
	u = &Union{Space: s.space.clone()}
	if s.empty {
		return u, nil
	}
	if t.empty {
		u.Sets = []*Set{s}
		return u, nil
	}
	prefix := s
	for _, r := range t.rows {
		negs := [][]int64{negate(r.Coef)}
		if r.Eq {
			above := append([]int64(nil), r.Coef...)
			above[len(above)-1] = sub(above[len(above)-1], 1)
			negs = append(negs, above)
		}
		for _, c := range negs {
			piece := prefix.Intersect(build(s.space.clone(), []Constraint{{Coef: c}}))
			if !piece.empty {
				u.Sets = append(u.Sets, piece)
			}
		}
		prefix = prefix.Intersect(build(s.space.clone(), []Constraint{{Eq: r.Eq, Coef: append([]int64(nil), r.Coef...)}}))
		if prefix.empty {
			break
		}
	}
	return u, nil
}

// negate returns -c - 1, the integer negation of c >= 0.
func negate(c []int64) []int64 {
	out := make([]int64, len(c))
	for i, v := range c {
		out[i] = neg(v)
	}
	out[len(out)-1] = sub(out[len(out)-1], 1)
	return out
}

// Subtract returns u \ v, subtracting every disjunct of v from every
// disjunct of u.
func (u *Union) Subtract(v *Union) (*Union, error) {
	mustSameSpace(u.Space, v.Space)
	cur := u.Sets
	for _, t := range v.Sets {
		var next []*Set
		for _, s := range cur {
			d, err := s.Subtract(t)
			if err != nil {
				return nil, err
			}
			next = append(next, d.Sets...)
		}
		cur = next
	}
	return &Union{Space: u.Space.clone(), Sets: cur}, nil
}

// IsSubset reports whether every integer point of u is in v (params free).
func (u *Union) IsSubset(v *Union) (bool, error) {
	d, err := u.Subtract(v)
	if err != nil {
		return false, err
	}
	return d.IsEmpty()
}

// IsEqual reports whether u and v have the same integer points.
func (u *Union) IsEqual(v *Union) (bool, error) {
	a, err := u.IsSubset(v)
	if err != nil || !a {
		return false, err
	}
	return v.IsSubset(u)
}

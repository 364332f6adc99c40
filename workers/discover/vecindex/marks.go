package vecindex

// Marks is a set of slots 0..n-1 emptied in constant time: a slot is in
// the set when its mark equals the generation, and Begin bumps the
// generation instead of clearing n marks a query (the marks are cleared
// only when the generation wraps). T trades memory for how often that is.
type Marks[T uint16 | uint32] struct {
	marks []T
	gen   T
}

// Begin empties the set and makes room for n slots (a quarter more, so a
// growing index does not reallocate every time). It reports whether the
// room grew: scratch kept beside the marks must grow with them.
func (m *Marks[T]) Begin(n int) (grown bool) {
	if len(m.marks) < n {
		m.marks = make([]T, n+n/4)
		m.gen, grown = 0, true
	}
	m.gen++
	if m.gen == 0 {
		clear(m.marks)
		m.gen = 1
	}
	return grown
}

// Len is how many slots there is room for.
func (m *Marks[T]) Len() int { return len(m.marks) }

// Has reports whether slot s is in the set.
func (m *Marks[T]) Has(s int) bool { return m.marks[s] == m.gen }

// Visit adds slot s and reports whether it was not in the set yet.
func (m *Marks[T]) Visit(s int) bool {
	if m.marks[s] == m.gen {
		return false
	}
	m.marks[s] = m.gen
	return true
}

package vecindex

// Filter restricts a search to allowed ids. Allow may be called from several
// goroutines at once (a parallel scan) and must not call back into the
// index. Indexes call it only for vectors that would otherwise enter the
// result, so an expensive check costs far less than one call per tool.
type Filter interface {
	Allow(id string) bool
}

// IDSet is a Filter that names the allowed ids. Unlike a predicate it can be
// enumerated, so a small set is scored directly instead of searched for:
// prefer it for narrow scopes such as a session's active tool set.
type IDSet map[string]struct{}

// IDs builds an IDSet.
func IDs(ids ...string) IDSet {
	s := make(IDSet, len(ids))
	for _, id := range ids {
		s[id] = struct{}{}
	}
	return s
}

// Allow reports whether id is in the set.
func (s IDSet) Allow(id string) bool {
	_, ok := s[id]
	return ok
}

// AllowFunc is a predicate Filter, for scopes that are rules rather than
// lists (a permission check, a tag). A very selective predicate makes an
// approximate search fall back to a scan, because the index cannot know
// which ids it allows without asking about each.
type AllowFunc func(id string) bool

// Allow calls f.
func (f AllowFunc) Allow(id string) bool { return f(id) }

// allowFunc turns a Filter into the predicate scans call, nil when every id
// is allowed, so that the common unfiltered path pays nothing.
func allowFunc(f Filter) func(string) bool {
	switch f := f.(type) {
	case nil:
		return nil
	case AllowFunc:
		if f == nil {
			return nil
		}
		return f
	case IDSet:
		if f == nil {
			// A nil set is a set with nothing in it, not "no filter".
			return func(string) bool { return false }
		}
		return f.Allow
	default:
		return f.Allow
	}
}

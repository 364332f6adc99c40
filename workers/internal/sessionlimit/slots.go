package sessionlimit

import "sync"

// Slots counts what each session has in flight against a limit. A nil
// *Slots allows everything.
type Slots struct {
	limit int

	mu     sync.Mutex
	active map[string]int
}

// NewSlots allows each session limit at once. limit <= 0 returns nil: no limit.
func NewSlots(limit int) *Slots {
	if limit <= 0 {
		return nil
	}
	return &Slots{limit: limit, active: map[string]int{}}
}

// Limit is how many a session may have in flight.
func (s *Slots) Limit() int { return s.limit }

// Acquire takes one of session's slots. ok is false when all are taken;
// otherwise release gives the slot back (once; later calls do nothing).
func (s *Slots) Acquire(session string) (release func(), ok bool) {
	if s == nil {
		return func() {}, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active[session] >= s.limit {
		return nil, false
	}
	s.active[session]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.active[session]--; s.active[session] <= 0 {
				delete(s.active, session) // the map holds only sessions with work in flight
			}
		})
	}, true
}

// InFlight is how many session has in flight.
func (s *Slots) InFlight(session string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active[session]
}

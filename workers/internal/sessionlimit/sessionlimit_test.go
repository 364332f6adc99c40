package sessionlimit

import (
	"fmt"
	"testing"
	"time"
)

func TestRate(t *testing.T) {
	tests := []struct {
		name      string
		perSecond float64
		burst     int
		calls     []string // session per call, all at the same instant
		advance   time.Duration
		after     []string // calls after advance
		want      []bool
	}{
		{"burst then refused", 1, 2, []string{"a", "a", "a"}, 0, nil, []bool{true, true, false}},
		{"sessions do not share a bucket", 1, 1, []string{"a", "b", "a", "b"}, 0, nil, []bool{true, true, false, false}},
		{"refills with time", 2, 1, []string{"a", "a"}, 500 * time.Millisecond, []string{"a", "a"}, []bool{true, false, true, false}},
		{"burst below 1 means 1", 1, 0, []string{"a", "a"}, 0, nil, []bool{true, false}},
		{"off", 0, 0, []string{"a", "a", "a"}, 0, nil, []bool{true, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRate(tt.perSecond, tt.burst)
			now := time.Unix(1000, 0)
			if r != nil {
				r.now = func() time.Time { return now }
			}
			var got []bool
			for _, s := range tt.calls {
				got = append(got, r.Allow(s))
			}
			now = now.Add(tt.advance)
			for _, s := range tt.after {
				got = append(got, r.Allow(s))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("Allow = %v, want %v", got, tt.want)
			}
		})
	}
}

// Idle sessions are forgotten, so a stream of one-off sessions cannot grow
// the map without bound.
func TestRateForgetsIdleSessions(t *testing.T) {
	r := NewRate(1, 1)
	now := time.Unix(1000, 0)
	r.now = func() time.Time { return now }
	for i := range sweepEvery - 1 {
		r.Allow(fmt.Sprintf("s%d", i))
	}
	now = now.Add(idleAfter + time.Second)
	r.Allow("last")
	if n := r.Sessions(); n != 1 {
		t.Fatalf("%d sessions kept after the sweep, want 1", n)
	}
}

func TestSlots(t *testing.T) {
	s := NewSlots(2)
	r1, ok1 := s.Acquire("a")
	_, ok2 := s.Acquire("a")
	_, ok3 := s.Acquire("a")
	_, okB := s.Acquire("b")
	if !ok1 || !ok2 || ok3 || !okB {
		t.Fatalf("acquire a,a,a,b = %v %v %v %v, want true true false true", ok1, ok2, ok3, okB)
	}
	r1()
	r1() // a second release gives back nothing more
	if n := s.InFlight("a"); n != 1 {
		t.Fatalf("in flight after a double release = %d, want 1", n)
	}
	if _, ok := s.Acquire("a"); !ok {
		t.Fatal("a released slot is not available again")
	}
	var off *Slots
	if _, ok := off.Acquire("a"); !ok {
		t.Fatal("a nil Slots refuses")
	}
}

// Package sessionlimit holds the per-session limits of a worker process: a
// token bucket of outputs per second and a count of executions in flight.
// Both are kept per process: n workers of a stage let a session do n times
// as much, which the documentation of the flags says.
package sessionlimit

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// idleAfter is how long a session's bucket is kept unused before it is
// forgotten: by then it has refilled, so forgetting it changes nothing.
const idleAfter = 10 * time.Minute

// sweepEvery is how many calls pass between sweeps of idle sessions, so
// the map stays bounded by the sessions active in the last idleAfter.
const sweepEvery = 1024

// Rate is a token bucket per session. The zero value is not usable; a nil
// *Rate allows everything.
type Rate struct {
	perSecond rate.Limit
	burst     int
	now       func() time.Time

	mu       sync.Mutex
	sessions map[string]*bucket
	calls    int
}

type bucket struct {
	lim  *rate.Limiter
	used time.Time
}

// NewRate allows each session perSecond outputs a second on average and
// burst at once. perSecond <= 0 returns nil: no limit.
func NewRate(perSecond float64, burst int) *Rate {
	if perSecond <= 0 {
		return nil
	}
	return &Rate{perSecond: rate.Limit(perSecond), burst: max(burst, 1), now: time.Now, sessions: map[string]*bucket{}}
}

// PerSecond and Burst are the limit's settings, for messages.
func (r *Rate) PerSecond() float64 { return float64(r.perSecond) }

// Burst is how many outputs a session may publish at once.
func (r *Rate) Burst() int { return r.burst }

// Allow takes a token from session's bucket, reporting whether there was one.
func (r *Rate) Allow(session string) bool {
	if r == nil {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	r.calls++
	if r.calls%sweepEvery == 0 {
		for s, b := range r.sessions {
			if now.Sub(b.used) > idleAfter {
				delete(r.sessions, s)
			}
		}
	}
	b, ok := r.sessions[session]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(r.perSecond, r.burst)}
		r.sessions[session] = b
	}
	b.used = now
	return b.lim.AllowN(now, 1)
}

// Sessions is how many sessions have a bucket (for tests).
func (r *Rate) Sessions() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

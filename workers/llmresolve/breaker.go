package llmresolve

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// A model that is down or hangs would cost every intent the full timeout
// before the fallback answers. After a run of failures to get any answer
// (transport errors, timeouts; not answers that were merely unusable), the
// breaker skips the model for a cooldown, then lets one request through to
// see whether it is back.

// Defaults of WithBreaker.
const (
	DefaultBreakerFailures = 3
	DefaultBreakerCooldown = 30 * time.Second
)

// errSkipped is the reason when the breaker is open.
var errSkipped = errors.New("the model is skipped after repeated failures")

type breaker struct {
	failures int
	cooldown time.Duration
	now      func() time.Time

	mu        sync.Mutex
	run       int       // consecutive failures
	openUntil time.Time // zero when closed
	probing   bool      // a request is testing the model after the cooldown
}

// allow reports whether a request may go to the model; done must then be
// called with its outcome.
func (b *breaker) allow() error {
	if b == nil || b.failures <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openUntil.IsZero() {
		return nil
	}
	if now := b.now(); now.Before(b.openUntil) || b.probing {
		return fmt.Errorf("%w (%d in a row; next try after %s)", errSkipped, b.run, b.openUntil.Format(time.TimeOnly))
	}
	b.probing = true
	return nil
}

// done records whether the model answered at all.
func (b *breaker) done(answered bool) {
	if b == nil || b.failures <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
	if answered {
		b.run, b.openUntil = 0, time.Time{}
		return
	}
	b.run++
	if b.run >= b.failures {
		b.openUntil = b.now().Add(b.cooldown)
	}
}

// abort ends a request that says nothing of the model (its caller gave up).
func (b *breaker) abort() {
	if b == nil || b.failures <= 0 {
		return
	}
	b.mu.Lock()
	b.probing = false
	b.mu.Unlock()
}

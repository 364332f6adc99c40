package effects

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
)

// ErrLeaseLost: the claim lapsed or another worker took it over; this
// worker no longer owns the call and must not record a result for it.
var ErrLeaseLost = errors.New("execution lease lost")

// Lease is this worker's claim on a call. Keep renews it while the tool
// runs; Finish stores the result, Release gives the call back.
type Lease struct {
	x   *Executions
	key string

	mu      sync.Mutex
	rec     Record
	rev     uint64
	lostErr error

	stop    chan struct{}
	stopped chan struct{}
	cancel  context.CancelCauseFunc
	once    sync.Once
}

func (x *Executions) newLease(key string, rec Record, rev uint64) *Lease {
	return &Lease{x: x, key: key, rec: rec, rev: rev}
}

// Record is the claim as last written.
func (l *Lease) Record() Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rec
}

// TakenOver reports whether an earlier claim lapsed before this one: the
// tool may already have run, in part or in full (crash windows 2 and 3).
func (l *Lease) TakenOver() bool { return l.Record().Claims > 1 }

// Keep renews the lease until Finish or Release. The context it returns is
// cancelled, with cause ErrLeaseLost, if the lease is lost meanwhile: the
// run must stop, since another worker may be running the call.
func (l *Lease) Keep(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancelCause(ctx)
	l.once.Do(func() {
		l.cancel = cancel
		l.stop, l.stopped = make(chan struct{}), make(chan struct{})
		go l.heartbeat()
	})
	return ctx
}

func (l *Lease) heartbeat() {
	defer close(l.stopped)
	// Five beats a lease: a beat or two may fail (a NATS hiccup) before
	// the run must stop.
	every := l.x.cfg.lease / 5
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		if err := l.renew(every); err != nil {
			l.mu.Lock()
			l.lostErr = err
			l.mu.Unlock()
			l.x.cfg.log.Warn("execution lease lost; stopping the run", "key", l.key, "error", err)
			l.cancel(err)
			return
		}
	}
}

// renew moves the lease's expiry forward. A failed write is retried at the
// next beat, unless the lease it last wrote runs out before that beat: the
// run is then stopped while the claim still holds, so it never overlaps a
// takeover.
func (l *Lease) renew(timeout time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	next := l.rec
	next.LeaseUntil = time.Now().Add(l.x.cfg.lease)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rev, err := l.x.kv.Update(ctx, l.key, encodeRecord(next), l.rev)
	switch {
	case err == nil:
		l.rec, l.rev = next, rev
		return nil
	case isConflict(err):
		return fmt.Errorf("%w: %s was taken over", ErrLeaseLost, l.key)
	case !time.Now().Add(2 * timeout).Before(l.rec.LeaseUntil):
		// The next attempt, and its wait, would end past the claim.
		return fmt.Errorf("%w: %s could not be renewed before it runs out: %w", ErrLeaseLost, l.key, err)
	}
	l.x.cfg.log.Warn("execution lease not renewed; retrying", "key", l.key, "lease_until", l.rec.LeaseUntil, "error", err)
	return nil
}

// halt stops the heartbeat and reports whether the lease is still held.
func (l *Lease) halt() error {
	if l.stop != nil {
		select {
		case <-l.stop:
		default:
			close(l.stop)
		}
		<-l.stopped
		l.cancel(nil)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lostErr
}

// Finish stores what the call is about to publish, ending the claim. With
// ErrLeaseLost the call belongs to another worker now; nothing was stored.
func (l *Lease) Finish(ctx context.Context, outs []pipeline.Out) error {
	if err := l.halt(); err != nil {
		return err
	}
	stored, err := storeOuts(outs)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	done := l.rec
	done.State, done.Outputs, done.FinishedAt, done.LeaseUntil = StateDone, stored, time.Now().UTC(), time.Time{}
	rev, err := l.x.kv.Update(ctx, l.key, encodeRecord(done), l.rev)
	switch {
	case err == nil:
		l.rec, l.rev = done, rev
		return nil
	case isConflict(err):
		l.lostErr = fmt.Errorf("%w: %s was taken over before the result was stored", ErrLeaseLost, l.key)
		return l.lostErr
	}
	return fmt.Errorf("store the result of execution %s: %w", l.key, err)
}

// Release gives the call back unfinished (a transient failure): the next
// delivery claims it at once instead of waiting for the lease to lapse.
func (l *Lease) Release(ctx context.Context) error {
	if err := l.halt(); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.x.kv.Delete(ctx, l.key, jetstream.LastRevision(l.rev))
	if isConflict(err) {
		return fmt.Errorf("%w: %s", ErrLeaseLost, l.key)
	}
	if err != nil {
		return fmt.Errorf("release execution %s: %w", l.key, err)
	}
	return nil
}

func isConflict(err error) bool {
	return errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists)
}

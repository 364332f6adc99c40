package pipeline

import (
	"context"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// streamFull says whether a publish failed because the stream it went to is
// at a limit and refuses new messages (discard-new): the server answers
// "maximum bytes exceeded", "maximum messages exceeded" or "maximum messages
// per subject exceeded", with no error code of its own to test for.
func streamFull(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "maximum bytes exceeded") || strings.Contains(s, "maximum messages exceeded") ||
		strings.Contains(s, "maximum messages per subject exceeded")
}

// publishOrWait publishes outs; while the stream they go to is full it
// waits and tries again (back-pressure: the message stays in progress, the
// heartbeat keeps it, and its delivery count does not grow), up to
// fullWait. Before, a full downstream stream made every message a
// redelivery and, after MaxDeliver of them within seconds, a dead letter:
// work lost to a queue that was merely busy.
func (r *runner) publishOrWait(ctx context.Context, outs []Out) error {
	err := r.publish(ctx, outs)
	if !streamFull(err) || r.cfg.fullWait <= 0 {
		return err
	}
	r.metrics.Backpressure.WithLabelValues(r.stage.Name).Inc()
	r.log.Warn("downstream stream full; holding the message and retrying the publish", "error", err, "for_up_to", r.cfg.fullWait)
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval, b.MaxElapsedTime = 100*time.Millisecond, 2*time.Second, r.cfg.fullWait
	b.Reset()
	for {
		d := b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(d):
		}
		if err = r.publish(ctx, outs); !streamFull(err) {
			return err
		}
	}
}

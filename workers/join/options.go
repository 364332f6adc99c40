package join

import (
	"log/slog"
	"time"
)

type config struct {
	timeout    time.Duration
	maxInput   int
	sweepEvery time.Duration
	log        *slog.Logger
}

// Option configures a Joiner.
type Option func(*config)

// WithTimeout sets how long an outer intent may wait for its inner intents
// before it is answered with an input_timeout error (default 10 minutes).
// It should outlast the slowest tool plus the retries of every stage.
func WithTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithMaxInputRunes bounds the text an inner result puts into its outer
// intent (default 1000 runes): enough for a value or a short page, not so
// much that discovery of the outer intent reads only the output.
func WithMaxInputRunes(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxInput = n
		}
	}
}

// WithSweepEvery sets how often this worker looks for timed-out records
// (default a tenth of the timeout, between 1 and 30 seconds).
func WithSweepEvery(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.sweepEvery = d
		}
	}
}

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

func newConfig(opts []Option) config {
	c := config{timeout: 10 * time.Minute, maxInput: 1000, log: slog.Default()}
	for _, o := range opts {
		o(&c)
	}
	if c.sweepEvery == 0 {
		c.sweepEvery = min(max(c.timeout/10, time.Second), 30*time.Second)
	}
	return c
}

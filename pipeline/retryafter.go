package pipeline

import (
	"errors"
	"time"
)

// retryAfterError is a transient failure whose handler knows when another
// attempt makes sense (another worker holds the work until then).
type retryAfterError struct {
	err   error
	after time.Duration
}

func (e *retryAfterError) Error() string { return e.err.Error() }
func (e *retryAfterError) Unwrap() error { return e.err }

// RetryAfter marks err as transient and asks for the input to be
// redelivered after d rather than after the runner's backoff.
func RetryAfter(err error, d time.Duration) error {
	if err == nil {
		return nil
	}
	return &retryAfterError{err: err, after: d}
}

// retryDelay is the delay a RetryAfter error asks for, else def.
func retryDelay(err error, def time.Duration) time.Duration {
	var r *retryAfterError
	if errors.As(err, &r) && r.after > 0 {
		return r.after
	}
	return def
}

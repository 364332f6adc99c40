package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/toolyard/toolyard/schemas"
)

// Defaults of the retry options.
const (
	// DefaultRetryBudget is how long a call's transient failures are
	// retried, counting the attempts' own time.
	DefaultRetryBudget = 15 * time.Second
	// DefaultRetryInitial and DefaultRetryMax bound the wait between
	// attempts; it doubles each time, with ±50% jitter.
	DefaultRetryInitial = 200 * time.Millisecond
	DefaultRetryMax     = 4 * time.Second
)

// ExitTempFail is the exit status (EX_TEMPFAIL of sysexits.h) with which a
// subprocess tool says "temporary failure, try again": it is retried like
// a refused connection. Any other non-zero status is the tool's answer.
const ExitTempFail = 75

type retryConfig struct {
	budget   time.Duration // <0: no retries; 0: the default
	initial  time.Duration
	max      time.Duration
	disabled bool
}

// WithRetryBudget sets how long transient failures of a call are retried
// (15s by default); 0 turns retries off.
func WithRetryBudget(d time.Duration) Option {
	return func(c *config) {
		c.retry.budget, c.retry.disabled = d, d <= 0
	}
}

// WithRetryBackoff sets the first and the longest wait between attempts
// (200ms and 4s by default).
func WithRetryBackoff(initial, max time.Duration) Option {
	return func(c *config) { c.retry.initial, c.retry.max = initial, max }
}

func (r retryConfig) backoff() *backoff.ExponentialBackOff {
	budget, initial, max := r.budget, r.initial, r.max
	if budget <= 0 {
		budget = DefaultRetryBudget
	}
	if initial <= 0 {
		initial = DefaultRetryInitial
	}
	if max <= 0 {
		max = DefaultRetryMax
	}
	return backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(initial), backoff.WithMaxInterval(max),
		backoff.WithMultiplier(2), backoff.WithRandomizationFactor(0.5),
		backoff.WithMaxElapsedTime(budget))
}

// RetriesExhaustedError is a transient failure that outlasted the retry
// budget. It is not transient any more: the call is answered with it.
type RetriesExhaustedError struct {
	ToolID   string
	Attempts int
	Elapsed  time.Duration
	Err      error
}

func (e *RetriesExhaustedError) Error() string {
	return fmt.Sprintf("tool %s still failing after %d attempts in %s (a temporary failure; try again later): %v",
		e.ToolID, e.Attempts, e.Elapsed.Round(time.Millisecond), e.Err)
}

func (e *RetriesExhaustedError) Unwrap() error { return e.Err }

// Transient marks err as a failure worth retrying, for runners outside
// this package (a transport error, a 5xx answer).
func Transient(err error) error { return transient(err) }

// TransientStatus reports whether an HTTP status means "try again": 408,
// 429 and the 5xx codes. Other 4xx codes are the server's answer.
func TransientStatus(code int) bool {
	return code == 408 || code == 429 || code >= 500 && code <= 599
}

// withRetries runs f, again after each transient failure, with backoff and
// jitter, until it succeeds, fails for good, or the budget runs out. The
// worker's own context ending stops the retries and stays transient: the
// message is redelivered rather than answered.
func (e *Executor) withRetries(ctx context.Context, call schemas.ToolCall, f func(context.Context) (schemas.ToolOutput, error)) (schemas.ToolOutput, error) {
	if e.cfg.retry.disabled || e.builtinCall(call) {
		// Builtins fail transiently only when the search backend does,
		// which a redelivery (perhaps to another worker) serves better.
		return f(ctx)
	}
	start := time.Now()
	attempts := 0
	var last error
	op := func() (schemas.ToolOutput, error) {
		attempts++
		out, err := f(ctx)
		last = err
		switch {
		case err == nil:
			return out, nil
		case ctx.Err() != nil || !IsTransient(err):
			return out, backoff.Permanent(err)
		}
		return out, err
	}
	notify := func(err error, wait time.Duration) {
		e.cfg.log.Info("transient failure; retrying", "tool", call.ToolID, "intent_id", call.IntentID,
			"attempt", attempts, "retry_in", wait, "error", err)
	}
	out, err := backoff.RetryNotifyWithData(op, backoff.WithContext(e.cfg.retry.backoff(), ctx), notify)
	switch {
	case err == nil:
		return out, nil
	case ctx.Err() != nil:
		if last == nil {
			last = ctx.Err()
		}
		return out, transient(fmt.Errorf("tool %s: stopped before it could succeed (attempt %d): %w", call.ToolID, attempts, last))
	case IsTransient(err) && attempts > 1:
		return out, &RetriesExhaustedError{ToolID: call.ToolID, Attempts: attempts, Elapsed: time.Since(start), Err: err}
	}
	return out, err
}

// isNetworkTransient: failures of the way to a tool rather than of the
// tool — refused or reset connections, unreachable hosts, timeouts.
func isNetworkTransient(err error) bool {
	for _, errno := range []syscall.Errno{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
		syscall.EPIPE, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.ETIMEDOUT} {
		if errors.Is(err, errno) {
			return true
		}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return errors.Is(err, io.ErrUnexpectedEOF)
}

func (e *Executor) builtinCall(call schemas.ToolCall) bool {
	if call.MetaTool != schemas.MetaExecute && call.MetaTool != "" {
		return true
	}
	m, ok := e.manifest(call.ToolID)
	return ok && m.Executor != nil && m.Executor.Kind == schemas.ExecBuiltin
}

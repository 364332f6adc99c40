package execute

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// Classes of bad calls, for errors.Is. None is worth retrying.
var (
	// ErrUnknownTool: the call names a tool the registry does not hold.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrNoExecutor: the tool is registered for discovery but this worker
	// cannot run it.
	ErrNoExecutor = errors.New("no executor")
	// ErrInvalidParameters: the parameters do not meet the tool's schema, or
	// its argv template.
	ErrInvalidParameters = errors.New("invalid parameters")
	// ErrBadCall: the call itself is malformed (unknown meta-tool, no tool id).
	ErrBadCall = errors.New("bad call")
	// ErrDelegation: a kind-tool chain loops, is too deep, or ends nowhere.
	ErrDelegation = errors.New("bad delegation")
	// ErrUnsupported: the manifest's executor cannot run here (an unknown
	// kind or builtin, a bad dir, a command not installed).
	ErrUnsupported = errors.New("unsupported executor")
)

// callError is a bad call: its message is written for the agent, and it
// matches its class (and its cause, if any) with errors.Is.
type callError struct {
	class error
	msg   string
	cause error
}

func (e *callError) Error() string { return e.msg }

func (e *callError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.class}
	}
	return []error{e.class, e.cause}
}

func badCall(class error, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &callError{class: class, msg: err.Error(), cause: errors.Unwrap(err)}
}

// ToolError is a tool that ran and failed: it exited non-zero or ran out of
// time. Output holds what it produced (exit code, stderr tail). Retrying
// would run it again with the same input, so it is permanent.
type ToolError struct {
	ToolID   string
	Output   schemas.ToolOutput
	TimedOut bool
	Timeout  time.Duration
	// Message, when set, is the whole error text: for tools that report
	// failure other than by exit status (an HTTP status, a service error).
	Message string
}

func (e *ToolError) Error() string {
	if e.Message != "" {
		return e.Message
	}
	var b strings.Builder
	if e.TimedOut {
		fmt.Fprintf(&b, "tool %s timed out after %s and was killed", e.ToolID, e.Timeout)
	} else {
		code := -1
		if e.Output.ExitCode != nil {
			code = *e.Output.ExitCode
		}
		fmt.Fprintf(&b, "tool %s failed with exit status %d", e.ToolID, code)
	}
	if last := lastLine(e.Output.Stderr); last != "" {
		b.WriteString(": ")
		b.WriteString(last)
	}
	return b.String()
}

// lastLine is the last non-empty line of s, clipped: usually the error.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if r := []rune(last); len(r) > 200 {
		last = string(r[:200]) + "…"
	}
	return last
}

// transientError marks a failure that a later attempt may not meet.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

func transient(err error) error {
	if err == nil {
		return nil
	}
	return &transientError{err: err}
}

// IsTransient reports whether retrying the call may succeed: the worker's
// context ended before the call completed, the system ran short of
// processes, memory or file descriptors, the search backend failed, the
// way to the tool failed (connection refused or reset, host unreachable, a
// network timeout), a runner marked the error with Transient (a 5xx
// answer, an MCP transport error), or a subprocess exited with
// ExitTempFail. A bad call, a *ToolError otherwise, and a
// *RetriesExhaustedError are permanent.
func IsTransient(err error) bool {
	var x *RetriesExhaustedError
	if err == nil || errors.As(err, &x) {
		return false
	}
	var t *transientError
	if errors.As(err, &t) {
		return true
	}
	var c *callError
	var te *ToolError
	if errors.As(err, &c) || errors.As(err, &te) {
		return false
	}
	return isNetworkTransient(err)
}

// startFailureIsTransient: fork/exec failures caused by momentary resource
// shortage, as opposed to a missing or non-executable command.
func startFailureIsTransient(err error) bool {
	for _, errno := range []syscall.Errno{syscall.EAGAIN, syscall.ENOMEM, syscall.EMFILE, syscall.ENFILE, syscall.ETXTBSY, syscall.EINTR} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

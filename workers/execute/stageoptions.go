package execute

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/toolyard/toolyard/workers/effects"
	"github.com/toolyard/toolyard/workers/internal/sessionlimit"
)

// DefaultSessionExecutions is how many calls of one session one execute
// worker runs at once.
const DefaultSessionExecutions = 8

// CodeTooManyExecutions: the session already has as many calls running on
// this worker as WithSessionExecutions allows.
const CodeTooManyExecutions = "too_many_executions"

// StageOption configures the execute stage's binding.
type StageOption func(*stageConfig)

type stageConfig struct {
	executions *effects.Executions
	outputs    *effects.Outputs
	open       *openEffects
	log        *slog.Logger
	slots      *sessionlimit.Slots
}

// WithSessionExecutions limits how many calls of one session this worker
// runs at once; a call over the limit is answered with a
// too_many_executions error result and kept in the DLQ, and does not run.
// n <= 0 turns the limit off. The default is DefaultSessionExecutions.
func WithSessionExecutions(n int) StageOption {
	return func(c *stageConfig) { c.slots = sessionlimit.NewSlots(n) }
}

// overLimit reports whether err refused a call for a per-session limit.
func overLimit(err error) bool {
	var le *limitError
	return errors.As(err, &le)
}

// limitError is a call refused by a limit, answered with its code.
type limitError struct{ code, msg string }

func (e *limitError) Error() string     { return e.msg }
func (e *limitError) ErrorCode() string { return e.code }

func errTooManyExecutions(session string, limit int) error {
	return &limitError{code: CodeTooManyExecutions, msg: fmt.Sprintf(
		"session %s already has %d tool calls running on this execute worker, the limit per session; this call did not run and is kept in the dead-letter queue ('toolyard dlq replay' puts it back); send fewer intents at once, or raise the limit with --session-executions on toolyard up / worker",
		session, limit)}
}

// WithExecutions makes calls take effect once: each is claimed in the
// executions bucket before it runs, and a redelivered call that finished
// publishes its stored result again (see package effects). Without it a
// redelivery runs the tool again.
func WithExecutions(x *effects.Executions) StageOption {
	return func(c *stageConfig) { c.executions = x }
}

// WithOutputs keeps outputs over InlineOutputBytes in the outputs object
// store, the result carrying a reference and a preview. Without it they
// are cut to InlineOutputBytes and marked truncated.
func WithOutputs(o *effects.Outputs) StageOption {
	return func(c *stageConfig) { c.outputs = o }
}

// WithStageLogger sets the binding's logger (slog.Default()).
func WithStageLogger(l *slog.Logger) StageOption {
	return func(c *stageConfig) {
		if l != nil {
			c.log = l
		}
	}
}

// WithEffects opens the executions bucket (exactly-once effects) and the
// outputs object store (keeping keepOutputs outputs per tool; 0 means
// effects.DefaultKeepOutputs) when the stage starts, creating them if
// needed. opts configure both: lease, record TTL, busy wait, replicas.
func WithEffects(keepOutputs int, opts ...effects.Option) StageOption {
	return func(c *stageConfig) {
		c.open = &openEffects{keep: keepOutputs, opts: opts}
	}
}

// openEffects is what WithEffects opens at setup.
type openEffects struct {
	keep int
	opts []effects.Option
}

package execute

import (
	"log/slog"

	"github.com/toolyard/toolyard/workers/effects"
)

// StageOption configures the execute stage's binding.
type StageOption func(*stageConfig)

type stageConfig struct {
	executions *effects.Executions
	outputs    *effects.Outputs
	open       *openEffects
	log        *slog.Logger
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

package stages

import (
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/parse"
)

// Limits are the per-output and per-session limits of the stages. A zero
// field keeps the stage's default; a negative rate or executions count
// turns that limit off.
type Limits struct {
	// OutputBytes is the largest output text (parse.WithMaxTextBytes).
	OutputBytes int
	// ConversationBytes is the largest conversation an output may carry
	// (parse.WithMaxConversationBytes).
	ConversationBytes int
	// IntentConversationBytes is how much of it each intent carries on
	// (parse.WithIntentConversationBytes).
	IntentConversationBytes int
	// Intents is how many intents and calls one output may hold.
	Intents int
	// SessionRate and SessionBurst are each session's outputs a second and
	// burst, per parse worker.
	SessionRate  float64
	SessionBurst int
	// SessionExecutions is how many calls of one session one execute
	// worker runs at once.
	SessionExecutions int
}

// DefaultLimits are the limits with every default filled in.
func DefaultLimits() Limits {
	return Limits{
		OutputBytes:             parse.DefaultMaxTextBytes,
		ConversationBytes:       parse.DefaultMaxConversationBytes,
		IntentConversationBytes: parse.DefaultIntentConversationBytes,
		Intents:                 parse.DefaultMaxIntents,
		SessionRate:             parse.DefaultSessionRate,
		SessionBurst:            parse.DefaultSessionBurst,
		SessionExecutions:       execute.DefaultSessionExecutions,
	}
}

// parseOptions are the parser's limits.
func (l *Limits) parseOptions() []parse.Option {
	if l == nil {
		return nil
	}
	return []parse.Option{
		parse.WithMaxTextBytes(l.OutputBytes), parse.WithMaxConversationBytes(l.ConversationBytes),
		parse.WithIntentConversationBytes(l.IntentConversationBytes), parse.WithMaxIntents(l.Intents),
	}
}

// parseStageOptions are the parse binding's limits.
func (l *Limits) parseStageOptions() []parse.StageOption {
	if l == nil || l.SessionRate == 0 {
		return nil
	}
	burst := l.SessionBurst
	if burst == 0 {
		burst = parse.DefaultSessionBurst
	}
	return []parse.StageOption{parse.WithSessionRate(l.SessionRate, burst)}
}

// executeStageOptions are the execute binding's limits.
func (l *Limits) executeStageOptions() []execute.StageOption {
	if l == nil || l.SessionExecutions == 0 {
		return nil
	}
	return []execute.StageOption{execute.WithSessionExecutions(l.SessionExecutions)}
}

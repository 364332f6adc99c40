package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/workers/stages"
)

// limitFlags are the per-output and per-session limits of the stages
// (docs/configuration.md, "Limits").
type limitFlags struct {
	l stages.Limits
}

func (f *limitFlags) register(fl *pflag.FlagSet) {
	d := stages.DefaultLimits()
	fl.IntVar(&f.l.OutputBytes, "max-output-bytes", d.OutputBytes, "largest agent output text accepted, in bytes; a larger output gets a too_large error result and nothing of it runs")
	fl.IntVar(&f.l.ConversationBytes, "max-conversation-bytes", d.ConversationBytes, "largest conversation an agent output may carry, in bytes (roles and contents summed); a larger one gets a conversation_too_large error result")
	fl.IntVar(&f.l.IntentConversationBytes, "intent-conversation-bytes", d.IntentConversationBytes, "how much of an output's conversation each of its intents carries: its last turns up to this many bytes (the receipt says when a conversation was cut)")
	fl.IntVar(&f.l.Intents, "max-intents", d.Intents, "most tool intents and direct calls one output may hold; more gets a too_many_intents error result and nothing of it runs")
	fl.Float64Var(&f.l.SessionRate, "session-rate", d.SessionRate, "outputs a second one session may publish, per parse worker (a token bucket); over it: a rate_limited error result, the output kept in the DLQ; 0 or less: no limit")
	fl.IntVar(&f.l.SessionBurst, "session-burst", d.SessionBurst, "outputs one session may publish at once before --session-rate applies")
	fl.IntVar(&f.l.SessionExecutions, "session-executions", d.SessionExecutions, "tool calls of one session one execute worker runs at once; over it: a too_many_executions error result, the call kept in the DLQ; 0 or less: no limit")
}

// limits are the flags' limits, checked.
func (f *limitFlags) limits() (*stages.Limits, error) {
	l := f.l
	for _, c := range []struct {
		name string
		v    int
	}{
		{"--max-output-bytes", l.OutputBytes}, {"--max-conversation-bytes", l.ConversationBytes},
		{"--intent-conversation-bytes", l.IntentConversationBytes}, {"--max-intents", l.Intents}, {"--session-burst", l.SessionBurst},
	} {
		if c.v < 1 {
			return nil, fmt.Errorf("%s must be at least 1, not %d", c.name, c.v)
		}
	}
	// A limit of 0 means "off" on the command line; in stages.Limits a
	// zero keeps the default, and a negative value is off.
	if l.SessionRate <= 0 {
		l.SessionRate = -1
	}
	if l.SessionExecutions <= 0 {
		l.SessionExecutions = -1
	}
	return &l, nil
}

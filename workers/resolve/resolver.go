package resolve

import (
	"context"

	"github.com/toolyard/toolyard/schemas"
)

// Audit decisions of the resolve stage.
const (
	// DecisionResolved: the deterministic rules filled the arguments.
	DecisionResolved = "resolved"
	// DecisionResolvedLLM: a model chose the tool and its arguments, and
	// they validated.
	DecisionResolvedLLM = "resolved_llm"
	// DecisionFallback: a model was asked and failed (timeout, unusable or
	// invalid answer twice); the deterministic rules resolved instead.
	DecisionFallback = "resolved_fallback"
	// DecisionUnsure: a model was not sure enough of any candidate, so the
	// agent is offered them instead of a guess.
	DecisionUnsure = "llm_unsure"
	// DecisionUnmapped: the intent states a value that no argument took
	// although a parameter would; the agent is asked to write it as one.
	DecisionUnmapped = "unmapped"
)

// Outcome is a Resolver's answer for an activated intent: a call to
// execute, or, when Call is nil, alternatives the agent must choose from
// (a multiple_matches result).
type Outcome struct {
	Call *schemas.ToolCall
	// Matches and Message, when Call is nil: the candidates to offer, most
	// likely first, and what the agent should do next.
	Matches []schemas.Candidate
	Message string
	// Decision is the audit decision (DecisionResolved, …) and Note what
	// explains it (a fallback's reason), for the audit record.
	Decision string
	Note     string
}

// Lookup finds a tool's manifest by id.
type Lookup func(id string) (schemas.Manifest, bool)

// Resolver resolves an activated intent in some other way than the
// deterministic rules alone (an LLM, see workers/llmresolve). It may pick
// another of the routed candidates than the first. Errors are those of
// Resolve: *MissingError and *InvalidError when the intent cannot become a
// call as written, anything else is worth retrying.
type Resolver interface {
	ResolveRouted(ctx context.Context, r schemas.Routed, lookup Lookup) (Outcome, error)
}

// StageOption configures the resolve stage.
type StageOption func(*stageConfig)

type stageConfig struct {
	resolver Resolver
}

// WithResolver makes the stage resolve through r instead of the
// deterministic rules alone. A nil r keeps the default.
func WithResolver(r Resolver) StageOption {
	return func(c *stageConfig) { c.resolver = r }
}

// resolve runs the configured resolver, or the deterministic rules on the
// routed tool m.
func (c *stageConfig) resolve(ctx context.Context, r schemas.Routed, m schemas.Manifest, lookup Lookup) (Outcome, error) {
	if c.resolver != nil {
		return c.resolver.ResolveRouted(ctx, r, lookup)
	}
	call, err := Resolve(ctx, r, m)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Call: &call, Decision: DecisionResolved}, nil
}

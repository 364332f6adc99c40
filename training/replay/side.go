package replay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// TierError is the tier of an intent a side could not decide (discovery
// failed on it); the error is in Outcome.Unresolved.
const TierError = "error"

// Side is one configuration's pipeline, in process and in dry run: it
// parses, discovers, routes and resolves, and stops where the execute
// stage would begin. It holds no executor, so none can be called.
type Side struct {
	name     string
	set      *stages.Set
	th       route.Thresholds
	parser   *parse.Parser
	resolver resolve.Resolver
	source   map[string]any
}

// SideOption configures a Side.
type SideOption func(*Side)

// WithResolver resolves activated intents through r (the LLM resolver) in
// front of the deterministic rules, as the resolve stage would.
func WithResolver(r resolve.Resolver) SideOption { return func(s *Side) { s.resolver = r } }

// WithParser parses recorded [TOOL: …] markers with p (the stage's limits).
func WithParser(p *parse.Parser) SideOption { return func(s *Side) { s.parser = p } }

// WithSettings records what the side was configured with, for the report.
func WithSettings(m map[string]any) SideOption { return func(s *Side) { s.source = m } }

// NewSide is the pipeline of set under thresholds th. Only set's registry
// and discovery engine are used: its executor never is.
func NewSide(name string, set *stages.Set, th route.Thresholds, opts ...SideOption) (*Side, error) {
	if err := th.Validate(); err != nil {
		return nil, fmt.Errorf("replay side %s: %w", name, err)
	}
	s := &Side{name: name, set: set, th: th, parser: parse.New()}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// Name is the side's name (baseline, candidate).
func (s *Side) Name() string { return s.name }

// Thresholds are the side's routing tiers.
func (s *Side) Thresholds() route.Thresholds { return s.th }

// Decide runs one intent through parse, discover, route and resolve. Only
// a done context is an error: an intent a stage refuses gets an outcome
// that says why.
func (s *Side) Decide(ctx context.Context, in Intent) (Outcome, error) {
	start := time.Now()
	intent := s.parsed(in)
	cands, err := s.set.Engine().Discover(ctx, intent)
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{}, ctx.Err()
		}
		return Outcome{Tier: TierError, Unresolved: err.Error(), LatencyMS: ptr(millis(time.Since(start)))}, nil
	}
	d := route.Route(cands, s.th, nil)
	out := Outcome{Tier: d.Tier}
	if len(d.Matches) > 0 {
		out.Tool = d.Matches[0].ToolID
	}
	// The top confidence is what the tier was decided on, whatever the tier.
	top := 0.0
	for _, c := range cands.Candidates {
		if c.Confidence > top || out.Top == "" {
			top, out.Top = c.Confidence, c.ToolID
		}
	}
	if len(d.Matches) > 0 {
		top, out.Top = d.Matches[0].Confidence, d.Matches[0].ToolID
	}
	out.Confidence = ptr(top)
	for i, c := range d.Matches {
		if i == 3 {
			break
		}
		out.Candidates = append(out.Candidates, c.ToolID)
	}
	if d.Tier == schemas.TierActivated {
		if err := s.resolve(ctx, route.Routed(intent, d), &out); err != nil {
			return Outcome{}, err
		}
	}
	out.LatencyMS = ptr(millis(time.Since(start)))
	return out, nil
}

// parsed is the intent as discovery would get it: a recorded marker is
// parsed again by the parse stage's core; recorded intent text (the parse
// stage's own output) is taken as it is.
func (s *Side) parsed(in Intent) schemas.Intent {
	base := schemas.Intent{ID: in.IntentID, SessionID: in.Session, Text: in.Text, ContextBefore: in.Conversation}
	if !strings.HasPrefix(strings.TrimSpace(in.Expressed), "[") {
		return base
	}
	p, err := s.parser.Parse(schemas.AgentOutput{SessionID: in.Session, MessageID: "replay", Text: in.Expressed})
	if err != nil || len(p.Intents) == 0 {
		return base
	}
	got := p.Intents[len(p.Intents)-1] // the outermost: run last
	got.ID, got.ContextBefore = in.IntentID, in.Conversation
	return got
}

// resolve fills the activated tool's arguments as the resolve stage would,
// and stops there: the call is never executed.
func (s *Side) resolve(ctx context.Context, r schemas.Routed, out *Outcome) error {
	reg := s.set.Registry()
	m, ok := reg.Get(out.Tool)
	if !ok {
		out.Unresolved = fmt.Sprintf("tool %q is not in the registry", out.Tool)
		return nil
	}
	var call *schemas.ToolCall
	var err error
	if s.resolver != nil {
		var o resolve.Outcome
		o, err = s.resolver.ResolveRouted(ctx, r, reg.Get)
		switch {
		case err == nil && o.Call == nil:
			// The model was unsure: the agent is offered the candidates.
			out.Tier = schemas.TierMultiple
			return nil
		case err == nil:
			call = o.Call
		}
	} else {
		var c schemas.ToolCall
		c, err = resolve.Resolve(ctx, r, m)
		call = &c
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		out.Unresolved = err.Error()
		return nil
	}
	out.Tool, out.Ran = call.ToolID, true
	return nil
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

package route

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Stage binds the tier decision to candidates: pipe.route.<session> in, and
// out on the tier's own subject (TierSubject): activated intents to
// resolution, medium ones to the choose stage, weak and not-found ones to
// the answer stage. Every hand-off carries routing's message.
func Stage(th *Live, opts ...Option) pipeline.Stage {
	o := newOptions(opts)
	return pipeline.Stage{
		Name:     bind.StageRoute,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageRoute)},
		Reject:   bind.Rejecter(bind.StageRoute),
		// It runs no tool: a stage of the same process may hand it work directly.
		Chainable: true,
		Handler: func(_ context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			c, err := bind.Input[schemas.Candidates](schemas.KindCandidates, m)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			in := c.Intent
			d := Route(c, th.Load(), o.catalog)
			audit := bind.WithCandidates(bind.IntentAudit(bind.StageRoute, in), d.Matches)
			audit.Decision, audit.Result = d.Tier, d.Tier
			r := Routed(in, d)
			next, err := handOff(r, bind.StageRoute)
			if err != nil {
				return nil, err
			}
			observe(d)
			return []pipeline.Out{next, bind.Audit(audit)}, nil
		},
	}
}

// Routed is the hand-off of an intent's decision.
func Routed(in schemas.Intent, d Decision) schemas.Routed {
	r := schemas.Routed{V: schemas.Version, Intent: in, Tier: d.Tier, Candidates: d.Matches,
		Unmatched: d.Unmatched, Available: d.Available, DecidedBy: DecidedByConfidence}
	if r.Candidates == nil {
		r.Candidates = []schemas.Candidate{}
	}
	if d.Tier != schemas.TierActivated {
		r.Message = d.Message
	}
	return r
}

// handOff encodes r for its tier's subject. The id names the stage that
// decided, so the choose stage's hand-off to resolution is not taken for a
// duplicate of routing's hand-off to it.
func handOff(r schemas.Routed, stage string) (pipeline.Out, error) {
	subject, id := TierSubject(r.Tier, r.Intent.SessionID), bind.MsgID(r.Intent.SessionID, r.Intent.ID+":"+stage+":routed")
	// Work that may still run a tool keeps the intent's secrets; the tiers
	// that only answer do not need them, and are encoded now to be
	// scrubbed of them (only a secret-keeping hand-off is left unencoded).
	if r.Tier == schemas.TierActivated || r.Tier == schemas.TierMultiple {
		return pipeline.Handoff(subject, id, r), nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return pipeline.Out{}, fmt.Errorf("encode routed intent %s: %w", r.Intent.ID, err)
	}
	return pipeline.Out{Subject: subject, Data: data, Value: r, ID: id}, nil
}

// Answer is the result that tells the agent a routed intent's tier, its
// matches and what to do next.
func Answer(r schemas.Routed, stage string) schemas.Result {
	return schemas.Result{
		SessionID: r.Intent.SessionID, MessageID: r.Intent.MessageID, IntentID: r.Intent.ID, Intent: r.Intent.Text,
		Status: r.Tier, Stage: stage, Matches: r.Candidates, Message: r.Message,
		Unmatched: r.Unmatched, Available: r.Available, Hint: r.Intent.Hint, Outer: r.Intent.Outer,
	}
}

// AnswerStage answers the weak_matches and not_found tiers to the agent:
// pipe.answer.<tier>.<session> in, result.<session> out.
func AnswerStage() pipeline.Stage {
	return pipeline.Stage{
		Name:     bind.StageAnswer,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageAnswer)},
		Reject:   bind.Rejecter(bind.StageAnswer),
		// It runs no tool: a stage of the same process may hand it work directly.
		Chainable: true,
		Handler: func(_ context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			r, err := bind.Input[schemas.Routed](schemas.KindRouted, m)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			if r.Tier == schemas.TierActivated {
				return nil, pipeline.Permanentf("intent %s is activated; the answer stage takes only weak_matches and not_found", r.Intent.ID)
			}
			audit := bind.WithCandidates(bind.IntentAudit(bind.StageAnswer, r.Intent), r.Candidates)
			audit.Decision, audit.Result = "answered", r.Tier
			return append(bind.Result(Answer(r, bind.StageAnswer)), bind.Audit(audit)), nil
		},
	}
}

// ChooseStage takes the medium tier: with a disambiguator (WithDisambiguator)
// it may pick one of the matches and hand the intent to resolution; without
// one, or when it is unsure or fails, it answers the alternatives.
func ChooseStage(log *slog.Logger, opts ...Option) pipeline.Stage {
	o := newOptions(opts)
	if log == nil {
		log = slog.Default()
	}
	return pipeline.Stage{
		Name:     bind.StageChoose,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageChoose)},
		Reject:   bind.Rejecter(bind.StageChoose),
		// It runs no tool: a stage of the same process may hand it work directly.
		Chainable: true,
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			r, err := bind.Input[schemas.Routed](schemas.KindRouted, m)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			outs, err := decideMedium(ctx, r, o)
			if err != nil {
				return nil, err
			}
			if o.disambiguator != nil && outs.reason != "" && !outs.chosen {
				log.Debug("alternatives answered", "intent_id", r.Intent.ID, "reason", outs.reason)
			}
			return outs.out, nil
		},
	}
}

type chooseOut struct {
	out    []pipeline.Out
	chosen bool
	reason string
}

// decideMedium decides a medium-tier intent: its hand-off to resolution
// when the disambiguator picked a tool, else the answer with the alternatives.
func decideMedium(ctx context.Context, r schemas.Routed, o options) (chooseOut, error) {
	audit := bind.IntentAudit(bind.StageChoose, r.Intent)
	picked, ok, reason := choose(ctx, o, r)
	if !ok {
		audit = bind.WithCandidates(audit, r.Candidates)
		audit.Decision, audit.Result = "answered", r.Tier
		if o.disambiguator != nil {
			audit.Error = reason
		}
		return chooseOut{out: append(bind.Result(Answer(r, bind.StageChoose)), bind.Audit(audit)), reason: reason}, nil
	}
	next, err := handOff(picked, bind.StageChoose)
	if err != nil {
		return chooseOut{}, err
	}
	audit = bind.WithCandidates(audit, picked.Candidates)
	audit.Decision, audit.Result = DecidedByDisambiguator, schemas.TierActivated
	return chooseOut{out: []pipeline.Out{next, bind.Audit(audit)}, chosen: true, reason: reason}, nil
}

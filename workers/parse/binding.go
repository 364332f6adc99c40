package parse

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/join"
)

// Stage binds the parser to agent outputs: agent.output.<session> in, one
// piece of work per intent (discovery) or direct call (execution) out, plus a
// receipt listing what the agent should expect back.
//
// An intent with nested intents (DependsOn) is not sent on: it is
// registered in the pending bucket, before any of its inner intents is
// published, and the join stage sends it to discovery once their results
// are in (see package join).
//
// Before anything is decoded, the input is checked: the subject must name
// one valid session, the session must be within its rate (WithSessionRate),
// and the message must be valid UTF-8 (encoding/json would otherwise
// replace bad bytes and the output would run with text nobody wrote). Each
// failure is answered with an error result naming its code and kept in the
// DLQ; nothing of the output runs.
func Stage(p *Parser, opts ...StageOption) pipeline.Stage {
	cfg := newStageConfig(opts)
	var pending *join.Store
	return pipeline.Stage{
		Name:     bind.StageParse,
		Stream:   pipeline.StreamAgent,
		Subjects: []string{schemas.AgentOutputPrefix + ">"},
		Setup: func(ctx context.Context, js jetstream.JetStream) (err error) {
			pending, err = join.OpenStore(ctx, js)
			return err
		},
		Handler: handler(p, cfg, func() *join.Store { return pending }),
		Reject:  bind.Rejecter(bind.StageParse),
		Secrets: p.Secrets,
	}
}

func handler(p *Parser, cfg stageConfig, pending func() *join.Store) pipeline.Handler {
	return func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
		session, err := bind.SubjectSession(m.Subject)
		if err != nil {
			return nil, pipeline.Permanent(&Error{Code: CodeInvalidSession, Message: err.Error()})
		}
		// Only a first delivery takes a token: a redelivered output was
		// counted already, and its retry must not be refused for it.
		if m.NumDelivered <= 1 && !cfg.rate.Allow(session) {
			return nil, pipeline.Permanent(errRateLimited(session, cfg.rate))
		}
		if err := schemas.CheckJSONUTF8(m.Data); err != nil {
			return nil, pipeline.Permanent(&Error{Code: CodeInvalidUTF8, Message: err.Error()})
		}
		out, err := schemas.Decode[schemas.AgentOutput](schemas.KindAgentOutput, m.Data)
		if err != nil {
			return nil, pipeline.Permanent(err)
		}
		if out.SessionID != session {
			return nil, pipeline.Permanent(&Error{Code: CodeInvalidSession, Message: fmt.Sprintf(
				"session_id %q does not match the subject's session %q (%s)", clip(out.SessionID, 40), session, m.Subject)})
		}
		if out.MessageID == "" {
			// Stable across redeliveries, so a retried parse yields the same ids.
			out.MessageID = "seq-" + strconv.FormatUint(m.StreamSeq, 10)
		}
		parsed, err := p.Parse(out)
		if err != nil {
			return nil, pipeline.Permanent(err)
		}
		if err := registerDependent(ctx, pending(), parsed.Intents); err != nil {
			return nil, err
		}
		return parsedOuts(out, parsed, p.redactAudit)
	}
}

// registerDependent records every intent with nested intents as pending.
// It runs before anything is published, so no inner result can come back
// before the join stage knows who waits for it. A failure is transient: the
// output is parsed again, and registering again is harmless.
func registerDependent(ctx context.Context, store *join.Store, intents []schemas.Intent) error {
	now := time.Now()
	for _, in := range intents {
		if len(in.DependsOn) == 0 {
			continue
		}
		if store == nil {
			return pipeline.Permanentf("intent %s has nested intents, but this parse stage has no pending bucket to hold it (run it with pipeline.Run)", in.ID)
		}
		if _, err := store.Register(ctx, in, now); err != nil {
			return err
		}
	}
	return nil
}

// parsedOuts is the work and answers for one parsed output: the receipt
// first, then the problems' error results, then the work, so an agent
// reading results sees the receipt before any result it announces (the
// runner publishes outputs in this order, on one connection).
func parsedOuts(out schemas.AgentOutput, parsed Parsed, redact func(schemas.AuditRecord) schemas.AuditRecord) ([]pipeline.Out, error) {
	problemIDs := make([]string, len(parsed.Problems))
	for i := range parsed.Problems {
		problemIDs[i] = fmt.Sprintf("%s.problem%d", out.MessageID, i)
	}
	ids := append(parsed.IDs(), problemIDs...)
	outs := bind.Result(schemas.Result{
		SessionID: out.SessionID, MessageID: out.MessageID, Status: schemas.StatusAccepted, Stage: bind.StageParse,
		IntentIDs: ids, TextSHA256: schemas.TextDigest(out.Text), Message: receiptMessage(parsed),
	})
	for i, pr := range parsed.Problems {
		res := bind.ErrorResult(bind.StageParse, out.SessionID, out.MessageID, problemIDs[i], "", pr.Code, errors.New(pr.Message))
		outs = append(outs, bind.Result(res)...)
	}
	for _, in := range parsed.Intents {
		audit := bind.IntentAudit(bind.StageParse, in)
		audit.Decision, audit.Result = "intent", "parsed"
		if len(in.DependsOn) > 0 {
			// Registered as pending; join sends it on with its inputs.
			audit.Result = "pending"
			outs = append(outs, bind.Audit(audit))
			continue
		}
		next := bind.Next(bind.StageDiscover, out.SessionID, in.ID, in)
		outs = append(outs, next, bind.Audit(audit))
	}
	for _, c := range parsed.Calls {
		next := bind.Next(bind.StageExecute, out.SessionID, c.IntentID, c)
		outs = append(outs, next, bind.Audit(redact(schemas.AuditRecord{
			SessionID: out.SessionID, ToolID: c.ToolID, Parameters: c.Parameters,
			Stage: bind.StageParse, IntentID: c.IntentID, MessageID: out.MessageID, Decision: "direct_call", Result: "parsed",
		})))
	}
	return outs, nil
}

// receiptMessage counts what the output held and says when its intents
// carry only the end of its conversation.
func receiptMessage(parsed Parsed) string {
	msg := fmt.Sprintf("%d intent(s), %d direct call(s), %d problem(s)", len(parsed.Intents), len(parsed.Calls), len(parsed.Problems))
	if c := parsed.ConversationCut; c != nil && len(parsed.Intents) > 0 {
		msg += "; " + c.String()
	}
	return msg
}

package execute

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/effects"
)

// recordWait bounds the writes that end a claim, which must happen even
// when the worker is stopping.
const recordWait = 10 * time.Second

// once runs a call at most once at a time and answers it once: it claims
// the call's execution record first, republishes a finished call's stored
// messages, and leaves a call another live worker holds to that worker.
func (s *stage) once(ctx context.Context, call schemas.ToolCall) ([]pipeline.Out, error) {
	id := effects.ID{SessionID: call.SessionID, IntentID: call.IntentID, ToolID: call.ToolID,
		Call: effects.CallDigest(call.Intent, call.ToolID, call.Direct, call.Parameters)}
	// Made only when something is logged: most calls log nothing, and With
	// copies its attributes each time.
	log := func() *slog.Logger {
		return s.cfg.log.With("intent_id", call.IntentID, "session", call.SessionID, "tool", call.ToolID)
	}
	got, err := s.cfg.executions.Acquire(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("execution record of intent %s: %w", call.IntentID, err)
	}
	switch {
	case got.Done != nil && got.Done.Call != "" && got.Done.Call != id.Call:
		// Not a redelivery: another output under a message id the session
		// used before. Its stored answer is another call's, which was
		// published as this one's.
		log().Warn("message id reused for a different output; not run", "ran", got.Done.ToolID, "finished_at", got.Done.FinishedAt)
		return reusedAnswer(call, *got.Done, id.Call), nil
	case got.Done != nil:
		log().Info("call already executed; publishing its stored result again", "claims", got.Done.Claims, "finished_at", got.Done.FinishedAt)
		return got.Done.Outs(), nil
	case got.Busy != nil:
		return nil, pipeline.RetryAfter(fmt.Errorf("intent %s is being executed by %s (claim renewed until %s); looking again later",
			call.IntentID, got.Busy.Owner, got.Busy.LeaseUntil.Format(time.RFC3339)), s.cfg.executions.Lease())
	}
	lease := got.Lease
	if lease.TakenOver() {
		log().Warn("running a call whose earlier claim lapsed: its worker died, perhaps after the tool ran; the tool gets the same idempotency key",
			"claims", lease.Record().Claims)
	}
	runCtx := lease.Keep(ctx)
	outs, err := s.answer(runCtx, call)
	endCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordWait)
	defer cancel()
	if err != nil {
		// A transient failure: give the call back so that its next
		// delivery runs it at once, not after the lease lapses.
		if rerr := lease.Release(endCtx); rerr != nil && !errors.Is(rerr, effects.ErrLeaseLost) {
			log().Warn("claim not released; the next delivery waits for it to lapse", "error", rerr)
		}
		if cause := context.Cause(runCtx); errors.Is(cause, effects.ErrLeaseLost) {
			return nil, pipeline.RetryAfter(fmt.Errorf("intent %s: %w", call.IntentID, cause), s.cfg.executions.Lease())
		}
		return nil, err
	}
	if err := lease.Finish(endCtx, outs); err != nil {
		if errors.Is(err, effects.ErrLeaseLost) {
			// Another worker took the call over while this one ran it; the
			// record it finishes is the call's answer.
			log().Warn("claim lost while the tool ran; leaving the answer to the worker that took over", "error", err)
			return nil, pipeline.RetryAfter(err, s.cfg.executions.Lease())
		}
		// Publishing beats losing the answer; only a redelivery (after a
		// crash before the ack) would run the tool again.
		log().Warn("result not stored in the execution record; publishing it anyway", "error", err)
	}
	return outs, nil
}

// CodeMessageIDReused is the error code of a call whose intent id (its
// output's message id) already ran another call in the session.
const CodeMessageIDReused = "message_id_reused"

// reusedAnswer is the error result of a call whose intent id already ran a
// different call. It has an id of its own: the first call's result holds
// the intent's, and the streams would drop this one as its duplicate.
func reusedAnswer(call schemas.ToolCall, ran effects.Record, digest string) []pipeline.Out {
	err := fmt.Errorf("not run: intent %s of this session already ran another call (%s, finished %s), so message id %s was used before for a different output; "+
		"Toolyard runs each message id once, so give every output an id of its own and publish this one again",
		call.IntentID, ran.ToolID, ran.FinishedAt.Format(time.RFC3339), call.MessageID)
	res := bind.ErrorResult(bind.StageExecute, call.SessionID, call.MessageID, call.IntentID, call.Intent, CodeMessageIDReused, err)
	res.ToolID = call.ToolID
	out := bind.Result(res)[0]
	out.ID = bind.MsgID(call.SessionID, call.IntentID+":reused:"+digest)
	return []pipeline.Out{out}
}

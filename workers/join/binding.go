package join

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// maxConflicts bounds the read-modify-write retries on one record: only the
// inputs of one outer intent, arriving at once, contend for it.
const maxConflicts = 16

// Joiner is the join stage of one process: it records inner results in the
// pending bucket and publishes outer intents (or their failure) when their
// inputs are in. Its state lives in the bucket, so any number of processes
// share the work.
type Joiner struct {
	cfg   config
	js    jetstream.JetStream
	store *Store
	log   *slog.Logger
}

// New returns a Joiner; Stage binds it to the results.
func New(opts ...Option) *Joiner {
	cfg := newConfig(opts)
	return &Joiner{cfg: cfg, log: cfg.log.With("stage", bind.StageJoin)}
}

// Stage binds the joiner to pipe.join.>, where bind.Result puts a copy of
// every result of a nested intent (one with an outer intent): the results
// of intents at the top, most of them, never reach it. Its setup opens the
// pending bucket and starts the timeout sweeper.
func Stage(j *Joiner) pipeline.Stage {
	return pipeline.Stage{
		Name:     bind.StageJoin,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageJoin)},
		Setup:    j.Start,
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			r, err := schemas.DecodeInternal[schemas.Result](schemas.KindResult, m.Data)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			session, err := bind.SubjectSession(m.Subject)
			if err != nil {
				// No intent waits under a subject that names no session:
				// pending intents are registered under valid ones only.
				return nil, nil
			}
			return nil, j.Apply(ctx, session, r)
		},
		// No Reject: answering a result with another result would only
		// confuse the agent; a stuck outer intent is answered by the sweeper.
	}
}

// Start opens the pending bucket and sweeps it every WithSweepEvery until
// ctx ends.
func (j *Joiner) Start(ctx context.Context, js jetstream.JetStream) error {
	store, err := OpenStore(ctx, js)
	if err != nil {
		return err
	}
	j.js, j.store = js, store
	go func() {
		t := time.NewTicker(j.cfg.sweepEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if n, err := j.Sweep(ctx); err != nil && ctx.Err() == nil {
				j.log.Warn("sweep of pending intents failed; next sweep retries", "error", err, "finished", n)
			} else if n > 0 {
				j.log.Info("pending intents finished by the sweeper", "finished", n)
			}
		}
	}()
	return nil
}

// Apply takes one result: if an outer intent waits on its intent, the result
// becomes that intent's input, and with its last input the outer intent is
// published (or answered with the failure). Safe to call again with the same
// result, from any process.
func (j *Joiner) Apply(ctx context.Context, session string, r schemas.Result) error {
	if r.IntentID == "" || r.Status == schemas.StatusAccepted {
		return nil
	}
	outer, ok, err := j.store.Outer(ctx, session, r.IntentID)
	if err != nil || !ok {
		return err
	}
	input := Render(r, j.cfg.maxInput)
	for range maxConflicts {
		p, rev, found, err := j.store.Get(ctx, session, outer)
		if err != nil || !found {
			return err // not found: finished, or never registered
		}
		if p.State == StateDone {
			// A worker decided it and may have died before publishing.
			return j.finish(ctx, p, rev)
		}
		if !p.Add(r.IntentID, input) {
			return nil // a redelivery: the input is already in
		}
		decided := p.Decide(time.Now())
		rev, err = j.store.Update(ctx, p, rev)
		if errors.Is(err, ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		j.log.Debug("input recorded", "intent", outer, "input", r.IntentID, "status", r.Status, "missing", len(p.Missing()))
		if decided {
			return j.finish(ctx, p, rev)
		}
		return nil
	}
	return fmt.Errorf("intent %s: record kept changing under %d attempts to add input %s; retrying later", outer, maxConflicts, r.IntentID)
}

// Sweep finishes what is overdue: records waiting past the timeout are
// decided as failed, and records decided but not removed (their worker died
// after deciding) are published again. It returns how many it finished.
func (j *Joiner) Sweep(ctx context.Context) (int, error) {
	n := 0
	var errs []error
	for rec, err := range j.store.records(ctx) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p, rev, now := rec.p, rec.rev, time.Now()
		switch {
		case p.State == StateWaiting && p.Expire(now, j.cfg.timeout):
			rev, err = j.store.Update(ctx, p, rev)
			if errors.Is(err, ErrConflict) {
				continue // an input arrived meanwhile; the next sweep looks again
			}
		case p.State == StateDone && now.Sub(p.DoneAt) > j.cfg.sweepEvery:
		default:
			continue
		}
		if err == nil {
			err = j.finish(ctx, p, rev)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// finish publishes a done record's outcome, then removes the record.
func (j *Joiner) finish(ctx context.Context, p Pending, rev uint64) error {
	outs, err := outcomeOuts(p)
	if err != nil {
		return err
	}
	for _, o := range outs {
		data, err := o.Bytes()
		if err != nil {
			return fmt.Errorf("intent %s: %w", p.Intent.ID, err)
		}
		msg := &nats.Msg{Subject: o.Subject, Data: data, Header: o.Header}
		if _, err := j.js.PublishMsg(ctx, msg, jetstream.WithMsgID(o.ID)); err != nil {
			return fmt.Errorf("intent %s: publish to %s: %w", p.Intent.ID, o.Subject, err)
		}
	}
	if err := j.store.Remove(ctx, p, rev); err != nil {
		return err
	}
	if p.Outcome.Result != nil {
		j.log.Info("outer intent not run", "intent", p.Intent.ID, "session", p.Intent.SessionID, "code", p.Outcome.Result.Error.Code)
	}
	return nil
}

// outcomeOuts are the messages of a decided record: the substituted intent
// to discovery, or the error result; and the audit record of the decision.
func outcomeOuts(p Pending) ([]pipeline.Out, error) {
	o := p.Outcome
	switch {
	case o == nil:
		return nil, fmt.Errorf("intent %s is done without an outcome", p.Intent.ID)
	case o.Intent != nil:
		next := bind.Next(bind.StageDiscover, o.Intent.SessionID, o.Intent.ID, *o.Intent)
		a := bind.IntentAudit(bind.StageJoin, *o.Intent)
		a.Decision, a.Result = "joined", "inputs_substituted"
		a.Parameters = inputsAudit(p)
		return []pipeline.Out{next, bind.Audit(a)}, nil
	case o.Result != nil:
		a := bind.IntentAudit(bind.StageJoin, p.Intent)
		a.Decision, a.Result, a.Error = "not_run", "error", o.Result.Message
		a.Parameters = inputsAudit(p)
		return append(bind.Result(*o.Result), bind.Audit(a)), nil
	}
	return nil, fmt.Errorf("intent %s: outcome has neither an intent nor a result", p.Intent.ID)
}

// inputsAudit records how each input ended, for the audit trail.
func inputsAudit(p Pending) map[string]any {
	m := make(map[string]any, len(p.Intent.DependsOn))
	for _, id := range p.Intent.DependsOn {
		in, ok := p.Inputs[id]
		if !ok {
			m[id] = "missing"
			continue
		}
		m[id] = in.Status
	}
	return m
}

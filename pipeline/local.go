package pipeline

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Local hands work between stages of one process without a trip through
// their stream: operator chaining, as stream processors (Flink, Kafka
// Streams) do for consecutive operators in one task. When a handler's
// output is a hand-off to a work-queue subject that a stage of this same
// process consumes, the runner calls that stage's handler at once and
// publishes what it returns in place of the hand-off, recursively. Every
// stage still runs its own consumer: hand-offs from other processes, from
// the join stage or from a DLQ replay arrive through the stream as before.
//
// It changes no outcome. A work queue hands a message to any one worker of
// its stage, and this process's is one of them. Every output keeps its
// Nats-Msg-Id, so an input redelivered after a partial publish repeats the
// chain and the streams drop what was already stored. A hand-off whose
// local handler fails, for any reason, is published to its stream
// unchanged, where the stage's own consumer retries, rejects or
// dead-letters it exactly as without chaining. What it saves is, per
// chained hand-off, a stored message, its delivery and its ack.
type Local struct {
	mu      sync.RWMutex
	runners []*runner
}

// NewLocal returns an empty set; give it to every stage of the process
// with WithLocal.
func NewLocal() *Local { return &Local{} }

// WithLocal lets the runner hand work directly to the other stages run
// with the same Local, and makes this stage available to them once its
// setup is done.
func WithLocal(l *Local) RunOption { return func(c *runnerConfig) { c.local = l } }

// outcomeToStream is the span outcome of a local hand-off whose handler
// failed: it went to the stream, whose delivery settles it.
const outcomeToStream = "to_stream"

// maxLocalHops bounds a chain of local hand-offs (Toolyard's longest is
// three): a stage whose output fed itself would otherwise never end.
const maxLocalHops = 8

// add makes r's stage available to the others, if it can take work
// directly: a Chainable stage reading a work queue. A message on any other
// stream may have other readers, who must see it stored.
func (l *Local) add(r *runner) {
	if !r.stage.Chainable || r.stage.Stream != StreamPipe {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runners = append(l.runners, r)
}

func (l *Local) remove(r *runner) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runners = slices.DeleteFunc(l.runners, func(x *runner) bool { return x == r })
}

// taker is the running stage of this process that would take o from its
// work queue, or nil.
func (l *Local) taker(o Out) *runner {
	if !strings.HasPrefix(o.Subject, pipeSubjectPrefix) {
		return nil // results and audit records: never a stage's work
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	for _, r := range l.runners {
		for _, f := range r.stage.Subjects {
			if server.SubjectMatchesFilter(o.Subject, f) {
				return r
			}
		}
	}
	return nil
}

// handOff replaces the outputs that a local stage takes by what that
// stage's handler returns for them. outs are scrubbed and traced; so is
// what it returns. Each local handler's secrets stay held for the log
// scrubber until release is called, after the publish.
func (r *runner) handOff(ctx context.Context, outs []Out, delivered uint64) (res []Out, release func()) {
	var releases []func()
	release = func() {
		for _, f := range releases {
			f()
		}
	}
	if r.cfg.local == nil {
		return outs, release
	}
	var walk func(outs []Out, hops int)
	walk = func(outs []Out, hops int) {
		for _, o := range outs {
			next := r.cfg.local.taker(o)
			if next == nil || hops >= maxLocalHops {
				res = append(res, o)
				continue
			}
			m := &Msg{Subject: o.Subject, Data: o.Data, Value: o.Value, Header: o.Header, NumDelivered: delivered}
			got, rel, err := next.handleLocal(ctx, m)
			releases = append(releases, rel)
			if err != nil {
				// The stage's own consumer takes it from here.
				res = append(res, o)
				continue
			}
			walk(got, hops+1)
		}
	}
	walk(outs, 0)
	return res, release
}

// handleLocal runs this (Chainable) stage's handler on a hand-off from a
// stage of the same process, as handle runs it on a delivered message, but
// acknowledges and publishes nothing. A failure is only returned: the
// hand-off then goes to the stream, and the delivery from there is counted.
func (r *runner) handleLocal(ctx context.Context, m *Msg) (outs []Out, release func(), err error) {
	start := time.Now()
	r.inFlight.Inc()
	defer r.inFlight.Dec()
	sc := r.scrubber(ctx, m)
	release = holdSecrets(sc)
	ctx = WithScrubber(ctx, sc)
	// m's headers carry the calling stage's span: this one is its child.
	ctx, span := r.startSpan(ctx, m)
	outcome := OutcomeAck
	defer func() { endSpan(span, outcome, err, sc) }()
	outs, err = r.call(ctx, m)
	if err == nil {
		err = checkOuts(outs)
	}
	if err != nil {
		outcome = outcomeToStream
		r.log.Debug("local hand-off failed; it goes to the stream", "subject", m.Subject, "error", err)
		return nil, release, err
	}
	r.latency.Observe(time.Since(start).Seconds())
	r.outcomes[OutcomeAck].Inc()
	r.localHandOffs.Inc()
	return traceOuts(ctx, sc.Outs(outs)), release, nil
}

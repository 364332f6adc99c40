package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
)

// Stage wires a handler to its input: a durable consumer, named after the
// stage, that every process running the stage shares.
type Stage struct {
	Name string
	// Stream is the stream the stage consumes; Subjects filter it.
	Stream   string
	Subjects []string
	Handler  Handler
	// Reject answers inputs the stage gives up on. Optional.
	Reject RejectFunc
	// Expendable marks rejections of the sender's own making that need no
	// keeping once answered (a per-session limit: the sender is told to
	// try again): when the DLQ refuses their dead letter, they are let go
	// even from a work queue, rather than redelivered until it has room.
	// Optional: without it, only inputs their stream keeps are let go.
	Expendable func(reason error) bool
	// Setup runs once before the stage consumes anything, for handlers that
	// need more of JetStream than their input (a KV bucket, publishing of
	// their own). Background work it starts must end with ctx. Optional; an
	// error stops Run.
	Setup func(ctx context.Context, js jetstream.JetStream) error
	// Chainable lets another stage of the same process run this handler
	// directly on its hand-offs instead of publishing them (Local): for
	// stages that run no tool. The stage that runs tools is not, so a slow
	// tool never holds the slot of the stage before it, and its
	// per-session limits and exactly-once claims see every call come
	// through its own consumer.
	Chainable bool
	// Secrets lists the secret values of an input. The runner scrubs them
	// from everything the stage writes about it: outputs (but the Secret
	// hand-offs), rejections, dead letters and log lines. A handler adds
	// the ones it learns as it works to ScrubberFrom(ctx). Optional.
	Secrets SecretsFunc
}

// removeAfterDeadLetter: a dead-lettered work item is removed from its work
// queue; a stage reading a log stream (AGENT) leaves the log alone.
func (s Stage) removeAfterDeadLetter() bool { return s.Stream == StreamPipe }

type runnerConfig struct {
	concurrency  int
	ackWait      time.Duration
	maxDeliver   int
	fetchWait    time.Duration
	drainTimeout time.Duration
	backoffMin   time.Duration
	backoffMax   time.Duration
	publishWait  time.Duration
	// fullWait is how long a message waits for room in a full downstream
	// stream before it is retried as a transient failure (backpressure.go).
	fullWait time.Duration
	log      *slog.Logger
	metrics  *Metrics
	lagEvery time.Duration
	// tracer starts the span of each message; traced says it records
	// (not the no-op one), so spans get attributes.
	tracer trace.Tracer
	traced bool
	// local is the set of this process's stages that hand work to each
	// other directly (local.go); nil: every hand-off goes through its stream.
	local *Local
	// ready is called once the stage takes work (WithReady).
	ready func()
}

// WithReady calls ready once the stage takes work: its consumer exists and
// the other stages of its Local can hand it work. Until every stage of a
// process is ready, a hand-off to one that is not goes through its stream.
func WithReady(ready func()) RunOption { return func(c *runnerConfig) { c.ready = ready } }

// RunOption configures a stage runner.
type RunOption func(*runnerConfig)

// WithConcurrency sets how many messages this process handles at once; it is
// also how many it pulls, so nothing waits client-side while its ack clock runs.
func WithConcurrency(n int) RunOption {
	return func(c *runnerConfig) {
		if n > 0 {
			c.concurrency = n
		}
	}
}

// WithAckWait sets how long the server waits for an ack before redelivering;
// long handlers keep their message with in-progress heartbeats.
func WithAckWait(d time.Duration) RunOption { return func(c *runnerConfig) { c.ackWait = d } }

// WithMaxDeliver sets how many deliveries a message gets before it is dead-lettered.
func WithMaxDeliver(n int) RunOption { return func(c *runnerConfig) { c.maxDeliver = n } }

// WithFullStreamWait sets how long a message waits for room when the stream
// its outputs go to is full (default 10 minutes; 0 retries at once as a
// transient failure).
func WithFullStreamWait(d time.Duration) RunOption { return func(c *runnerConfig) { c.fullWait = d } }

// WithRetryBackoff sets the redelivery delay range after transient failures.
func WithRetryBackoff(min, max time.Duration) RunOption {
	return func(c *runnerConfig) { c.backoffMin, c.backoffMax = min, max }
}

// WithDrainTimeout bounds how long a stopping runner waits for in-flight messages.
func WithDrainTimeout(d time.Duration) RunOption { return func(c *runnerConfig) { c.drainTimeout = d } }

// WithFetchWait sets how long one pull request waits for messages.
func WithFetchWait(d time.Duration) RunOption { return func(c *runnerConfig) { c.fetchWait = d } }

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) RunOption { return func(c *runnerConfig) { c.log = l } }

// WithMetrics reports to these metrics (default: new ones on a private registry).
func WithMetrics(m *Metrics) RunOption { return func(c *runnerConfig) { c.metrics = m } }

type runner struct {
	cfg     runnerConfig
	stage   Stage
	nc      *nats.Conn
	js      jetstream.JetStream
	log     *slog.Logger
	metrics *Metrics
	// The stage's own series, looked up once: a label lookup per message
	// hashes and locks.
	inFlight     prometheus.Gauge
	redeliveries prometheus.Counter
	latency      prometheus.Observer
	outcomes     map[string]prometheus.Counter
	// localHandOffs counts the messages this stage took directly from
	// another stage of the process (local.go).
	localHandOffs prometheus.Counter
	cons          jetstream.Consumer
}

// Run consumes the stage's work until ctx is cancelled, then stops pulling,
// lets in-flight messages finish (up to the drain timeout) and returns.
// Its errors start with "stage NAME:", so callers need not name it again.
func Run(ctx context.Context, js jetstream.JetStream, st Stage, opts ...RunOption) error {
	cfg := runnerConfig{
		concurrency: 4, ackWait: 30 * time.Second, maxDeliver: 5,
		fetchWait: 5 * time.Second, drainTimeout: 30 * time.Second,
		backoffMin: 250 * time.Millisecond, backoffMax: 30 * time.Second,
		publishWait: 10 * time.Second, lagEvery: 5 * time.Second, fullWait: 10 * time.Minute,
		log: slog.Default(), tracer: noopTracer,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if st.Name == "" || st.Stream == "" || len(st.Subjects) == 0 || st.Handler == nil {
		return fmt.Errorf("stage %q: name, stream, subjects and handler are required", st.Name)
	}
	if cfg.metrics == nil {
		cfg.metrics = NewMetrics(prometheus.NewRegistry())
	}
	// Every line the runner logs is scrubbed of the secrets in flight.
	log := slog.New(RedactLogs(cfg.log.Handler()))
	r := &runner{cfg: cfg, stage: st, nc: js.Conn(), js: js, log: log.With("stage", st.Name), metrics: cfg.metrics,
		inFlight:      cfg.metrics.InFlight.WithLabelValues(st.Name),
		redeliveries:  cfg.metrics.Redeliveries.WithLabelValues(st.Name),
		latency:       cfg.metrics.Latency.WithLabelValues(st.Name),
		outcomes:      map[string]prometheus.Counter{},
		localHandOffs: cfg.metrics.LocalHandOffs.WithLabelValues(st.Name),
	}
	for _, o := range []string{OutcomeAck, OutcomeRetry, OutcomeRejected, OutcomeDeadLetter} {
		r.outcomes[o] = cfg.metrics.Messages.WithLabelValues(st.Name, o)
	}
	if st.Setup != nil {
		if err := st.Setup(ctx, js); err != nil {
			return fmt.Errorf("stage %s: setup: %w", st.Name, err)
		}
	}
	if err := r.ensureConsumer(ctx); err != nil {
		return err
	}
	sub, err := r.sweepMaxDeliveries(context.WithoutCancel(ctx))
	if err != nil {
		return fmt.Errorf("stage %s: subscribe to max-delivery advisories: %w", st.Name, err)
	}
	defer sub.Unsubscribe()
	if cfg.local != nil {
		cfg.local.add(r)
		defer cfg.local.remove(r)
	}
	if cfg.ready != nil {
		cfg.ready()
	}
	go r.reportLag(ctx)
	return r.loop(ctx)
}

func (r *runner) ensureConsumer(ctx context.Context) error {
	cfg := jetstream.ConsumerConfig{
		Durable:        r.stage.Name,
		Description:    "Toolyard stage " + r.stage.Name,
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        r.cfg.ackWait,
		MaxDeliver:     r.cfg.maxDeliver,
		MaxAckPending:  10000,
		DeliverPolicy:  jetstream.DeliverAllPolicy,
		FilterSubjects: r.stage.Subjects,
	}
	if len(r.stage.Subjects) == 1 {
		cfg.FilterSubject, cfg.FilterSubjects = r.stage.Subjects[0], nil
	}
	cons, err := r.js.CreateOrUpdateConsumer(ctx, r.stage.Stream, cfg)
	if err != nil {
		return fmt.Errorf("stage %s: consumer on stream %s: %w", r.stage.Name, r.stage.Stream, err)
	}
	r.cons = cons
	return nil
}

// loop pulls exactly as many messages as there are free handler slots, so no
// message sits in a client buffer with its ack clock running.
func (r *runner) loop(ctx context.Context) error {
	slots := make(chan struct{}, r.cfg.concurrency)
	var wg sync.WaitGroup
	// Handlers run on a context that outlives ctx by the drain timeout, so a
	// stop lets in-flight work finish instead of abandoning it half-published.
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	// A fixed pool of handler goroutines, one a slot: a goroutine per
	// message started with a small stack and grew it again for every
	// message (decoding and validation run deep), 5 % of the CPU.
	work := make(chan jetstream.Msg, r.cfg.concurrency)
	for i := 0; i < r.cfg.concurrency; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for msg := range work {
				r.handle(hctx, msg)
				<-slots
			}
		}()
	}
	retry := backoff.NewExponentialBackOff(backoff.WithInitialInterval(100*time.Millisecond), backoff.WithMaxInterval(5*time.Second), backoff.WithMaxElapsedTime(0))

	for ctx.Err() == nil {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			continue
		}
		n := 1
	more:
		for n < r.cfg.concurrency {
			select {
			case slots <- struct{}{}:
				n++
			default:
				break more
			}
		}
		fctx, fcancel := context.WithTimeout(ctx, r.cfg.fetchWait)
		batch, err := r.cons.Fetch(n, jetstream.FetchContext(fctx))
		if err != nil {
			fcancel()
			for i := 0; i < n; i++ {
				<-slots
			}
			if ctx.Err() != nil {
				break
			}
			r.log.Warn("pull failed; retrying", "error", err)
			if errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrConsumerDeleted) {
				if cerr := r.ensureConsumer(ctx); cerr != nil {
					r.log.Error("recreate consumer", "error", cerr)
				}
			}
			Sleep(ctx, retry.NextBackOff())
			continue
		}
		got := 0
		for msg := range batch.Messages() {
			got++
			work <- msg
		}
		fcancel()
		for i := got; i < n; i++ {
			<-slots
		}
		if err := batch.Error(); err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !errors.Is(err, nats.ErrTimeout) {
			if ctx.Err() == nil {
				r.log.Warn("pull ended with an error", "error", err)
				Sleep(ctx, retry.NextBackOff())
			}
		} else {
			retry.Reset()
		}
	}

	close(work)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(r.cfg.drainTimeout):
		r.log.Warn("drain timeout: abandoning in-flight messages; they will be redelivered", "timeout", r.cfg.drainTimeout)
		hcancel()
		<-done
	}
	return nil
}

// handle runs the handler on one message and settles it: ack, retry later,
// or answer and dead-letter.
func (r *runner) handle(ctx context.Context, jm jetstream.Msg) {
	var err error
	start := time.Now()
	r.inFlight.Inc()
	defer r.inFlight.Dec()

	m := &Msg{Subject: jm.Subject(), Data: jm.Data(), Header: jm.Headers()}
	if meta, err := jm.Metadata(); err == nil {
		m.NumDelivered, m.StreamSeq = meta.NumDelivered, meta.Sequence.Stream
	}
	if m.NumDelivered > 1 {
		r.redeliveries.Inc()
	}
	// The message's logger is made only when something is logged: most
	// messages log nothing, and With copies its attributes each time.
	log := func() *slog.Logger {
		return r.log.With("subject", m.Subject, "stream_seq", m.StreamSeq, "delivery", m.NumDelivered)
	}
	// The one place the stage's secrets are kept in: what it publishes,
	// dead-letters or logs about this message is scrubbed of them.
	sc := r.scrubber(ctx, m)
	defer holdSecrets(sc)()
	ctx = WithScrubber(ctx, sc)
	// The span of this message: child of the one that published it, parent
	// of what the handler does and of what it publishes.
	ctx, span := r.startSpan(ctx, m)
	var outcome string
	defer func() { endSpan(span, outcome, err, sc) }()

	stopBeat := r.heartbeat(jm)
	outs, err := r.call(ctx, m)
	if err == nil {
		err = checkOuts(outs)
	}
	if err == nil {
		// Hand-offs to a stage of this process are handled here and now
		// (local.go); what remains is published.
		var release func()
		outs, release = r.handOff(ctx, traceOuts(ctx, sc.Outs(outs)), m.NumDelivered)
		err = r.publishOrWait(ctx, outs)
		release()
	}
	stopBeat()
	defer func() { r.latency.Observe(time.Since(start).Seconds()) }()

	switch {
	case err == nil:
		// A plain ack, not a confirmed one: waiting for the server's
		// confirmation of every ack cost 2–8 % of the pipeline's CPU (the
		// medians of three paired series of 'toolyard bench pipeline',
		// 2026-11-26) and bought a log line. A lost ack shows as a
		// redelivery (the redeliveries metric) and costs nothing twice: the
		// outputs are published with ids, so the repeated delivery
		// republishes duplicates the streams drop, and a call that already
		// ran republishes its stored result (workers/effects).
		if aerr := jm.Ack(); aerr != nil {
			log().Warn("ack failed; message will be redelivered", "error", aerr)
		}
		outcome = OutcomeAck
		r.outcomes[OutcomeAck].Inc()
	case IsPermanent(err) || m.NumDelivered >= uint64(r.cfg.maxDeliver):
		outcome = OutcomeRejected
		if !IsPermanent(err) {
			outcome = OutcomeDeadLetter
			err = fmt.Errorf("gave up after %d deliveries: %w", m.NumDelivered, err)
		}
		if perr := r.publish(ctx, r.rejectOuts(m, err, sc)); perr != nil {
			refused := r.refusedByDLQ(perr)
			if refused && r.letGoAnswered(ctx, m, err, sc) {
				// Bad input, answered, and still in its stream or not
				// worth keeping: retrying would only redeliver it until the
				// DLQ has room, holding the stage's pending slots (a flood
				// of junk could so stall every session's outputs).
				if terr := jm.Term(); terr != nil {
					log().Warn("terminating a rejected message failed", "error", terr)
				}
				log().Warn(dlqFullKeptMessage, "stream", r.stage.Stream, "kept_in_stream", !r.stage.removeAfterDeadLetter(), "reason", err)
				r.outcomes[OutcomeRejected].Inc()
				return
			}
			// Could not record the failure: keep the message for another try.
			if refused {
				log().Error(dlqFullMessage, "stream", r.stage.Stream, "error", perr, "reason", err)
			} else {
				log().Error("publishing the rejection failed; retrying later", "error", perr, "reason", err)
			}
			_ = jm.NakWithDelay(r.delay(m.NumDelivered))
			outcome = OutcomeRetry
			r.outcomes[OutcomeRetry].Inc()
			return
		}
		if terr := jm.Term(); terr != nil {
			log().Warn("terminating a dead-lettered message failed", "error", terr)
		}
		log().Warn("message rejected and dead-lettered", "reason", err)
		r.outcomes[outcome].Inc()
	default:
		d := retryDelay(err, r.delay(m.NumDelivered))
		log().Info("transient failure; will retry", "error", err, "retry_in", d)
		if nerr := jm.NakWithDelay(d); nerr != nil {
			log().Warn("nak failed; message will be redelivered after ack wait", "error", nerr)
		}
		outcome = OutcomeRetry
		r.outcomes[OutcomeRetry].Inc()
	}
}

// call runs the handler, turning a panic into a permanent error: a message
// that crashes the handler would crash it again.
func (r *runner) call(ctx context.Context, m *Msg) (outs []Out, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("handler panicked", "panic", p, "stack", string(debug.Stack()))
			outs, err = nil, Permanentf("internal error in stage %s: %v", r.stage.Name, p)
		}
	}()
	return r.stage.Handler(ctx, m)
}

// rejectOuts answers and dead-letters an input, scrubbed of its secrets.
func (r *runner) rejectOuts(m *Msg, reason error, sc *Scrubber) []Out {
	return append(r.answerOuts(m, reason, sc), deadLetter(r.stage.Name, r.stage.Stream, m, reason, sc))
}

// answerOuts are the stage's answer to a rejected input, scrubbed.
func (r *runner) answerOuts(m *Msg, reason error, sc *Scrubber) []Out {
	if r.stage.Reject == nil {
		return nil
	}
	return sc.Outs(literalOuts(r.stage.Reject(m, reason)))
}

// letGoAnswered reports, for a message the DLQ refused, whether it is
// let go all the same: its input is bad (a permanent error, not a
// failure of Toolyard's), its sender has the answer (published again here:
// the ids make a repeat a no-op), and its stream keeps it after the ack
// (AGENT does; PIPE, a work queue, does not) or the stage calls the
// rejection expendable.
func (r *runner) letGoAnswered(ctx context.Context, m *Msg, reason error, sc *Scrubber) bool {
	expendable := r.stage.Expendable != nil && r.stage.Expendable(reason)
	if !IsPermanent(reason) || r.stage.removeAfterDeadLetter() && !expendable {
		return false
	}
	answer := r.answerOuts(m, reason, sc)
	return len(answer) > 0 && r.publish(ctx, answer) == nil
}

// scrubber is the scrubber of an input's secrets; an input the stage's
// Secrets cannot read has none it knows of.
func (r *runner) scrubber(ctx context.Context, m *Msg) *Scrubber {
	if r.stage.Secrets == nil {
		return NewScrubber()
	}
	return NewScrubber(r.stage.Secrets(ctx, m)...)
}

// heartbeat tells the server the message is still being worked on, so a long
// handler keeps it instead of seeing it redelivered to another worker.
func (r *runner) heartbeat(jm jetstream.Msg) (stop func()) {
	every := r.cfg.ackWait / 3
	if every <= 0 {
		return func() {}
	}
	// A timer that re-arms itself, not a goroutine with a ticker: most
	// messages finish long before the first beat, and then cost nothing.
	var (
		mu      sync.Mutex
		stopped bool
		t       *time.Timer
	)
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(every, func() {
		_ = jm.InProgress()
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			t.Reset(every)
		}
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
	}
}

// delay is the redelivery delay after the n-th delivery failed: exponential
// with jitter, so a burst of failures does not come back as a burst.
func (r *runner) delay(n uint64) time.Duration {
	b := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(r.cfg.backoffMin),
		backoff.WithMaxInterval(r.cfg.backoffMax),
		backoff.WithMaxElapsedTime(0),
	)
	d := b.NextBackOff()
	for i := uint64(1); i < n; i++ {
		d = b.NextBackOff()
	}
	return d
}

// publish sends every output and waits for the server to store each.
func (r *runner) publish(ctx context.Context, outs []Out) error {
	if len(outs) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.publishWait)
	defer cancel()
	outs = traceOuts(ctx, outs)
	futures := make([]jetstream.PubAckFuture, 0, len(outs))
	for _, o := range outs {
		data, err := o.Bytes()
		if err != nil {
			return &publishError{subject: o.Subject, err: err}
		}
		msg := &nats.Msg{Subject: o.Subject, Data: data, Header: o.Header}
		var popts []jetstream.PublishOpt
		if o.ID != "" {
			popts = append(popts, jetstream.WithMsgID(o.ID))
		}
		f, err := r.js.PublishMsgAsync(msg, popts...)
		if err != nil {
			return &publishError{subject: o.Subject, err: err}
		}
		futures = append(futures, f)
	}
	for i, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return &publishError{subject: outs[i].Subject, err: err}
		case <-ctx.Done():
			return fmt.Errorf("publish to %s: no acknowledgement: %w", outs[i].Subject, ctx.Err())
		}
	}
	return nil
}

// reportLag publishes the consumer's backlog as gauges: the signal to scale a stage on.
func (r *runner) reportLag(ctx context.Context) {
	t := time.NewTicker(r.cfg.lagEvery)
	defer t.Stop()
	for {
		info, err := r.cons.Info(ctx)
		if err == nil {
			r.metrics.Pending.WithLabelValues(r.stage.Name).Set(float64(info.NumPending))
			r.metrics.AckPending.WithLabelValues(r.stage.Name).Set(float64(info.NumAckPending))
		}
		// The stream it reads, and those every stage writes: results and
		// audit records have no stage reading them to watch their limits.
		// A stream is read once per tick for the whole process.
		for _, name := range reportedStreams(r.stage.Stream) {
			if !r.metrics.usageDue(name, time.Now(), r.cfg.lagEvery) {
				continue
			}
			if st, err := r.js.Stream(ctx, name); err == nil {
				for limit, used := range streamUsage(st.CachedInfo()) {
					r.metrics.StreamUsage.WithLabelValues(name, limit).Set(used)
				}
			}
		}
		r.reportDLQ(ctx)
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}

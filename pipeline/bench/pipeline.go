package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// Report is what a pipeline run measured. Latencies are per agent output,
// from its publish to its last result.
type Report struct {
	Intents          int     `json:"intents"`
	Outputs          int     `json:"outputs"`
	IntentsPerOutput int     `json:"intents_per_output"`
	InFlight         int     `json:"in_flight"`
	Seconds          float64 `json:"seconds"`
	IntentsPerS      float64 `json:"intents_per_s"`
	P50MS            float64 `json:"p50_ms"`
	P90MS            float64 `json:"p90_ms"`
	P99MS            float64 `json:"p99_ms"`
	MaxMS            float64 `json:"max_ms"`
	// Failed counts outputs with a result other than executed, or without
	// all their results in time; FirstFailure says why the first one failed.
	Failed       int    `json:"failed"`
	FirstFailure string `json:"first_failure,omitempty"`
	// WarmUpIntents are the intents of the untimed warm-up output: sent
	// and answered too, but not in Intents.
	WarmUpIntents int `json:"-"`
}

// Progress is how far a run is, for callers that report long runs.
type Progress struct {
	Done, Total int // intents
	Elapsed     time.Duration
}

type pipelineConfig struct {
	intents, perOutput, inFlight int
	timeout                      time.Duration
	tool                         string
	text                         string
	progress                     func(Progress)
	every                        time.Duration
}

// Option configures Pipeline.
type Option func(*pipelineConfig)

// WithIntents sets how many intents to send (default 1000).
func WithIntents(n int) Option { return func(c *pipelineConfig) { c.intents = n } }

// WithIntentsPerOutput sets how many intents each agent output holds (default 1).
func WithIntentsPerOutput(k int) Option { return func(c *pipelineConfig) { c.perOutput = k } }

// WithInFlight bounds how many outputs wait for their results at once
// (default 32); each of them is a session of its own.
func WithInFlight(n int) Option { return func(c *pipelineConfig) { c.inFlight = n } }

// WithOutputTimeout bounds how long one output waits for its results
// before it counts as failed (default 30 s).
func WithOutputTimeout(d time.Duration) Option { return func(c *pipelineConfig) { c.timeout = d } }

// DefaultTool is the tool the benchmark asks for unless WithTool says
// otherwise: a builtin that answers at once, so the figures are the
// pipeline's own.
const DefaultTool = "toolyard/help"

// WithTool sets the words inside each [TOOL: …] (default DefaultTool).
func WithTool(words string) Option { return func(c *pipelineConfig) { c.tool = words } }

// WithOutputText makes every output text, holding intents intents (for
// example nested ones), instead of WithTool's intents; it sets the intents
// per output to intents.
func WithOutputText(text string, intents int) Option {
	return func(c *pipelineConfig) { c.text, c.perOutput = text, intents }
}

// WithProgress calls fn every interval while the run lasts.
func WithProgress(every time.Duration, fn func(Progress)) Option {
	return func(c *pipelineConfig) { c.every, c.progress = every, fn }
}

// Pipeline publishes agent outputs holding the intents, at most the
// in-flight bound of them unanswered at once, and measures until every one
// has all its results. The stages must be running; the connection needs to
// publish agent.output.* and read the RESULT stream. One output is sent and
// answered first, untimed, so start-up costs are not measured.
func Pipeline(ctx context.Context, js jetstream.JetStream, opts ...Option) (Report, error) {
	cfg := pipelineConfig{intents: 1000, perOutput: 1, inFlight: 32, timeout: 30 * time.Second, tool: DefaultTool}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.intents < 1 || cfg.perOutput < 1 || cfg.inFlight < 1 {
		return Report{}, fmt.Errorf("intents (%d), intents per output (%d) and in-flight (%d) must be at least 1", cfg.intents, cfg.perOutput, cfg.inFlight)
	}
	run, err := runID()
	if err != nil {
		return Report{}, err
	}
	w, err := watchResults(ctx, js)
	if err != nil {
		return Report{}, err
	}
	defer w.stop()

	send := func(session, msgID string, k int) (time.Duration, error) {
		text := cfg.text
		if text == "" {
			var b strings.Builder
			for i := range k {
				fmt.Fprintf(&b, "Step %d: [TOOL: %s] then continue.\n", i, cfg.tool)
			}
			text = b.String()
		}
		return roundTrip(ctx, js, w, session, msgID, text, k, cfg.timeout)
	}
	if _, err := send("bench-"+run+"-warmup", run+"-warmup", cfg.perOutput); err != nil {
		if errors.Is(err, errNoAnswer) {
			return Report{}, fmt.Errorf("warm-up output: %w (are the stages running?)", err)
		}
		return Report{}, fmt.Errorf("warm-up output: %w", err)
	}

	outputs := (cfg.intents + cfg.perOutput - 1) / cfg.perOutput
	rep := Report{Intents: cfg.intents, Outputs: outputs, IntentsPerOutput: cfg.perOutput, InFlight: min(cfg.inFlight, outputs), WarmUpIntents: cfg.perOutput}
	var (
		lat      Latencies
		next     atomic.Int64
		done     atomic.Int64
		failed   atomic.Int64
		firstMu  sync.Mutex
		first    string
		wg       sync.WaitGroup
		progress = make(chan struct{})
	)
	start := time.Now()
	if cfg.progress != nil && cfg.every > 0 {
		go func() {
			t := time.NewTicker(cfg.every)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					cfg.progress(Progress{Done: int(done.Load()), Total: cfg.intents, Elapsed: time.Since(start)})
				case <-progress:
					return
				}
			}
		}()
	}
	for slot := 0; slot < rep.InFlight; slot++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := fmt.Sprintf("bench-%s-%d", run, slot)
			for {
				i := int(next.Add(1)) - 1
				if i >= outputs || ctx.Err() != nil {
					return
				}
				k := min(cfg.perOutput, cfg.intents-i*cfg.perOutput)
				d, err := send(session, fmt.Sprintf("%s-%d", run, i), k)
				done.Add(int64(k))
				if err != nil {
					failed.Add(1)
					firstMu.Lock()
					if first == "" {
						first = err.Error()
					}
					firstMu.Unlock()
					continue
				}
				lat.Add(d)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(progress)

	rep.Seconds = elapsed.Seconds()
	rep.IntentsPerS = Rate(cfg.intents, elapsed)
	rep.P50MS, rep.P90MS = ms(lat.Percentile(0.50)), ms(lat.Percentile(0.90))
	rep.P99MS, rep.MaxMS = ms(lat.Percentile(0.99)), ms(lat.Percentile(1))
	rep.Failed, rep.FirstFailure = int(failed.Load()), first
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("benchmark stopped: %w", err)
	}
	if rep.Failed > 0 {
		return rep, fmt.Errorf("%d of %d outputs failed; the first: %s", rep.Failed, outputs, first)
	}
	return rep, nil
}

// errNoAnswer: an output's results did not all come in time.
var errNoAnswer = errors.New("no answer")

// roundTrip publishes one output of text, which holds k intents, and waits
// for its k results.
func roundTrip(ctx context.Context, js jetstream.JetStream, w *resultWatch, session, msgID, text string, k int, timeout time.Duration) (time.Duration, error) {
	data, err := json.Marshal(schemas.AgentOutput{SessionID: session, MessageID: msgID, Text: text})
	if err != nil {
		return 0, err
	}
	ch := w.expect(msgID, k)
	defer w.forget(msgID)
	start := time.Now()
	if _, err := js.Publish(ctx, schemas.AgentOutputSubject(session), data); err != nil {
		return 0, fmt.Errorf("publish output %s: %w", msgID, err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for got := 0; got < k; {
		select {
		case r := <-ch:
			switch r.Status {
			case schemas.StatusAccepted:
			case schemas.StatusExecuted:
				got++
			default:
				return 0, fmt.Errorf("output %s: intent %s: %s: %s", msgID, r.IntentID, r.Status, r.Message)
			}
		case <-timer.C:
			return 0, fmt.Errorf("output %s: %d of %d results after %s (--output-timeout): %w", msgID, got, k, timeout, errNoAnswer)
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	return time.Since(start), nil
}

// result is the part of a schemas.Result the benchmark reads.
type result struct {
	MessageID string `json:"message_id"`
	IntentID  string `json:"intent_id"`
	Status    string `json:"status"`
	Message   string `json:"message"`
}

// resultWatch routes results to the output waiting for them.
type resultWatch struct {
	mu      sync.Mutex
	waiting map[string]chan result
	stop    func()
}

func watchResults(ctx context.Context, js jetstream.JetStream) (*resultWatch, error) {
	w := &resultWatch{waiting: map[string]chan result{}}
	cons, err := js.OrderedConsumer(ctx, pipeline.StreamResult, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{schemas.ResultPrefix + ">"}, DeliverPolicy: jetstream.DeliverNewPolicy,
	})
	if err != nil {
		return nil, fmt.Errorf("read the RESULT stream: %w", err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		var r result
		if json.Unmarshal(m.Data(), &r) != nil {
			return
		}
		w.mu.Lock()
		ch := w.waiting[r.MessageID]
		w.mu.Unlock()
		if ch != nil {
			select {
			case ch <- r:
			default: // more results than the output has intents: not ours to wait for
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read the RESULT stream: %w", err)
	}
	w.stop = cc.Stop
	return w, nil
}

// expect registers an output of k intents: room for its receipt and all
// its results, so the reader never waits on it.
func (w *resultWatch) expect(msgID string, k int) chan result {
	ch := make(chan result, k+1)
	w.mu.Lock()
	w.waiting[msgID] = ch
	w.mu.Unlock()
	return ch
}

func (w *resultWatch) forget(msgID string) {
	w.mu.Lock()
	delete(w.waiting, msgID)
	w.mu.Unlock()
}

// runID tells this run's sessions and message ids from any earlier run's,
// whose ids the streams' duplicate windows would otherwise drop.
func runID() (string, error) {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random run id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

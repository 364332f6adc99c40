package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
)

// Stream names and the subjects they hold.
const (
	StreamAgent  = "AGENT"  // agent.>: what agents publish (a log, replayable)
	StreamPipe   = "PIPE"   // pipe.>: work between stages (work queue)
	StreamResult = "RESULT" // result.>: what agents read back
	StreamAudit  = "AUDIT"  // audit.>: one record per decision (training input)
	StreamDLQ    = "DLQ"    // dlq.>: inputs a stage gave up on

	PipeSubjects = "pipe.>"
	DLQPrefix    = "dlq."
)

// StreamLimits bounds one stream.
type StreamLimits struct {
	MaxAge   time.Duration
	MaxBytes int64
	// Replicas is the number of copies in a cluster (1 on a single server).
	Replicas int
	// MaxPerSubject caps the messages kept per subject; 0 is no cap. On
	// DLQ, whose subjects are the stages (dlq.<stage>), it is each stage's
	// reserved share: a stage at its cap has its new entries refused,
	// never another stage's entries evicted.
	MaxPerSubject int64
}

// Topology is the set of streams Toolyard runs on.
type Topology struct {
	Agent, Pipe, Result, Audit, DLQ StreamLimits
	// DuplicateWindow is how long a Nats-Msg-Id is remembered. It must outlast
	// the longest redelivery cycle (AckWait × MaxDeliver plus backoff), or a
	// late redelivery would duplicate downstream work.
	DuplicateWindow time.Duration
	// Storage is file (default) or memory.
	Storage jetstream.StorageType
	// StoreFitted says FitStore scaled the sizes down to what this
	// server's store holds: existing streams then keep whatever size they
	// were created with, and Differences does not report max_bytes.
	StoreFitted bool
}

// DefaultDLQPerStage is how many dead letters one stage may hold: with
// the eight stages at it, entries of up to 16 KiB (a dead letter is the
// input it gave up on plus a few headers; most are under 2 KiB) still fit
// DLQ's 1 GiB, so a flood at one stage (junk at parse) leaves every other
// stage its room.
const DefaultDLQPerStage = 8192

// DefaultTopology is sized for one machine: a day of agent traffic and
// results, a month of audit and dead letters.
func DefaultTopology() Topology {
	const gib = 1 << 30
	return Topology{
		Agent:           StreamLimits{MaxAge: 24 * time.Hour, MaxBytes: 1 * gib, Replicas: 1},
		Pipe:            StreamLimits{MaxAge: 24 * time.Hour, MaxBytes: 1 * gib, Replicas: 1},
		Result:          StreamLimits{MaxAge: 24 * time.Hour, MaxBytes: 1 * gib, Replicas: 1},
		Audit:           StreamLimits{MaxAge: 30 * 24 * time.Hour, MaxBytes: 10 * gib, Replicas: 1},
		DLQ:             StreamLimits{MaxAge: 30 * 24 * time.Hour, MaxBytes: 1 * gib, Replicas: 1, MaxPerSubject: DefaultDLQPerStage},
		DuplicateWindow: 10 * time.Minute,
		Storage:         jetstream.FileStorage,
	}
}

// WithReplicas returns the topology with every stream at n replicas.
func (t Topology) WithReplicas(n int) Topology {
	for _, l := range []*StreamLimits{&t.Agent, &t.Pipe, &t.Result, &t.Audit, &t.DLQ} {
		l.Replicas = n
	}
	return t
}

// Streams returns the stream configurations of the topology.
func (t Topology) Streams() []jetstream.StreamConfig {
	mk := func(name, desc string, subjects []string, l StreamLimits, ret jetstream.RetentionPolicy) jetstream.StreamConfig {
		replicas := l.Replicas
		if replicas < 1 {
			replicas = 1
		}
		return jetstream.StreamConfig{
			Name: name, Description: desc, Subjects: subjects, Retention: ret,
			MaxAge: l.MaxAge, MaxBytes: l.MaxBytes, Replicas: replicas,
			Storage: t.Storage, Duplicates: t.DuplicateWindow, Discard: jetstream.DiscardOld,
			// Default persistence: a write is flushed before it is acknowledged,
			// so an acknowledged message survives a crash of the server process.
			PersistMode: jetstream.DefaultPersistMode,
		}
	}
	pipe := mk(StreamPipe, "Work between Toolyard stages", []string{PipeSubjects}, t.Pipe, jetstream.WorkQueuePolicy)
	// A full work queue must refuse new work rather than drop queued work.
	pipe.Discard = jetstream.DiscardNew
	// A full AGENT stream refuses the next output, back to the publisher
	// (an error it can act on), rather than dropping accepted outputs not
	// yet parsed; outputs still leave it by age.
	agent := mk(StreamAgent, "Agent outputs and token streams", []string{"agent.>"}, t.Agent, jetstream.LimitsPolicy)
	agent.Discard = jetstream.DiscardNew
	// A dead letter is never evicted by a newer one: junk flooding one
	// stage's subject fills that stage's share and is refused past it (the
	// stage keeps the message and counts toolyard_dlq_refused_total),
	// while the entries of every stage stay until they age out or are
	// replayed or purged.
	dlq := mk(StreamDLQ, "Inputs a stage gave up on, with the reason", []string{DLQPrefix + ">"}, t.DLQ, jetstream.LimitsPolicy)
	dlq.Discard = jetstream.DiscardNew
	if t.DLQ.MaxPerSubject > 0 {
		dlq.MaxMsgsPerSubject, dlq.DiscardNewPerSubject = t.DLQ.MaxPerSubject, true
	}
	return []jetstream.StreamConfig{
		agent,
		pipe,
		mk(StreamResult, "Results read back by agents", []string{"result.>"}, t.Result, jetstream.LimitsPolicy),
		mk(StreamAudit, "One record per pipeline decision", []string{"audit.>"}, t.Audit, jetstream.LimitsPolicy),
		dlq,
	}
}

// Ensure creates the streams that do not exist yet and leaves existing ones
// as they are, so a worker joining a cluster never rewrites the limits or
// replication an operator chose. Safe to call from every process.
func (t Topology) Ensure(ctx context.Context, js jetstream.JetStream) error {
	for _, cfg := range t.Streams() {
		// Looked up first: the server checks a create against the store
		// before it finds the stream exists, so re-creating a stream that
		// fills most of the store is refused as if it did not fit.
		_, err := js.Stream(ctx, cfg.Name)
		if err == nil {
			continue
		}
		if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return fmt.Errorf("stream %s: %w", cfg.Name, err)
		}
		_, err = js.CreateStream(ctx, cfg)
		if err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return createError(cfg, err)
		}
	}
	return nil
}

// Missing names the topology's streams that do not exist yet: Ensure and
// Apply create them.
func (t Topology) Missing(ctx context.Context, js jetstream.JetStream) ([]string, error) {
	var out []string
	for _, cfg := range t.Streams() {
		_, err := js.Stream(ctx, cfg.Name)
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			out = append(out, cfg.Name)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", cfg.Name, err)
		}
	}
	return out, nil
}

// Apply creates the streams or updates them to this configuration, and
// gives the existing buckets the streams' replicas.
func (t Topology) Apply(ctx context.Context, js jetstream.JetStream) error {
	for _, cfg := range t.Streams() {
		if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
			// Only a refusal is worth the lookup: it says whether this was
			// an update, and the size the stream has now.
			if s, lerr := js.Stream(ctx, cfg.Name); lerr == nil {
				old := s.CachedInfo().Config
				return streamError("update", cfg, &old, err)
			}
			return createError(cfg, err)
		}
	}
	return t.applyBucketReplicas(ctx, js)
}

// createError explains a refused stream creation (streamError).
func createError(cfg jetstream.StreamConfig, err error) error {
	return streamError("create", cfg, nil, err)
}

// streamError explains why the server refused to create or update (verb)
// the stream cfg; old is the stream's configuration before an update. The
// server's own words for a store too small ("insufficient storage
// resources available") name neither the stream, its size, nor what to
// do: give the stream less, or the store more (the size of up's
// embedded store is --max-store; a nats-server of one's own sets
// max_file_store).
func streamError(verb string, cfg jetstream.StreamConfig, old *jetstream.StreamConfig, err error) error {
	var api *jetstream.APIError
	if errors.As(err, &api) && (api.ErrorCode == jetstream.ErrorCode(server.JSStorageResourcesExceededErr) ||
		api.ErrorCode == jetstream.ErrorCode(server.JSInsufficientResourcesErr)) {
		now := ""
		if old != nil && old.MaxBytes > 0 {
			now = fmt.Sprintf(" (it has %s now)", FormatBytes(old.MaxBytes))
		}
		return fmt.Errorf("%s stream %s: the server cannot reserve its max_bytes %s beside the other streams%s: give it less with --retention %s=%s:SIZE, or give JetStream a larger store: 'toolyard up --max-store SIZE' (by default three quarters of the disk free under --data at start), or max_file_store on a nats-server of your own, or free disk: %w",
			verb, cfg.Name, FormatBytes(cfg.MaxBytes), now, cfg.Name, shortDuration(cfg.MaxAge), err)
	}
	return fmt.Errorf("%s stream %s: %w", verb, cfg.Name, err)
}

// shortDuration writes 720h rather than 720h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

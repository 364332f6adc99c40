package effects

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/toolyard/toolyard/pipeline"
)

// ExecutionsBucket is the KV bucket of execution records.
const ExecutionsBucket = "executions"

// Defaults of the options.
const (
	// DefaultRecordTTL outlasts any message in the work queue (its max
	// age is 24h too, and redeliveries end far sooner).
	DefaultRecordTTL = 24 * time.Hour
	// DefaultLease is how long a claim holds without a heartbeat: a worker
	// that died is taken over after at most this long.
	DefaultLease = 15 * time.Second
	// DefaultBusyWait is how long a delivery waits for another worker's
	// live claim before giving its message back for later.
	DefaultBusyWait = time.Minute
)

// Executions is the store of execution records. Safe for concurrent use.
type Executions struct {
	kv  jetstream.KeyValue
	cfg config
}

type config struct {
	ttl      time.Duration
	lease    time.Duration
	busyWait time.Duration
	replicas int
	storage  jetstream.StorageType
	worker   string
	log      *slog.Logger
}

// Option configures Executions (and Outputs, for the options they share).
type Option func(*config)

// WithTTL sets how long a record is kept after its last write (24h).
func WithTTL(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.ttl = d
		}
	}
}

// WithLease sets the claim lease (15s); heartbeats renew it every fifth.
func WithLease(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.lease = d
		}
	}
}

// WithBusyWait sets how long a delivery waits on another worker's live
// claim before it gives the message back (1m).
func WithBusyWait(d time.Duration) Option {
	return func(c *config) {
		if d >= 0 {
			c.busyWait = d
		}
	}
}

// WithReplicas sets the replicas of a bucket created by Open (by default
// those of the PIPE stream, so the records are as durable as the work).
func WithReplicas(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.replicas = n
		}
	}
}

// WithMemoryStorage keeps a bucket created by Open in memory (tests).
func WithMemoryStorage() Option { return func(c *config) { c.storage = jetstream.MemoryStorage } }

// WithWorkerID names this worker in the claims it makes (host:pid).
func WithWorkerID(id string) Option {
	return func(c *config) {
		if id != "" {
			c.worker = id
		}
	}
}

// WithLogger sets the logger (slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

func newConfig(opts []Option) config {
	host, _ := os.Hostname()
	c := config{ttl: DefaultRecordTTL, lease: DefaultLease, busyWait: DefaultBusyWait,
		storage: jetstream.FileStorage, worker: host + ":" + strconv.Itoa(os.Getpid()), log: slog.Default()}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// OpenExecutions opens the executions bucket, creating it if needed. An
// existing bucket keeps its configuration (an operator's choice).
func OpenExecutions(ctx context.Context, js jetstream.JetStream, opts ...Option) (*Executions, error) {
	cfg := newConfig(opts)
	cfg.replicas = replicas(ctx, js, cfg.replicas)
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: ExecutionsBucket, Description: "Toolyard execution records: one claim, then one result, per call",
		History: 1, TTL: cfg.ttl, Replicas: cfg.replicas, Storage: cfg.storage,
	})
	if err != nil {
		return nil, err
	}
	return &Executions{kv: kv, cfg: cfg}, nil
}

// Lease returns the claim lease.
func (x *Executions) Lease() time.Duration { return x.cfg.lease }

// Outcome is what Acquire found. Exactly one field is set.
type Outcome struct {
	// Lease: this worker holds the call. Run it, then Finish or Release.
	Lease *Lease
	// Done: the call finished before; publish Done.Outs() again.
	Done *Record
	// Busy: another worker still holds a live claim after the wait.
	Busy *Record
}

// Acquire claims the call, or reports that it finished or that another
// worker holds it. A live claim of another worker is waited on (up to the
// busy wait): it may finish, be released, or lapse and be taken over.
// Errors are the bucket's (unreachable, timed out): worth retrying.
func (x *Executions) Acquire(ctx context.Context, id ID) (Outcome, error) {
	if err := id.validate(); err != nil {
		return Outcome{}, err
	}
	key := id.Key()
	deadline := time.Now().Add(x.cfg.busyWait)
	for {
		now := time.Now()
		rec := Record{SessionID: id.SessionID, IntentID: id.IntentID, ToolID: id.ToolID, Call: id.Call, State: StateRunning,
			Owner: x.token(), LeaseUntil: now.Add(x.cfg.lease), Claims: 1, ClaimedAt: now.UTC()}
		rev, err := x.kv.Create(ctx, key, encodeRecord(rec))
		if err == nil {
			return Outcome{Lease: x.newLease(key, rec, rev)}, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return Outcome{}, fmt.Errorf("claim execution %s: %w", key, err)
		}
		entry, err := x.kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // released or expired since: claim again
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("read execution %s: %w", key, err)
		}
		old, derr := decodeRecord(entry.Value())
		switch {
		case derr == nil && old.State == StateDone:
			return Outcome{Done: &old}, nil
		case derr == nil && old.leaseLive(time.Now()):
			if !time.Now().Before(deadline) {
				return Outcome{Busy: &old}, nil
			}
			if err := x.await(ctx, key, entry.Revision(), earliest(old.LeaseUntil, deadline)); err != nil {
				return Outcome{}, err
			}
			continue
		}
		// A lapsed lease (or a record nobody can read): take it over at the
		// revision read, so of several takers exactly one wins.
		if derr != nil {
			x.cfg.log.Warn("unreadable execution record taken over", "key", key, "error", derr)
		} else {
			rec.Claims = old.Claims + 1
			x.cfg.log.Warn("execution claim lapsed; taking over", "key", key, "tool", id.ToolID,
				"previous_owner", old.Owner, "lease_until", old.LeaseUntil, "claims", rec.Claims)
		}
		rev, err = x.kv.Update(ctx, key, encodeRecord(rec), entry.Revision())
		switch {
		case err == nil:
			Takeovers.WithLabelValues(id.ToolID).Inc()
			return Outcome{Lease: x.newLease(key, rec, rev)}, nil
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch), errors.Is(err, jetstream.ErrKeyExists):
			continue // someone else moved first: look again
		default:
			return Outcome{}, fmt.Errorf("take over execution %s: %w", key, err)
		}
	}
}

// await blocks until the key changes past rev, or until, or ctx ends.
func (x *Executions) await(ctx context.Context, key string, rev uint64, until time.Time) error {
	wctx, cancel := context.WithDeadline(ctx, until)
	defer cancel()
	w, err := x.kv.Watch(wctx, key)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if wctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("watch execution %s: %w", key, err)
	}
	defer func() { _ = w.Stop() }()
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return nil
			}
			if e != nil && e.Revision() > rev {
				return nil
			}
		case <-wctx.Done():
			return ctx.Err() // nil when only the deadline passed
		}
	}
}

// Get reads a call's record and its revision.
func (x *Executions) Get(ctx context.Context, id ID) (Record, uint64, error) {
	e, err := x.kv.Get(ctx, id.Key())
	if err != nil {
		return Record{}, 0, fmt.Errorf("read execution %s: %w", id.Key(), err)
	}
	r, err := decodeRecord(e.Value())
	return r, e.Revision(), err
}

func (x *Executions) token() string { return x.cfg.worker + "/" + nuid.Next() }

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// replicas is n, or when unset the PIPE stream's replicas (1 without it).
func replicas(ctx context.Context, js jetstream.JetStream, n int) int {
	if n > 0 {
		return n
	}
	if st, err := js.Stream(ctx, pipeline.StreamPipe); err == nil {
		if r := st.CachedInfo().Config.Replicas; r > 0 {
			return r
		}
	}
	return 1
}

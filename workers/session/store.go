package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// Bucket is the KV bucket of the active tool sets, one key per session.
const Bucket = "sessions"

// SetSubject is the subject every write of session's key is published
// on: a plain subscription to it sees each change of the set as it
// happens, with no consumer (agents watch their set this way).
func SetSubject(session string) string { return "$KV." + Bucket + "." + session }

// Defaults of the options.
const (
	DefaultTTL      = 30 * time.Minute
	DefaultMaxTools = 64
)

// maxAttempts bounds the compare-and-set retries of one write; each retry
// means another worker wrote the same session in between.
const maxAttempts = 64

// ErrBadSession is returned for a session id that is not a subject token.
// It is the schemas package's error: one rule for every entry point.
var ErrBadSession = schemas.ErrInvalidSessionID

// CheckID returns an error naming the rule when id is not a valid session
// id (schemas.ValidateSessionID).
func CheckID(id string) error { return schemas.ValidateSessionID(id) }

// Store reads and writes active tool sets. It is safe for concurrent use,
// also from several processes.
type Store struct {
	kv       jetstream.KeyValue
	ttl      time.Duration
	maxTools int
	log      *slog.Logger
	now      func() time.Time
}

// Option configures a Store.
type Option func(*storeConfig)

type storeConfig struct {
	ttl      time.Duration
	replicas int
	maxTools int
	storage  jetstream.StorageType
	log      *slog.Logger
}

// WithTTL sets how long an idle session's set lives (DefaultTTL). Every
// write renews it. It applies when the bucket is created; an existing
// bucket keeps its TTL.
func WithTTL(d time.Duration) Option { return func(c *storeConfig) { c.ttl = d } }

// WithReplicas sets the bucket's replicas when it is created (by default
// those of the PIPE stream, so sets are as durable as the work, 1 without it).
func WithReplicas(n int) Option { return func(c *storeConfig) { c.replicas = n } }

// WithMaxTools caps a set (DefaultMaxTools): past it, the oldest tools
// that were not activated explicitly make room.
func WithMaxTools(n int) Option { return func(c *storeConfig) { c.maxTools = n } }

// WithMemoryStorage keeps the bucket in memory (tests); file by default.
func WithMemoryStorage() Option { return func(c *storeConfig) { c.storage = jetstream.MemoryStorage } }

// WithLogger sets the logger (slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(c *storeConfig) { c.log = l } }

// Open opens the sessions bucket, creating it if needed.
func Open(ctx context.Context, js jetstream.JetStream, opts ...Option) (*Store, error) {
	c := storeConfig{ttl: DefaultTTL, maxTools: DefaultMaxTools, storage: jetstream.FileStorage, log: slog.Default()}
	for _, o := range opts {
		o(&c)
	}
	if c.ttl <= 0 {
		return nil, fmt.Errorf("session TTL must be positive, got %v", c.ttl)
	}
	if c.maxTools < 1 {
		return nil, fmt.Errorf("session max tools must be at least 1, got %d", c.maxTools)
	}
	if c.replicas < 1 {
		c.replicas = 1
		if st, err := js.Stream(ctx, pipeline.StreamPipe); err == nil && st.CachedInfo().Config.Replicas > 0 {
			c.replicas = st.CachedInfo().Config.Replicas
		}
	}
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: Bucket, Description: "Active tool set per agent session", TTL: c.ttl,
		History: 1, Replicas: c.replicas, Storage: c.storage,
	})
	if err != nil {
		return nil, err
	}
	ttl := c.ttl
	if st, err := kv.Status(ctx); err == nil && st.TTL() > 0 {
		if st.TTL() != c.ttl {
			c.log.Warn("sessions bucket keeps the TTL it was created with", "ttl", st.TTL(), "asked", c.ttl)
		}
		ttl = st.TTL()
	}
	return &Store{kv: kv, ttl: ttl, maxTools: c.maxTools, log: c.log, now: func() time.Time { return time.Now().UTC() }}, nil
}

// TTL is how long an idle set lives.
func (s *Store) TTL() time.Duration { return s.ttl }

// Get returns a session's set; a session without one (never seen, ended or
// expired) has an empty, unseeded set.
func (s *Store) Get(ctx context.Context, session string) (schemas.ToolSet, error) {
	set, _, err := s.load(ctx, session)
	return set, err
}

// load returns the set and its revision (0 when there is none).
func (s *Store) load(ctx context.Context, session string) (schemas.ToolSet, uint64, error) {
	if err := CheckID(session); err != nil {
		return schemas.ToolSet{}, 0, err
	}
	e, err := s.kv.Get(ctx, session)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return empty(session), 0, nil
	}
	if err != nil {
		return schemas.ToolSet{}, 0, fmt.Errorf("read session %s: %w", session, err)
	}
	set, err := DecodeSet(session, e.Value())
	if err != nil {
		// A set that cannot be read is as good as none; the next write
		// replaces it.
		s.log.Error("unreadable session set replaced by an empty one", "session", session, "error", err)
	}
	return set, e.Revision(), nil
}

// DecodeSet reads a stored set: the value of session's key, or the data of
// a write seen on SetSubject. An empty value (a delete or purge) is the
// empty set; so is one that cannot be read, returned with its error.
func DecodeSet(session string, value []byte) (schemas.ToolSet, error) {
	if len(value) == 0 {
		return empty(session), nil
	}
	var set schemas.ToolSet
	if err := json.Unmarshal(value, &set); err != nil {
		return empty(session), fmt.Errorf("session %s: unreadable set: %w", session, err)
	}
	if set.Tools == nil {
		set.Tools = []schemas.ActiveTool{}
	}
	return set, nil
}

func empty(session string) schemas.ToolSet {
	return schemas.ToolSet{V: schemas.Version, SessionID: session, Tools: []schemas.ActiveTool{}}
}

// update applies change to the session's current set and writes it if the
// key is still at the revision read, retrying from a fresh read when
// another writer got there first. change reports whether it changed
// anything; when it did not, nothing is written.
func (s *Store) update(ctx context.Context, session string, change func(*schemas.ToolSet) bool) (schemas.ToolSet, error) {
	for attempt := 0; attempt < maxAttempts; attempt++ {
		set, rev, err := s.load(ctx, session)
		if err != nil {
			return schemas.ToolSet{}, err
		}
		if !change(&set) {
			return set, nil
		}
		now := s.now()
		if set.Created.IsZero() {
			set.Created = now
		}
		set.Updated = now
		set.Tools = s.capped(set.Tools)
		data, err := json.Marshal(set)
		if err != nil {
			return schemas.ToolSet{}, fmt.Errorf("encode session %s: %w", session, err)
		}
		if rev == 0 {
			_, err = s.kv.Create(ctx, session, data)
		} else {
			_, err = s.kv.Update(ctx, session, data, rev)
		}
		if err == nil {
			return set, nil
		}
		if !conflict(err) {
			return schemas.ToolSet{}, fmt.Errorf("write session %s: %w", session, err)
		}
		// Another writer won; back off a little so a crowd does not retry in step.
		pipeline.Sleep(ctx, time.Duration(rand.IntN(1+attempt))*time.Millisecond)
		if err := ctx.Err(); err != nil {
			return schemas.ToolSet{}, err
		}
	}
	return schemas.ToolSet{}, fmt.Errorf("write session %s: still conflicting after %d attempts", session, maxAttempts)
}

func conflict(err error) bool {
	var apiErr *jetstream.APIError
	return errors.Is(err, jetstream.ErrKeyExists) ||
		(errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence)
}

// capped drops the oldest tools that were not activated explicitly until
// the set fits, then the oldest activated ones if it still does not.
func (s *Store) capped(ts []schemas.ActiveTool) []schemas.ActiveTool {
	for len(ts) > s.maxTools {
		i := slices.IndexFunc(ts, func(t schemas.ActiveTool) bool { return t.Source != schemas.SourceActivate })
		if i < 0 {
			i = 0
		}
		ts = slices.Delete(ts, i, i+1)
	}
	return ts
}

// Add puts tools into the session's set (a tool already there keeps its
// place; an explicit activation upgrades its source) and returns the set
// and the ids that were new.
func (s *Store) Add(ctx context.Context, session string, tools ...schemas.ActiveTool) (schemas.ToolSet, []string, error) {
	var added []string
	set, err := s.update(ctx, session, func(set *schemas.ToolSet) bool {
		added = added[:0]
		changed := false
		for _, t := range tools {
			if t.Added.IsZero() {
				t.Added = s.now()
			}
			i := slices.IndexFunc(set.Tools, func(x schemas.ActiveTool) bool { return x.ID == t.ID })
			switch {
			case i < 0:
				set.Tools = append(set.Tools, t)
				added = append(added, t.ID)
				changed = true
			case t.Source == schemas.SourceActivate && set.Tools[i].Source != schemas.SourceActivate:
				set.Tools[i].Source, set.Tools[i].Confidence = t.Source, t.Confidence
				changed = true
			}
		}
		return changed
	})
	if err != nil {
		return schemas.ToolSet{}, nil, err
	}
	return set, added, nil
}

// Seed fills a session's set from its first output, once: when the set is
// already seeded it is returned unchanged and seeded is false. Tools added
// before seeding (an early activate) stay. degraded, when not empty, records
// why seeding added nothing.
func (s *Store) Seed(ctx context.Context, session, messageID string, tools []schemas.ActiveTool, degraded string) (set schemas.ToolSet, seeded bool, err error) {
	set, err = s.update(ctx, session, func(set *schemas.ToolSet) bool {
		seeded = false
		if set.Seeded {
			return false
		}
		set.Seeded, set.SeedMessage, set.Degraded = true, messageID, degraded
		for _, t := range tools {
			if t.Added.IsZero() {
				t.Added = s.now()
			}
			if !set.Has(t.ID) {
				set.Tools = append(set.Tools, t)
			}
		}
		seeded = true
		return true
	})
	return set, seeded, err
}

// Touch renews an existing set's TTL if it was last written more than a
// quarter of the TTL ago, so an active session does not expire while its
// agent keeps talking; it does not create a set.
func (s *Store) Touch(ctx context.Context, session string) error {
	_, err := s.update(ctx, session, func(set *schemas.ToolSet) bool {
		return !set.Updated.IsZero() && s.now().Sub(set.Updated) > s.ttl/4
	})
	return err
}

// End clears a session's set and returns how many tools it held. Ending a
// session without a set is not an error.
func (s *Store) End(ctx context.Context, session string) (int, error) {
	set, rev, err := s.load(ctx, session)
	if err != nil {
		return 0, err
	}
	if rev == 0 {
		return 0, nil
	}
	if err := s.kv.Purge(ctx, session); err != nil {
		return 0, fmt.Errorf("end session %s: %w", session, err)
	}
	return len(set.Tools), nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

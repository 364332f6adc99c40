package predict

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
)

// Bucket is the KV bucket of prefetched searches: one key per session.
const Bucket = "prefetch"

// DefaultTTL is how long a session's prefetched searches are kept.
const DefaultTTL = 10 * time.Minute

// Store is the prefetch bucket.
type Store struct{ kv jetstream.KeyValue }

// OpenStore opens the prefetch bucket, creating it with ttl (DefaultTTL
// when 0) if it does not exist. Entries live in memory: they are an
// optimisation, worth nothing after a restart's few minutes anyway.
func OpenStore(ctx context.Context, js jetstream.JetStream, ttl time.Duration) (*Store, error) {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: Bucket, Description: "prefetched discovery searches per session (workers/predict)",
		TTL: ttl, History: 1, Storage: jetstream.MemoryStorage,
	})
	if err != nil {
		return nil, err
	}
	return &Store{kv: kv}, nil
}

// key is a session's key: its id in URL-safe base64, which every session
// id maps to a valid key.
func key(session string) string { return base64.RawURLEncoding.EncodeToString([]byte(session)) }

// Get returns a session's slot and its revision (0 when there is none).
func (s *Store) Get(ctx context.Context, session string) (Slot, uint64, error) {
	e, err := s.kv.Get(ctx, key(session))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Slot{}, 0, nil
	}
	if err != nil {
		return Slot{}, 0, fmt.Errorf("prefetch: get session %s: %w", session, err)
	}
	var slot Slot
	if err := json.Unmarshal(e.Value(), &slot); err != nil {
		return Slot{}, 0, fmt.Errorf("prefetch: session %s: %w", session, err)
	}
	return slot, e.Revision(), nil
}

// Add puts an entry in a session's slot (Slot.Add), retrying when another
// writer got there first.
func (s *Store) Add(ctx context.Context, session string, e Entry) error {
	_, err := s.put(ctx, session, e, false)
	return err
}

// Claim puts a pending entry in a session's slot unless one of the same
// text, registry and model is there already: it reports whether this
// caller is the one to run its search.
func (s *Store) Claim(ctx context.Context, session string, e Entry) (bool, error) {
	return s.put(ctx, session, e, true)
}

func (s *Store) put(ctx context.Context, session string, e Entry, claim bool) (bool, error) {
	for attempt := 0; ; attempt++ {
		slot, rev, err := s.Get(ctx, session)
		if err != nil {
			return false, err
		}
		if claim && slices.ContainsFunc(slot.Entries, func(o Entry) bool {
			return o.TextSum == e.TextSum && o.Registry == e.Registry && o.Model == e.Model
		}) {
			return false, nil
		}
		slot.Add(e)
		data, err := json.Marshal(slot)
		if err != nil {
			return false, fmt.Errorf("prefetch: encode session %s: %w", session, err)
		}
		if rev == 0 {
			_, err = s.kv.Create(ctx, key(session), data)
		} else {
			_, err = s.kv.Update(ctx, key(session), data, rev)
		}
		if err == nil {
			return true, nil
		}
		if attempt >= 4 || !(errors.Is(err, jetstream.ErrKeyExists) || isWrongSequence(err)) {
			return false, fmt.Errorf("prefetch: put session %s: %w", session, err)
		}
	}
}

func isWrongSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
}

// Watch follows a session's slot until ctx ends: every new value.
func (s *Store) Watch(ctx context.Context, session string) (jetstream.KeyWatcher, error) {
	w, err := s.kv.Watch(ctx, key(session), jetstream.UpdatesOnly())
	if err != nil {
		return nil, fmt.Errorf("prefetch: watch session %s: %w", session, err)
	}
	return w, nil
}

package join

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// Bucket is the KV bucket of pending outer intents.
const Bucket = "pending"

// bucketMaxAge is how long a key lives after its last write. It bounds how
// long the delete marker of a finished record keeps a late parse redelivery
// from registering it again, and must outlast any timeout.
const bucketMaxAge = 24 * time.Hour

// ErrConflict: the record changed since it was read (another worker wrote
// it); read it again and retry.
var ErrConflict = errors.New("pending record changed since it was read")

// Store holds pending outer intents in the pending bucket. Keys:
//
//	w.<session>.<outer id>  the Pending record
//	d.<session>.<inner id>  the id of the outer intent waiting on it
//
// Intent ids are base64url-encoded, as they may hold any non-space character
// and a key may not.
type Store struct {
	kv jetstream.KeyValue
}

// OpenStore opens the pending bucket, creating it if needed.
func OpenStore(ctx context.Context, js jetstream.JetStream) (*Store, error) {
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: Bucket, Description: "Toolyard nested intents waiting for their inner intents' results",
		History: 1, TTL: bucketMaxAge, Storage: jetstream.FileStorage,
		Replicas: replicasOf(ctx, js, pipeline.StreamResult),
	})
	if err != nil {
		return nil, err
	}
	return &Store{kv: kv}, nil
}

// replicasOf is the replication of a stream, 1 if it cannot be read: the
// bucket is as durable as the results it waits for (R3 on a cluster set up
// with toolyard up --replicas 3).
func replicasOf(ctx context.Context, js jetstream.JetStream, stream string) int {
	st, err := js.Stream(ctx, stream)
	if err != nil {
		return 1
	}
	if r := st.CachedInfo().Config.Replicas; r > 1 {
		return r
	}
	return 1
}

func recordKey(session, id string) string { return "w." + session + "." + enc(id) }
func edgeKey(session, id string) string   { return "d." + session + "." + enc(id) }
func enc(id string) string                { return base64.RawURLEncoding.EncodeToString([]byte(id)) }

// Register records an outer intent as waiting for the intents it depends
// on: an edge per inner intent, then the record. Call it before the inner
// intents are published, so no result can arrive before its edge. A record
// whose key exists or ever existed (done, then deleted) is left alone, so a
// redelivered parse never revives a finished intent; created says whether
// this call wrote it.
func (s *Store) Register(ctx context.Context, in schemas.Intent, now time.Time) (created bool, err error) {
	if len(in.DependsOn) == 0 {
		return false, fmt.Errorf("intent %s depends on nothing; nothing to wait for", in.ID)
	}
	for _, d := range in.DependsOn {
		if _, err := s.kv.Put(ctx, edgeKey(in.SessionID, d), []byte(in.ID)); err != nil {
			return false, fmt.Errorf("record that intent %s waits on %s: %w", in.ID, d, err)
		}
	}
	data, err := json.Marshal(NewPending(in, now))
	if err != nil {
		return false, fmt.Errorf("encode pending intent %s: %w", in.ID, err)
	}
	// Revision 0: only if the key has no history at all, not even a delete marker.
	if _, err := s.kv.Update(ctx, recordKey(in.SessionID, in.ID), data, 0); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return false, nil
		}
		return false, fmt.Errorf("record pending intent %s: %w", in.ID, err)
	}
	return true, nil
}

// Outer returns the id of the outer intent waiting on inner intent id, if any.
func (s *Store) Outer(ctx context.Context, session, id string) (string, bool, error) {
	e, err := s.kv.Get(ctx, edgeKey(session, id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("look up what waits on intent %s: %w", id, err)
	}
	return string(e.Value()), true, nil
}

// Get reads the record of an outer intent and its revision. found is false
// once the record is finished (deleted) or expired.
func (s *Store) Get(ctx context.Context, session, id string) (p Pending, rev uint64, found bool, err error) {
	return s.get(ctx, recordKey(session, id))
}

func (s *Store) get(ctx context.Context, key string) (p Pending, rev uint64, found bool, err error) {
	e, err := s.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Pending{}, 0, false, nil
	}
	if err != nil {
		return Pending{}, 0, false, fmt.Errorf("read pending record %s: %w", key, err)
	}
	if err := json.Unmarshal(e.Value(), &p); err != nil {
		return Pending{}, 0, false, fmt.Errorf("pending record %s is not readable: %w", key, err)
	}
	return p, e.Revision(), true, nil
}

// Update writes p if its record is still at revision rev, and returns the
// new revision; ErrConflict if another worker wrote it meanwhile.
func (s *Store) Update(ctx context.Context, p Pending, rev uint64) (uint64, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return 0, fmt.Errorf("encode pending intent %s: %w", p.Intent.ID, err)
	}
	n, err := s.kv.Update(ctx, recordKey(p.Intent.SessionID, p.Intent.ID), data, rev)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return 0, fmt.Errorf("%w: intent %s at revision %d", ErrConflict, p.Intent.ID, rev)
	}
	if err != nil {
		return 0, fmt.Errorf("write pending intent %s: %w", p.Intent.ID, err)
	}
	return n, nil
}

// Remove deletes a finished record (its outcome published) if it is still
// at revision rev, then its edges. The delete marker stays, so Register
// cannot bring it back. Removing a record already removed is not an error.
func (s *Store) Remove(ctx context.Context, p Pending, rev uint64) error {
	key := recordKey(p.Intent.SessionID, p.Intent.ID)
	if err := s.kv.Delete(ctx, key, jetstream.LastRevision(rev)); err != nil {
		if _, _, found, gerr := s.get(ctx, key); gerr != nil || found {
			return fmt.Errorf("remove pending intent %s: %w", p.Intent.ID, err)
		}
	}
	for _, d := range p.Intent.DependsOn {
		// Best effort: a leftover edge leads to no record, and expires.
		_ = s.kv.Delete(ctx, edgeKey(p.Intent.SessionID, d))
	}
	return nil
}

// record is one record found by Records.
type record struct {
	key string
	p   Pending
	rev uint64
}

// Records yields every live record (waiting, or done and not yet removed).
func (s *Store) records(ctx context.Context) iter.Seq2[record, error] {
	return func(yield func(record, error) bool) {
		lister, err := s.kv.ListKeysFiltered(ctx, "w.>")
		if err != nil {
			if !errors.Is(err, jetstream.ErrNoKeysFound) {
				yield(record{}, fmt.Errorf("list pending records: %w", err))
			}
			return
		}
		defer lister.Stop()
		for key := range lister.Keys() {
			p, rev, found, err := s.get(ctx, key)
			if err != nil {
				if !yield(record{key: key}, err) {
					return
				}
				continue
			}
			if found && !yield(record{key: key, p: p, rev: rev}, nil) {
				return
			}
		}
	}
}

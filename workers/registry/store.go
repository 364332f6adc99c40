package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// Bucket is the JetStream KV bucket of the registry: one key per tool.
const Bucket = "tools"

// Store is the registry kept in the tools bucket, shared by every worker.
type Store struct {
	kv jetstream.KeyValue
	nc *nats.Conn
}

// OpenStore opens the tools bucket, creating it if needed.
func OpenStore(ctx context.Context, js jetstream.JetStream) (*Store, error) {
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: Bucket, Description: "Toolyard tool registry: one manifest per tool id",
		History: 5, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, err
	}
	return &Store{kv: kv, nc: js.Conn()}, nil
}

// ErrConflict: an import would replace a different tool under the same id.
var ErrConflict = errors.New("a different tool is registered under this id")

// ImportReport says what an import did.
type ImportReport struct {
	Added, Replaced, Unchanged []string
}

// Import writes manifests to the registry. A manifest identical to the one
// registered is left alone; a different one under the same id is refused
// (ErrConflict, nothing written) unless replace is set. Manifests are
// validated first and the import is refused whole if any is invalid or
// conflicts, so a registry is never half-imported.
func (s *Store) Import(ctx context.Context, ms []schemas.Manifest, replace bool) (ImportReport, error) {
	var rep ImportReport
	type write struct {
		m    schemas.Manifest
		data []byte
		rev  uint64
		new  bool
	}
	var writes []write
	var conflicts []string
	for _, m := range ms {
		data, err := canonical(m)
		if err != nil {
			return rep, err
		}
		// Whoever built the manifest, the registry takes only what its
		// readers (decodeEntry) would take.
		if _, err := schemas.ValidateManifest(data); err != nil {
			return rep, fmt.Errorf("import refused, nothing written: %w", err)
		}
		cur, err := s.kv.Get(ctx, Key(m.ID))
		if err := s.checkSerial(ctx, m, cur, err); err != nil {
			return rep, err
		}
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			writes = append(writes, write{m: m, data: data, new: true})
		case err != nil:
			return rep, fmt.Errorf("read tool %q: %w", m.ID, err)
		case bytes.Equal(cur.Value(), data), signedCopyOf(cur.Value(), m):
			rep.Unchanged = append(rep.Unchanged, m.ID)
		case !replace:
			conflicts = append(conflicts, m.ID)
		default:
			writes = append(writes, write{m: m, data: data, rev: cur.Revision()})
		}
	}
	if len(conflicts) > 0 {
		// The caller says how to replace them: a flag of its own.
		return rep, fmt.Errorf("%w: %q", ErrConflict, conflicts)
	}
	for _, w := range writes {
		var err error
		if w.new {
			_, err = s.kv.Create(ctx, Key(w.m.ID), w.data)
		} else {
			_, err = s.kv.Update(ctx, Key(w.m.ID), w.data, w.rev)
		}
		if err != nil {
			return rep, fmt.Errorf("write tool %q (another writer may have changed it; import again): %w", w.m.ID, err)
		}
		if err := s.raiseSerial(ctx, w.m); err != nil {
			return rep, err
		}
		if w.new {
			rep.Added = append(rep.Added, w.m.ID)
		} else {
			rep.Replaced = append(rep.Replaced, w.m.ID)
		}
	}
	return rep, nil
}

// checkSerial refuses a signed manifest older than the highest serial seen
// for its id (sign.ErrDowngrade). cur and getErr are the registered entry.
func (s *Store) checkSerial(ctx context.Context, m schemas.Manifest, cur jetstream.KeyValueEntry, getErr error) error {
	if m.Signature == nil {
		return nil
	}
	var registered *schemas.Manifest
	if getErr == nil {
		if c, err := schemas.ValidateManifest(cur.Value()); err == nil {
			registered = &c
		}
	}
	mark, err := s.highestSerial(ctx, m.ID, registered)
	if err != nil {
		return err
	}
	if err := sign.CheckNotOlder(m, mark.serial, mark.hash == ContentHash(m)); err != nil {
		return fmt.Errorf("import refused: %w", err)
	}
	return nil
}

// Remove deletes tools; it reports those that were not registered.
func (s *Store) Remove(ctx context.Context, ids ...string) (missing []string, err error) {
	for _, id := range ids {
		if _, err := s.kv.Get(ctx, Key(id)); errors.Is(err, jetstream.ErrKeyNotFound) {
			missing = append(missing, id)
			continue
		}
		if err := s.kv.Delete(ctx, Key(id)); err != nil {
			return missing, fmt.Errorf("remove tool %q: %w", id, err)
		}
	}
	return missing, nil
}

// List returns every registered manifest, sorted by id.
func (s *Store) List(ctx context.Context) ([]schemas.Manifest, error) {
	w, err := s.kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("list registry: %w", err)
	}
	defer w.Stop()
	reg := New()
	for e := range w.Updates() {
		if e == nil {
			break
		}
		if !isToolKey(e.Key()) {
			continue
		}
		m, err := decodeEntry(e)
		if err != nil {
			return nil, err
		}
		reg.Put(m)
	}
	return reg.All(), nil
}

// Event is one change to the registry.
type Event struct {
	ID string
	// Manifest is nil when the tool was removed.
	Manifest *schemas.Manifest
}

// Closing reports whether the store's connection is closed or draining: a
// watch that ended then ended with the process, not by a fault.
func (s *Store) Closing() bool {
	return s.nc != nil && (s.nc.IsClosed() || s.nc.IsDraining())
}

// Watch calls initial with every registered manifest, then fn with each
// change until ctx ends. An entry that is not a valid manifest (written by
// hand into the bucket) is reported to bad and skipped.
func (s *Store) Watch(ctx context.Context, initial func([]schemas.Manifest) error, fn func(Event), bad func(key string, err error)) error {
	w, err := s.kv.WatchAll(ctx)
	if err != nil {
		return fmt.Errorf("watch registry: %w", err)
	}
	var first []schemas.Manifest
	loaded := false
	for {
		select {
		case <-ctx.Done():
			_ = w.Stop()
			return nil
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("registry watch ended")
			}
			if e == nil {
				loaded = true
				if err := initial(first); err != nil {
					_ = w.Stop()
					return err
				}
				first = nil
				continue
			}
			if !isToolKey(e.Key()) {
				continue
			}
			id, err := IDOfKey(e.Key())
			if err != nil {
				bad(e.Key(), err)
				continue
			}
			if e.Operation() != jetstream.KeyValuePut {
				if loaded {
					fn(Event{ID: id})
				}
				continue
			}
			m, err := decodeEntry(e)
			if err != nil {
				bad(e.Key(), err)
				continue
			}
			if !loaded {
				first = append(first, m)
				continue
			}
			fn(Event{ID: id, Manifest: &m})
		}
	}
}

func decodeEntry(e jetstream.KeyValueEntry) (schemas.Manifest, error) {
	m, err := schemas.ValidateManifest(e.Value())
	if err != nil {
		return m, fmt.Errorf("registry entry %s: %w", e.Key(), err)
	}
	if Key(m.ID) != e.Key() {
		return m, fmt.Errorf("registry entry %s holds tool %q, whose key is %s", e.Key(), m.ID, Key(m.ID))
	}
	return m, nil
}

// canonical is the stored form of a manifest: the same tool always encodes to
// the same bytes, so an unchanged re-import is recognised. The schema keeps
// its author's key order, spacing removed: the order of the properties is
// part of what the resolver reads (of two parameters a value fits, the one
// declared first), and a form with sorted keys made every tool in the
// registry resolve unlike its own manifest file.
func canonical(m schemas.Manifest) ([]byte, error) {
	if len(m.Parameters) > 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, m.Parameters); err == nil {
			m.Parameters = b.Bytes()
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode tool %q: %w", m.ID, err)
	}
	return data, nil
}

// ContentHash identifies a manifest's content: equal for equal tools.
func ContentHash(m schemas.Manifest) string {
	data, err := canonical(m)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

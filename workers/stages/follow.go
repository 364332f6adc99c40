package stages

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/shortcut"
)

// Replace makes the set's tools exactly ms (plus the builtins): new and
// changed tools are indexed, vanished ones removed.
func (s *Set) Replace(ms []schemas.Manifest) error {
	if !s.loaded {
		s.loaded = true
		if s.registry.Len() == len(s.builtin) {
			return s.rebuild(ms)
		}
	}
	keep := make(map[string]bool, len(ms))
	for _, m := range ms {
		keep[m.ID] = true
		if old, ok := s.registry.Get(m.ID); ok && sameManifest(old, m) {
			continue
		}
		if err := s.Apply(registry.Event{ID: m.ID, Manifest: &m}); err != nil {
			return err
		}
	}
	for _, m := range s.registry.All() {
		if !keep[m.ID] && !s.builtin[m.ID] {
			if err := s.Apply(registry.Event{ID: m.ID}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Apply applies one registry change to the registry and the search index.
// The builtin meta-tools cannot be replaced or removed.
func (s *Set) Apply(ev registry.Event) error {
	if s.builtin[ev.ID] {
		s.cfg.Log.Warn("registry entry ignored: the id belongs to a builtin meta-tool", "id", ev.ID)
		return nil
	}
	if ev.Manifest == nil {
		s.registry.Remove(ev.ID)
		if err := s.engine.Remove(ev.ID); err != nil {
			return fmt.Errorf("unindex tool %q: %w", ev.ID, err)
		}
		return nil
	}
	if err := s.engine.Put(*ev.Manifest); err != nil {
		return fmt.Errorf("index tool %q: %w", ev.ID, err)
	}
	s.registry.Put(*ev.Manifest)
	return nil
}

// Follow keeps the set in step with the registry store until ctx ends. It
// returns once the registry as it is now has been loaded, so a worker starts
// handling messages only when it knows every tool.
func (s *Set) Follow(ctx context.Context, store *registry.Store) error {
	ready := make(chan error, 1)
	go func() {
		for {
			err := store.Watch(ctx,
				func(ms []schemas.Manifest) error {
					err := s.Replace(ms)
					if err == nil {
						s.cfg.Log.Info("registry loaded", "tools", s.registry.Len())
					}
					select {
					case ready <- err:
					default:
					}
					return err
				},
				func(ev registry.Event) {
					if err := s.Apply(ev); err != nil {
						s.cfg.Log.Error("registry change not applied", "id", ev.ID, "error", err)
						return
					}
					s.cfg.Log.Debug("registry change applied", "id", ev.ID, "removed", ev.Manifest == nil)
				},
				func(key string, err error) {
					s.cfg.Log.Error("invalid registry entry skipped", "key", key, "error", err)
				})
			if ctx.Err() != nil {
				return
			}
			if store.Closing() {
				// The process is stopping (its connection drains before
				// its context ends): nothing to resubscribe to.
				s.cfg.Log.Debug("registry watch ended with the connection", "error", err)
				return
			}
			// The watch ended (server restart, lost connection): start over;
			// the initial load reconciles whatever changed meanwhile.
			s.cfg.Log.Warn("registry watch ended; resubscribing", "error", err)
			time.Sleep(time.Second)
		}
	}()
	select {
	case err := <-ready:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func sameManifest(a, b schemas.Manifest) bool {
	return registry.ContentHash(a) == registry.ContentHash(b)
}

// documentModel is a model the models bucket holds as one JSON document
// under its key, and how a set puts a version of it in force.
type documentModel struct {
	key   string
	apply func([]byte) error
}

// documentModels are the set's: the routing thresholds and the confidence
// calibration. The trained model version is followed on its own key.
func (s *Set) documentModels() []documentModel {
	return []documentModel{{models.KeyThresholds, s.thresholds.StoreJSON}, {models.KeyCalibration, s.applyCalibration}}
}

// FollowModels puts new versions of the routing thresholds, the
// confidence calibration and the trained model in force as they are
// published to the models bucket.
func (s *Set) FollowModels(ctx context.Context, store *models.Store) {
	for _, m := range s.documentModels() {
		store.Follow(ctx, m.key, m.apply, s.cfg.Log)
	}
	store.FollowCurrent(ctx, func(version string) error { return s.applyVersion(ctx, store, version) }, s.cfg.Log)
}

// LoadModels puts in force, once, what FollowModels follows, as the models
// bucket holds it now. A client (toolyard tools search) then ranks and
// tiers as the workers do.
func (s *Set) LoadModels(ctx context.Context, store *models.Store) error {
	for _, m := range s.documentModels() {
		data, err := store.Get(ctx, m.key)
		if err != nil {
			return err
		}
		if data == nil {
			continue
		}
		if err := m.apply(data); err != nil {
			return fmt.Errorf("model %s: %w", m.key, err)
		}
	}
	cur, _, err := store.CurrentVersion(ctx)
	if err != nil || cur.Version == "" {
		return err
	}
	return s.applyVersion(ctx, store, cur.Version)
}

// applyCalibration puts a calibration document in force.
func (s *Set) applyCalibration(data []byte) error {
	var c discover.Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("calibration document: %w", err)
	}
	return s.engine.SetCalibration(c)
}

// applyVersion puts a trained model version in force on the discovery
// engine ("" takes the one in force off): its files are fetched to a
// temporary directory, checked against the version's manifest and swapped
// in at once, so searches never wait or see half a model.
func (s *Set) applyVersion(ctx context.Context, store *models.Store, version string) error {
	start := time.Now()
	if version == "" {
		s.cfg.Log.Info("no trained model in force: discovery on the registry alone")
		s.predictModel.Store(&predict.Model{})
		s.shortcuts.Store(nil)
		return s.engine.SetUsage(ctx, nil)
	}
	dir, err := os.MkdirTemp("", "toolyard-model-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	b, err := store.Download(ctx, version, filepath.Join(dir, "bundle"))
	if err != nil {
		return err
	}
	if err := b.Apply(ctx, s.engine); err != nil {
		return err
	}
	s.predictModel.Store(&predict.Model{Version: version, Templates: b.Templates, Phrasings: predict.Phrasings(b.Usage)})
	var learned map[string]bundle.Shortcut
	if b.Templates != nil {
		learned = b.Templates.Shortcuts
	}
	s.shortcuts.Store(shortcut.NewTable(version, learned))
	s.cfg.Log.Info("trained model in force", "version", version, "took", time.Since(start).Round(time.Millisecond), "shortcuts", s.shortcuts.Load().Len())
	return nil
}

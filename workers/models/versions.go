package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// Trained model versions: each version's files in the object store bucket
// "models" (one object per file, named <version>/<file>), its record (the
// manifest, its status and the guard's report) in the KV bucket under
// model.version.<version>, and the version in force under model.current.
// Discover workers follow model.current and put the version it names in
// force without a restart.
const (
	ObjectBucket     = "models"
	KeyCurrent       = "model.current"
	keyVersionPrefix = "model.version."
)

// Version statuses.
const (
	StatusCandidate = "candidate" // stored, not promoted (yet)
	StatusPromoted  = "promoted"  // in force, or was
	StatusRefused   = "refused"   // the eval guard refused it
)

// VersionInfo is what the store keeps about a version.
type VersionInfo struct {
	Manifest bundle.Manifest `json:"manifest"`
	Status   string          `json:"status"`
	StoredAt time.Time       `json:"stored_at"`
	// Guard is the eval guard's verdict, when it ran.
	Guard *GuardVerdict `json:"guard,omitempty"`
}

// GuardVerdict is the eval guard's comparison of a version with the one in
// force on the latest slice of history.
type GuardVerdict struct {
	Promote   bool               `json:"promote"`
	Reasons   []string           `json:"reasons"`
	Candidate map[string]float64 `json:"candidate"`
	Current   map[string]float64 `json:"current"`
	Against   string             `json:"against"` // the version compared with, "" for no model
}

// Current is the pointer to the version in force.
type Current struct {
	Version string `json:"version"`
	// Previous are the versions in force before, latest last: rollback
	// goes back one.
	Previous   []string  `json:"previous,omitempty"`
	PromotedAt time.Time `json:"promoted_at"`
}

func (s *Store) objects(ctx context.Context) (jetstream.ObjectStore, error) {
	return pipeline.ObjectStore(ctx, s.js, jetstream.ObjectStoreConfig{
		Bucket: ObjectBucket, Description: "Toolyard trained model versions: one object per file, <version>/<file>",
		Storage: jetstream.FileStorage, Compression: true,
	})
}

// validVersion keeps version names usable as KV keys and object names.
func validVersion(v string) error {
	if v == "" || len(v) > 64 || strings.ContainsFunc(v, func(r rune) bool {
		return !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		return fmt.Errorf("model version %q: use 1–64 letters, digits, - and _", v)
	}
	return nil
}

// CheckNewVersion says whether PutVersion could store a version of this
// name: a valid name not stored yet. Training checks it before its work,
// which PutVersion would otherwise refuse only at the end.
func (s *Store) CheckNewVersion(ctx context.Context, v string) error {
	if err := validVersion(v); err != nil {
		return err
	}
	_, err := s.kv.Get(ctx, keyVersionPrefix+v)
	switch {
	case err == nil:
		return fmt.Errorf("model version %s is already stored (see 'toolyard models list'): give another --version", v)
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil
	default:
		return fmt.Errorf("model version %s: %w", v, err)
	}
}

// PutVersion stores the bundle in dir as a new version (status candidate).
// A version name is stored once: storing it again is an error.
func (s *Store) PutVersion(ctx context.Context, dir string) (VersionInfo, error) {
	b, err := bundle.ReadDir(dir)
	if err != nil {
		return VersionInfo{}, err
	}
	v := b.Manifest.Version
	if err := validVersion(v); err != nil {
		return VersionInfo{}, err
	}
	if _, err := s.kv.Get(ctx, keyVersionPrefix+v); err == nil {
		return VersionInfo{}, fmt.Errorf("model version %s is already stored", v)
	}
	obj, err := s.objects(ctx)
	if err != nil {
		return VersionInfo{}, err
	}
	files := append([]string{bundle.ManifestFile}, keys(b.Manifest.Files)...)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return VersionInfo{}, err
		}
		if _, err := obj.PutBytes(ctx, v+"/"+f, data); err != nil {
			return VersionInfo{}, fmt.Errorf("store %s/%s: %w", v, f, err)
		}
	}
	info := VersionInfo{Manifest: b.Manifest, Status: StatusCandidate, StoredAt: time.Now().UTC()}
	if err := s.putInfo(ctx, info, 0); err != nil {
		return VersionInfo{}, err
	}
	return info, nil
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (s *Store) putInfo(ctx context.Context, info VersionInfo, rev uint64) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	key := keyVersionPrefix + info.Manifest.Version
	if rev == 0 {
		_, err = s.kv.Create(ctx, key, data)
	} else {
		_, err = s.kv.Update(ctx, key, data, rev)
	}
	if err != nil {
		return fmt.Errorf("record model version %s: %w", info.Manifest.Version, err)
	}
	return nil
}

// Version reads a version's record.
func (s *Store) Version(ctx context.Context, v string) (VersionInfo, error) {
	info, _, err := s.version(ctx, v)
	return info, err
}

func (s *Store) version(ctx context.Context, v string) (VersionInfo, uint64, error) {
	if err := validVersion(v); err != nil {
		return VersionInfo{}, 0, err
	}
	e, err := s.kv.Get(ctx, keyVersionPrefix+v)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return VersionInfo{}, 0, fmt.Errorf("no model version %s (see 'toolyard models list')", v)
	}
	if err != nil {
		return VersionInfo{}, 0, err
	}
	var info VersionInfo
	if err := json.Unmarshal(e.Value(), &info); err != nil {
		return VersionInfo{}, 0, fmt.Errorf("model version %s: %w", v, err)
	}
	return info, e.Revision(), nil
}

// SetGuard records the guard's verdict on a version (and refuses it when
// the verdict says so).
func (s *Store) SetGuard(ctx context.Context, v string, g GuardVerdict) error {
	info, rev, err := s.version(ctx, v)
	if err != nil {
		return err
	}
	info.Guard = &g
	if !g.Promote {
		info.Status = StatusRefused
	}
	return s.putInfo(ctx, info, rev)
}

// Versions lists the stored versions, oldest first.
func (s *Store) Versions(ctx context.Context) ([]VersionInfo, error) {
	lister, err := s.kv.ListKeysFiltered(ctx, keyVersionPrefix+">")
	if err != nil {
		if errors.Is(err, jetstream.ErrNoKeysFound) {
			return nil, nil
		}
		return nil, err
	}
	var out []VersionInfo
	for k := range lister.Keys() {
		info, err := s.Version(ctx, strings.TrimPrefix(k, keyVersionPrefix))
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b VersionInfo) int { return a.StoredAt.Compare(b.StoredAt) })
	return out, nil
}

// CurrentVersion is the pointer to the version in force (zero without one)
// and its revision.
func (s *Store) CurrentVersion(ctx context.Context) (Current, uint64, error) {
	e, err := s.kv.Get(ctx, KeyCurrent)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Current{}, 0, nil
	}
	if err != nil {
		return Current{}, 0, err
	}
	var c Current
	if err := json.Unmarshal(e.Value(), &c); err != nil {
		return Current{}, 0, fmt.Errorf("%s: %w", KeyCurrent, err)
	}
	return c, e.Revision(), nil
}

// Promote puts version v in force on every worker following the store. A
// version the guard refused is promoted only with force.
func (s *Store) Promote(ctx context.Context, v string, force bool) error {
	info, rev, err := s.version(ctx, v)
	if err != nil {
		return err
	}
	if info.Status == StatusRefused && !force {
		return fmt.Errorf("model version %s was refused by the eval guard (%s); promote it with --force to override",
			v, strings.Join(info.Guard.Reasons, "; "))
	}
	cur, crev, err := s.CurrentVersion(ctx)
	if err != nil {
		return err
	}
	if cur.Version == v {
		return nil
	}
	next := Current{Version: v, Previous: cur.Previous, PromotedAt: time.Now().UTC()}
	if cur.Version != "" {
		next.Previous = append(slices.Clone(cur.Previous), cur.Version)
	}
	if err := s.setCurrent(ctx, next, crev); err != nil {
		return err
	}
	info.Status = StatusPromoted
	return s.putInfo(ctx, info, rev)
}

// Rollback puts the version in force before the current one back in force
// (none, when the current one was the first) and returns it.
func (s *Store) Rollback(ctx context.Context) (string, error) {
	cur, crev, err := s.CurrentVersion(ctx)
	if err != nil {
		return "", err
	}
	if cur.Version == "" {
		return "", errors.New("no model version is in force: nothing to roll back")
	}
	next := Current{PromotedAt: time.Now().UTC()}
	if n := len(cur.Previous); n > 0 {
		next.Version, next.Previous = cur.Previous[n-1], slices.Clone(cur.Previous[:n-1])
	}
	return next.Version, s.setCurrent(ctx, next, crev)
}

// setCurrent writes the pointer with compare-and-set, so two operators
// promoting at once cannot lose a step of the history.
func (s *Store) setCurrent(ctx context.Context, c Current, rev uint64) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if rev == 0 {
		_, err = s.kv.Create(ctx, KeyCurrent, data)
	} else {
		_, err = s.kv.Update(ctx, KeyCurrent, data, rev)
	}
	if err != nil {
		return fmt.Errorf("move %s (changed meanwhile? try again): %w", KeyCurrent, err)
	}
	return nil
}

// Download writes version v's files into dir (which must not exist) and
// reads the bundle back, checking every file against its manifest.
func (s *Store) Download(ctx context.Context, v, dir string) (*bundle.Bundle, error) {
	if err := validVersion(v); err != nil {
		return nil, err
	}
	obj, err := s.objects(ctx)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	manifest, err := obj.GetBytes(ctx, v+"/"+bundle.ManifestFile)
	if err != nil {
		return nil, fmt.Errorf("model version %s: %w", v, err)
	}
	var m bundle.Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return nil, fmt.Errorf("model version %s: %w", v, err)
	}
	if err := os.WriteFile(filepath.Join(dir, bundle.ManifestFile), manifest, 0o644); err != nil {
		return nil, err
	}
	for _, f := range keys(m.Files) {
		if f != filepath.Base(f) {
			return nil, fmt.Errorf("model version %s: file name %q", v, f)
		}
		data, err := obj.GetBytes(ctx, v+"/"+f)
		if err != nil {
			return nil, fmt.Errorf("model version %s: %s: %w", v, f, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			return nil, err
		}
	}
	return bundle.ReadDir(dir)
}

// FollowCurrent calls apply with the version in force ("" for none) now
// and whenever it changes, until ctx ends; a version apply fails on is
// logged and the previous one stays in force.
func (s *Store) FollowCurrent(ctx context.Context, apply func(version string) error, log *slog.Logger) {
	s.Follow(ctx, KeyCurrent, func(data []byte) error {
		var c Current
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("%s: %w", KeyCurrent, err)
		}
		return apply(c.Version)
	}, log)
}

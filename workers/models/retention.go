package models

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Retention. Every 'toolyard train' stores a version and nothing else
// removes one, so without pruning the models buckets grow by a version per
// training, forever (a usage model with its stored vectors is tens of
// megabytes). Prune keeps what can still be wanted and deletes the rest.

// DefaultKeep is how many versions 'toolyard train' keeps after storing a
// new one (Prune's keep): a few weeks of daily trainings to compare,
// promote or roll back to.
const DefaultKeep = 10

// orphanAge is how old an object of no recorded version must be before
// Prune deletes it: PutVersion stores a version's files before its record,
// so a younger one may be a training storing it right now.
const orphanAge = time.Hour

// PruneReport is what Prune kept and deleted (or would, in a dry run).
type PruneReport struct {
	// Kept are the versions kept, oldest first.
	Kept []string `json:"kept"`
	// Deleted are the versions deleted, oldest first.
	Deleted []string `json:"deleted"`
	// Orphans are the versions whose files had no record (a training that
	// stopped while storing them), deleted.
	Orphans []string `json:"orphans,omitempty"`
	// FreedBytes is the size of the files deleted.
	FreedBytes uint64 `json:"freed_bytes"`
	// Rollback are the versions rollback can still go back to, latest
	// last (Current.Previous once pruned).
	Rollback []string `json:"rollback"`
	DryRun   bool     `json:"dry_run,omitempty"`
}

// Prune keeps the version in force, the keep versions rollback would go
// back to first, and the keep newest versions (candidates included), and
// deletes every other version: its record first, so that it can no longer
// be promoted or downloaded, then its files. Rollback then reaches back
// keep versions at most. Files left by a training that stopped while
// storing a version (no record, older than an hour) are deleted too. With
// dryRun nothing changes and the report says what would. keep must be at
// least 1. A version promoted while Prune runs may lose its files: prune
// between trainings and promotions, as 'toolyard train' does after storing.
func (s *Store) Prune(ctx context.Context, keep int, dryRun bool) (PruneReport, error) {
	rep := PruneReport{DryRun: dryRun, Kept: []string{}, Deleted: []string{}, Rollback: []string{}}
	if keep < 1 {
		return rep, fmt.Errorf("keep %d: at least the newest version must be kept (1 or more)", keep)
	}
	cur, crev, err := s.CurrentVersion(ctx)
	if err != nil {
		return rep, err
	}
	vs, err := s.Versions(ctx) // oldest first
	if err != nil {
		return rep, err
	}
	rollback := cur.Previous[max(0, len(cur.Previous)-keep):]
	protected := map[string]bool{cur.Version: cur.Version != ""}
	for _, v := range rollback {
		protected[v] = true
	}
	for i, v := range vs {
		if i >= len(vs)-keep {
			protected[v.Manifest.Version] = true
		}
	}
	recorded := map[string]bool{}
	for _, v := range vs {
		name := v.Manifest.Version
		recorded[name] = true
		if protected[name] {
			rep.Kept = append(rep.Kept, name)
		} else {
			rep.Deleted = append(rep.Deleted, name)
		}
	}
	rep.Rollback = append(rep.Rollback, rollback...)

	obj, err := s.objects(ctx)
	if err != nil {
		return rep, err
	}
	files, err := obj.List(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
		return rep, fmt.Errorf("list the %s bucket: %w", ObjectBucket, err)
	}
	var doomed []string // object names
	orphans := map[string]bool{}
	for _, f := range files {
		v, _, ok := strings.Cut(f.Name, "/")
		switch {
		case !ok:
			continue // not a version's file: not Prune's to delete
		case recorded[v] && !protected[v]:
		case !recorded[v] && time.Since(f.ModTime) >= s.orphanAge:
			orphans[v] = true
		default:
			continue
		}
		doomed = append(doomed, f.Name)
		rep.FreedBytes += f.Size
	}
	for v := range orphans {
		rep.Orphans = append(rep.Orphans, v)
	}
	slices.Sort(rep.Orphans)
	if dryRun {
		return rep, nil
	}

	if len(rollback) < len(cur.Previous) {
		cur.Previous = slices.Clone(rollback)
		if err := s.setCurrent(ctx, cur, crev); err != nil {
			return rep, err
		}
	}
	for _, v := range rep.Deleted {
		if err := s.kv.Purge(ctx, keyVersionPrefix+v); err != nil {
			return rep, fmt.Errorf("delete the record of model version %s: %w", v, err)
		}
	}
	for _, name := range doomed {
		if err := obj.Delete(ctx, name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			return rep, fmt.Errorf("delete %s from the %s bucket: %w", name, ObjectBucket, err)
		}
	}
	return rep, nil
}

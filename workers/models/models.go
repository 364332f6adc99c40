// Package models keeps the tunable models of the pipeline — confidence
// calibration, routing thresholds, and what the training job refits — in the
// JetStream KV bucket "models", one JSON document per key, so workers pick up
// a new version without a restart.
package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
)

// Bucket is the KV bucket of models.
const Bucket = "models"

// Keys of the models the workers follow.
const (
	KeyCalibration = "discover.calibration"
	KeyThresholds  = "route.thresholds"
)

// Store is the models bucket.
type Store struct {
	js jetstream.JetStream
	kv jetstream.KeyValue
	// orphanAge is Prune's: orphanAge, shorter in tests.
	orphanAge time.Duration
}

// Open opens the models bucket, creating it if needed. It keeps a history so
// an operator can see, and go back to, earlier versions.
func Open(ctx context.Context, js jetstream.JetStream) (*Store, error) {
	kv, err := pipeline.KeyValue(ctx, js, jetstream.KeyValueConfig{
		Bucket: Bucket, Description: "Toolyard models: calibration, thresholds, refits", History: 10, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, err
	}
	return &Store{js: js, kv: kv, orphanAge: orphanAge}, nil
}

// Publish stores a new version of a model and returns its revision.
func (s *Store) Publish(ctx context.Context, key string, v any) (uint64, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return 0, fmt.Errorf("encode model %s: %w", key, err)
	}
	rev, err := s.kv.Put(ctx, key, data)
	if err != nil {
		return 0, fmt.Errorf("publish model %s: %w", key, err)
	}
	return rev, nil
}

// Get returns the current version of key, nil when none was published.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	e, err := s.kv.Get(ctx, key)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read model %s: %w", key, err)
	}
	return e.Value(), nil
}

// Follow calls apply with the current version of key (if any) and with every
// new one until ctx ends. A version apply refuses is logged and the previous
// one stays in force; a deleted model is left to the worker's defaults,
// which stay as they are until a new version arrives.
func (s *Store) Follow(ctx context.Context, key string, apply func([]byte) error, log *slog.Logger) {
	go func() {
		for ctx.Err() == nil {
			w, err := s.kv.Watch(ctx, key)
			if err != nil {
				log.Warn("cannot watch model; retrying", "model", key, "error", err)
				pipeline.Sleep(ctx, time.Second)
				continue
			}
			for e := range w.Updates() {
				if e == nil || e.Operation() != jetstream.KeyValuePut {
					continue
				}
				if err := apply(e.Value()); err != nil {
					log.Error("model version refused; keeping the previous one", "model", key, "revision", e.Revision(), "error", err)
					continue
				}
				log.Info("model version in force", "model", key, "revision", e.Revision())
			}
			_ = w.Stop()
			pipeline.Sleep(ctx, time.Second)
		}
	}()
}

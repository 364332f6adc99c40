package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// KeyValue opens a KV bucket, creating it with cfg if it does not exist.
// Safe when several processes start at once: whoever loses the race to
// create it opens the winner's.
func KeyValue(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		if cfg.Replicas == 0 {
			cfg.Replicas = BucketReplicas(ctx, js)
		}
		kv, err = js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open KV bucket %s: %w", cfg.Bucket, err)
	}
	return kv, nil
}

// ObjectStore opens an object store, creating it with cfg if it does not
// exist, as KeyValue does for a bucket.
func ObjectStore(ctx context.Context, js jetstream.JetStream, cfg jetstream.ObjectStoreConfig) (jetstream.ObjectStore, error) {
	obj, err := js.ObjectStore(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		if cfg.Replicas == 0 {
			cfg.Replicas = BucketReplicas(ctx, js)
		}
		obj, err = js.CreateObjectStore(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) {
			obj, err = js.ObjectStore(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open object store %s: %w", cfg.Bucket, err)
	}
	return obj, nil
}

// BucketReplicas is the replica count of a bucket created without one: that
// of the PIPE stream (1 when there is none yet). On a cluster whose streams
// were made R3 ('streams apply --replicas 3'), the registry, the models and
// the stages' state then survive the loss of a server as the work does; a
// bucket left at one replica would stop every worker that starts while its
// one server is down ("stream is offline").
func BucketReplicas(ctx context.Context, js jetstream.JetStream) int {
	s, err := js.Stream(ctx, StreamPipe)
	if err != nil {
		return 1
	}
	return max(s.CachedInfo().Config.Replicas, 1)
}

// Sleep waits for d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// bucketStream is the stream behind one KV bucket or object store.
type bucketStream struct {
	bucket string // the name users know: tools, executions, outputs…
	info   *jetstream.StreamInfo
}

// bucketStreams lists the streams behind the account's KV buckets and
// object stores (KV_<bucket>, OBJ_<bucket>): every one of them is
// Toolyard's, as the account is.
func bucketStreams(ctx context.Context, js jetstream.JetStream) ([]bucketStream, error) {
	var out []bucketStream
	l := js.ListStreams(ctx)
	for info := range l.Info() {
		for _, prefix := range []string{"KV_", "OBJ_"} {
			if b, ok := strings.CutPrefix(info.Config.Name, prefix); ok {
				out = append(out, bucketStream{bucket: b, info: info})
			}
		}
	}
	if err := l.Err(); err != nil {
		return nil, fmt.Errorf("list the buckets' streams: %w", err)
	}
	return out, nil
}

// bucketReplicas is the replica count the topology gives buckets: the work
// queue's, as BucketReplicas gives a new bucket.
func (t Topology) bucketReplicas() int { return max(t.Pipe.Replicas, 1) }

// bucketDifferences lists the buckets whose replicas differ from the
// topology's, one line each. Only replicas: a bucket's other settings
// (history, TTL) are its owner's, chosen when it is created.
func (t Topology) bucketDifferences(ctx context.Context, js jetstream.JetStream) ([]string, error) {
	buckets, err := bucketStreams(ctx, js)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, b := range buckets {
		if have, want := b.info.Config.Replicas, t.bucketReplicas(); have != want {
			out = append(out, fmt.Sprintf("bucket %s (%s) replicas: %d on the server, %d here", b.bucket, b.info.Config.Name, have, want))
		}
	}
	return out, nil
}

// applyBucketReplicas sets every bucket's replicas to the topology's.
func (t Topology) applyBucketReplicas(ctx context.Context, js jetstream.JetStream) error {
	buckets, err := bucketStreams(ctx, js)
	if err != nil {
		return err
	}
	for _, b := range buckets {
		cfg := b.info.Config
		if cfg.Replicas == t.bucketReplicas() {
			continue
		}
		cfg.Replicas = t.bucketReplicas()
		if _, err := js.UpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("bucket %s: set replicas to %d: %w", b.bucket, cfg.Replicas, err)
		}
	}
	return nil
}

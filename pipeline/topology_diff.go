package pipeline

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/nats-io/nats.go/jetstream"
)

// Differences lists how the existing streams' configurations differ from
// this topology, one line per setting ("AUDIT max_age: 720h0m0s on the
// server, 2160h0m0s here"); streams that do not exist yet are not listed.
// The KV buckets and object stores are compared on their replicas, which
// follow the streams' (BucketReplicas). Sizes fitted to the store
// (StoreFitted) are not compared.
func (t Topology) Differences(ctx context.Context, js jetstream.JetStream) ([]string, error) {
	var out []string
	for _, want := range t.Streams() {
		s, err := js.Stream(ctx, want.Name)
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", want.Name, err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", want.Name, err)
		}
		have := info.Config
		// The settings Toolyard chooses, each compared as a whole.
		for _, c := range []struct {
			setting    string
			server, us any
		}{
			{"subjects", have.Subjects, want.Subjects},
			{"retention", have.Retention, want.Retention},
			{"max_age", have.MaxAge, want.MaxAge},
			{"max_bytes", have.MaxBytes, want.MaxBytes},
			{"replicas", have.Replicas, want.Replicas},
			{"storage", have.Storage, want.Storage},
			{"duplicate_window", have.Duplicates, want.Duplicates},
			{"discard", have.Discard, want.Discard},
			{"max_msgs_per_subject", noCap(have.MaxMsgsPerSubject), noCap(want.MaxMsgsPerSubject)},
			{"discard_new_per_subject", have.DiscardNewPerSubject, want.DiscardNewPerSubject},
		} {
			if c.setting == "max_bytes" && t.StoreFitted {
				continue
			}
			if !reflect.DeepEqual(c.server, c.us) {
				out = append(out, fmt.Sprintf("%s %s: %v on the server, %v here", want.Name, c.setting, c.server, c.us))
			}
		}
	}
	buckets, err := t.bucketDifferences(ctx, js)
	if err != nil {
		return nil, err
	}
	return append(out, buckets...), nil
}

// noCap reads the server's -1 and an unset 0 alike: no cap.
func noCap(n int64) int64 { return max(n, 0) }

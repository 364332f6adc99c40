package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nats-io/nats.go/jetstream"
)

// Differences lists how the existing streams' configurations differ from
// this topology, one line per setting ("AUDIT max_age: 720h0m0s on the
// server, 2160h0m0s here"); streams that do not exist yet are not listed.
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
		diff := func(setting string, server, here any) {
			out = append(out, fmt.Sprintf("%s %s: %v on the server, %v here", want.Name, setting, server, here))
		}
		if !slices.Equal(have.Subjects, want.Subjects) {
			diff("subjects", have.Subjects, want.Subjects)
		}
		if have.Retention != want.Retention {
			diff("retention", have.Retention, want.Retention)
		}
		if have.MaxAge != want.MaxAge {
			diff("max_age", have.MaxAge, want.MaxAge)
		}
		if have.MaxBytes != want.MaxBytes {
			diff("max_bytes", have.MaxBytes, want.MaxBytes)
		}
		if have.Replicas != want.Replicas {
			diff("replicas", have.Replicas, want.Replicas)
		}
		if have.Storage != want.Storage {
			diff("storage", have.Storage, want.Storage)
		}
		if have.Duplicates != want.Duplicates {
			diff("duplicate_window", have.Duplicates, want.Duplicates)
		}
		if have.Discard != want.Discard {
			diff("discard", have.Discard, want.Discard)
		}
	}
	return out, nil
}

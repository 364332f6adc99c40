package models

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A published model reaches a follower without a restart; a version the
// follower refuses leaves the previous one in force.
func TestFollowAppliesNewVersions(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := Open(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Publish(ctx, KeyThresholds, map[string]float64{"activate": 0.9}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var applied []string
	store.Follow(ctx, KeyThresholds, func(b []byte) error {
		if string(b) == `"bad"` {
			return errors.New("refused")
		}
		mu.Lock()
		defer mu.Unlock()
		applied = append(applied, string(b))
		return nil
	}, slog.New(slog.DiscardHandler))
	wait := func(n int) []string {
		deadline := time.Now().Add(5 * time.Second)
		for {
			mu.Lock()
			got := append([]string(nil), applied...)
			mu.Unlock()
			if len(got) >= n || time.Now().After(deadline) {
				return got
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if got := wait(1); len(got) != 1 || got[0] != `{"activate":0.9}` {
		t.Fatalf("current version not applied: %v", got)
	}
	for _, v := range []any{"bad", map[string]float64{"activate": 0.95}} {
		if _, err := store.Publish(ctx, KeyThresholds, v); err != nil {
			t.Fatal(err)
		}
	}
	if got := wait(2); len(got) != 2 || got[1] != `{"activate":0.95}` {
		t.Fatalf("versions applied: %v", got)
	}
}

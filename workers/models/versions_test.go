package models

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

func writeVersion(t *testing.T, v string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), v)
	b := &bundle.Bundle{Manifest: bundle.Manifest{Version: v, CreatedAt: time.Now()},
		Usage: &discover.Usage{Intents: []discover.LearnedIntent{{Tool: "db/sql", Text: "revenue by region " + v}}}}
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Versions are stored, promoted one after the other, followed by workers,
// and rolled back one step at a time; a refused version needs --force.
func TestVersionsPromoteRollbackFollow(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := Open(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	st.FollowCurrent(ctx, func(v string) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, v)
		return nil
	}, slog.New(slog.DiscardHandler))
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			mu.Lock()
			last := ""
			if len(seen) > 0 {
				last = seen[len(seen)-1]
			}
			n := len(seen)
			mu.Unlock()
			if n > 0 && last == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("followers saw %v, want %q last", seen, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	for _, v := range []string{"v1", "v2", "v3"} {
		if _, err := st.PutVersion(ctx, writeVersion(t, v)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.PutVersion(ctx, writeVersion(t, "v1")); err == nil {
		t.Error("a version name was stored twice")
	}
	if err := st.SetGuard(ctx, "v3", GuardVerdict{Promote: false, Reasons: []string{"hit@1 worse"}}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v1", "v2"} {
		if err := st.Promote(ctx, v, false); err != nil {
			t.Fatal(err)
		}
		waitFor(v)
	}
	if err := st.Promote(ctx, "v3", false); err == nil || !strings.Contains(err.Error(), "hit@1 worse") {
		t.Errorf("a refused version was promoted without --force: %v", err)
	}
	if err := st.Promote(ctx, "nope", false); err == nil {
		t.Error("an unknown version was promoted")
	}

	got, err := st.Download(ctx, "v2", filepath.Join(t.TempDir(), "dl"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Usage.Intents[0].Text != "revenue by region v2" {
		t.Errorf("downloaded %+v", got.Usage)
	}

	for _, want := range []string{"v1", ""} {
		v, err := st.Rollback(ctx)
		if err != nil || v != want {
			t.Fatalf("rollback: %q %v, want %q", v, err, want)
		}
		waitFor(want)
	}
	if _, err := st.Rollback(ctx); err == nil {
		t.Error("rolled back past the first version")
	}
	vs, err := st.Versions(ctx)
	if err != nil || len(vs) != 3 || vs[2].Status != StatusRefused || vs[0].Status != StatusPromoted {
		t.Errorf("versions %+v %v", vs, err)
	}
}

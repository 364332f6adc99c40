package session_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/session"
)

// ranked is a search over a fixed ranking, honouring scope like discovery.
func ranked(cs ...schemas.Candidate) session.SearchFunc {
	return func(_ context.Context, _ string, k int, scope []string) ([]schemas.Candidate, error) {
		var out []schemas.Candidate
		for _, c := range cs {
			if session.InScope(c.ToolID, c.Server, scope) && len(out) < k {
				out = append(out, c)
			}
		}
		return out, nil
	}
}

func cand(id, server string, conf float64) schemas.Candidate {
	return schemas.Candidate{ToolID: id, Name: id, Server: server, Confidence: conf, MatchType: schemas.MatchHybrid}
}

func TestSeedOnceTopKAboveFloor(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	search := ranked(cand("a/1", "a", 0.9), cand("toolyard/help", "toolyard", 0.8), cand("a/2", "a", 0.6),
		cand("b/1", "b", 0.5), cand("b/2", "b", 0.31), cand("b/3", "b", 0.29))
	sd, err := session.NewSeeder(st, search, session.WithSeedK(3),
		session.WithExclude(func(id string) bool { return id == "toolyard/help" }))
	if err != nil {
		t.Fatal(err)
	}
	set, seeded, err := sd.Seed(ctx, schemas.AgentOutput{SessionID: "s", MessageID: "m1", Text: "anything"})
	if err != nil || !seeded {
		t.Fatalf("seed: %v %v", seeded, err)
	}
	// K counts what the search returned; the meta-tool is left out of the set.
	if !slices.Equal(set.IDs(), []string{"a/1", "a/2"}) || set.SeedMessage != "m1" {
		t.Fatalf("seeded %v from %s", set.IDs(), set.SeedMessage)
	}
	// The second output does not seed again.
	set, seeded, err = sd.Seed(ctx, schemas.AgentOutput{SessionID: "s", MessageID: "m2", Text: "other"})
	if err != nil || seeded || set.SeedMessage != "m1" {
		t.Fatalf("second output reseeded: %v %+v %v", seeded, set, err)
	}

	sd, _ = session.NewSeeder(st, search, session.WithSeedK(8))
	set, _, _ = sd.Seed(ctx, schemas.AgentOutput{SessionID: "floor", MessageID: "m", Text: "x"})
	if slices.Contains(set.IDs(), "b/3") || !slices.Contains(set.IDs(), "b/2") {
		t.Fatalf("floor 0.3: %v", set.IDs())
	}
}

func TestSeedKeepsToScope(t *testing.T) {
	st := openStore(t)
	sd, _ := session.NewSeeder(st, ranked(cand("a/1", "a", 0.9), cand("b/1", "b", 0.8), cand("c/1", "c", 0.7)))
	set, _, err := sd.Seed(context.Background(), schemas.AgentOutput{SessionID: "sc", MessageID: "m", Text: "x", Scope: []string{"b", "c/1"}})
	if err != nil || !slices.Equal(set.IDs(), []string{"b/1", "c/1"}) {
		t.Fatalf("scoped seed %v, %v", set.IDs(), err)
	}
	// Admit checks the scope even when a search ignores it.
	got := session.Admit([]schemas.Candidate{cand("a/1", "a", 0.9), cand("b/1", "b", 0.9)}, 8, 0.3, []string{"b"}, nil, schemas.SourceSeed)
	if len(got) != 1 || got[0].ID != "b/1" {
		t.Fatalf("Admit ignored scope: %+v", got)
	}
}

// A near miss (a tool that says it does another kind of thing than the
// request asks) is not seeded, however confident.
func TestAdmitLeavesNearMissesOut(t *testing.T) {
	miss := cand("slack/post_message", "slack", 0.6)
	miss.Mismatch = &schemas.EffectMismatch{Asked: []string{"delete"}, Names: []string{"create"}}
	got := session.Admit([]schemas.Candidate{miss, cand("slack/delete_message", "slack", 0.5)}, 8, 0.3, nil, nil, schemas.SourceSeed)
	if len(got) != 1 || got[0].ID != "slack/delete_message" {
		t.Fatalf("Admit %+v, want only slack/delete_message", got)
	}
}

// Fail-safe: a failing search seeds an empty set with the reason, never
// anything else, and find_tools can still grow it later.
func TestSeedFailSafe(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	failing := func(context.Context, string, int, []string) ([]schemas.Candidate, error) {
		return nil, errors.New("embedder failed: connection refused")
	}
	sd, _ := session.NewSeeder(st, failing)
	set, seeded, err := sd.Seed(ctx, schemas.AgentOutput{SessionID: "down", MessageID: "m", Text: "check disk usage"})
	if err != nil || !seeded {
		t.Fatalf("seed: %v %v", seeded, err)
	}
	if len(set.Tools) != 0 || set.Degraded == "" {
		t.Fatalf("failed search seeded %v (degraded %q)", set.IDs(), set.Degraded)
	}
	// A done context is an error to retry, not a reason to seed empty.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := sd.Seed(cctx, schemas.AgentOutput{SessionID: "later", MessageID: "m", Text: "x"}); err == nil {
		t.Fatal("cancelled seed succeeded")
	}
	if set, _ := st.Get(ctx, "later"); set.Seeded {
		t.Fatal("cancelled seed marked the session seeded")
	}
}

func TestSeederOptionsValidated(t *testing.T) {
	st := openStore(t)
	for _, o := range []session.SeedOption{session.WithSeedK(0), session.WithSeedK(1000), session.WithSeedMinConfidence(1.5)} {
		if _, err := session.NewSeeder(st, ranked(), o); err == nil {
			t.Error("bad option accepted")
		}
	}
}

// An output is searched by its intents' texts, not by the prose around
// them; the seed merges their tools by confidence.
func TestSeedSearchesEachIntent(t *testing.T) {
	st := openStore(t)
	var seen []string
	search := func(_ context.Context, text string, k int, _ []string) ([]schemas.Candidate, error) {
		seen = append(seen, text)
		switch text {
		case "show disk usage of /tmp":
			return []schemas.Candidate{cand("system/disk_usage", "system", 0.9), cand("files/list", "files", 0.4)}, nil
		case "kernel version":
			return []schemas.Candidate{cand("system/kernel", "system", 0.7), cand("files/list", "files", 0.6)}, nil
		}
		return []schemas.Candidate{cand("prose/tool", "prose", 0.99)}, nil
	}
	sd, _ := session.NewSeeder(st, search)
	set, _, err := sd.Seed(context.Background(), schemas.AgentOutput{SessionID: "two", MessageID: "m",
		Text: "Sure, let me look. [TOOL: show disk usage of /tmp] and then [TOOL: kernel version]."})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, []string{"show disk usage of /tmp", "kernel version"}) {
		t.Fatalf("searched %q", seen)
	}
	if !slices.Equal(set.IDs(), []string{"system/disk_usage", "system/kernel", "files/list"}) || set.Tools[2].Confidence != 0.6 {
		t.Fatalf("seed %+v", set.Tools)
	}
	// Without intents, the prose is the query.
	seen = nil
	set, _, _ = sd.Seed(context.Background(), schemas.AgentOutput{SessionID: "prose", MessageID: "m", Text: "Hello there"})
	if !slices.Equal(seen, []string{"Hello there"}) || !slices.Equal(set.IDs(), []string{"prose/tool"}) {
		t.Fatalf("prose seed: searched %q, seeded %v", seen, set.IDs())
	}
}

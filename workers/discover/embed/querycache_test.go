package embed

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// queryCounter embeds a text as its length and counts the calls.
type queryCounter struct {
	calls map[string]int
	fail  bool
}

func (q *queryCounter) ID() string { return "counter:v1" }

func (q *queryCounter) EmbedQuery(_ context.Context, text string) ([]float32, error) {
	q.calls[text]++
	if q.fail {
		return nil, errors.New("down")
	}
	return []float32{float32(len(text)), 1}, nil
}

func (q *queryCounter) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i], _ = q.EmbedQuery(ctx, t)
	}
	return out, nil
}

// A request embedded before is answered from the cache, as a copy of its
// own; the least recently used goes first; failures are not kept;
// documents and the id are the embedder's.
func TestCachedQueries(t *testing.T) {
	ctx := context.Background()
	inner := &queryCounter{calls: map[string]int{}}
	c := CachedQueries(inner, 2)
	if c.ID() != inner.ID() {
		t.Errorf("id %q, want the embedder's %q", c.ID(), inner.ID())
	}
	steps := []struct {
		text  string
		calls int // the embedder's calls for text after this step
	}{
		{"list files", 1},
		{"list files", 1}, // cached
		{"disk usage", 1}, // a second entry
		{"list files", 1}, // still cached, now the most recent
		{"kernel", 1},     // evicts "disk usage", the least recent
		{"disk usage", 2}, // embedded again
		{"list files", 2}, // evicted by "disk usage"
	}
	for i, s := range steps {
		v, err := c.EmbedQuery(ctx, s.text)
		if err != nil || !slices.Equal(v, []float32{float32(len(s.text)), 1}) {
			t.Fatalf("step %d %q: %v %v", i, s.text, v, err)
		}
		v[0] = -1 // the caller's copy: the cache must not change
		if got := inner.calls[s.text]; got != s.calls {
			t.Errorf("step %d %q: the embedder was called %d times, want %d", i, s.text, got, s.calls)
		}
	}
	if v, _ := c.EmbedQuery(ctx, "kernel"); v[0] != 6 {
		t.Errorf("a caller's change reached the cache: %v", v)
	}
	inner.fail = true
	if _, err := c.EmbedQuery(ctx, "new request"); err == nil {
		t.Error("a failure was not returned")
	}
	inner.fail = false
	if _, err := c.EmbedQuery(ctx, "new request"); err != nil || inner.calls["new request"] != 2 {
		t.Errorf("a failure was kept: %v, %d calls", err, inner.calls["new request"])
	}
	before := inner.calls["kernel"]
	if _, err := c.EmbedDocuments(ctx, []string{"kernel"}); err != nil || inner.calls["kernel"] != before+1 {
		t.Error("documents went through the requests' cache")
	}
	if CachedQueries(inner, 0) != Embedder(inner) {
		t.Error("size 0 should mean no cache")
	}
}

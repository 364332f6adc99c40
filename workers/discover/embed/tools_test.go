package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// countingEmbedder wraps an embedder and records every batch it is asked
// to embed.
type countingEmbedder struct {
	Embedder
	mu      sync.Mutex
	batches [][]string
	fail    error
}

func (c *countingEmbedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.batches = append(c.batches, slices.Clone(texts))
	c.mu.Unlock()
	if c.fail != nil {
		return nil, c.fail
	}
	return c.Embedder.EmbedDocuments(ctx, texts)
}

func (c *countingEmbedder) embedded() int {
	n := 0
	for _, b := range c.batches {
		n += len(b)
	}
	return n
}

func manifest(id, desc string) schemas.Manifest {
	return schemas.Manifest{ID: id, Name: id, Description: desc}
}

func TestEmbedTools(t *testing.T) {
	ctx := context.Background()
	e := &countingEmbedder{Embedder: testLocal(t)}
	cache := NewMemoryCache()
	tools := []schemas.Manifest{
		manifest("weather", "Get the weather forecast"),
		manifest("maps", "Google maps scraper"),
		manifest("music", "Play a song"),
	}
	vs, err := EmbedTools(ctx, e, cache, tools)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range tools {
		if want := embedQuery(t, e.Embedder, ToolText(m)); !slices.Equal(vs[i], want) {
			t.Errorf("%s: vector differs from embedding its ToolText", m.ID)
		}
	}
	if e.embedded() != 3 || cache.Len() != 3 {
		t.Fatalf("first pass embedded %d, cached %d; want 3 and 3", e.embedded(), cache.Len())
	}

	// Unchanged tools are never embedded again; a changed one is.
	tools[1].Description = "Google maps scraper for places"
	tools[2].Version = "2.0" // does not change the text
	again, err := EmbedTools(ctx, e, cache, tools)
	if err != nil {
		t.Fatal(err)
	}
	if e.embedded() != 4 {
		t.Errorf("second pass embedded %d more texts, want 1", e.embedded()-3)
	}
	if !slices.Equal(again[0], vs[0]) || slices.Equal(again[1], vs[1]) {
		t.Error("cached and re-embedded vectors mixed up")
	}
}

func TestEmbedToolsBatchesAndDeduplicates(t *testing.T) {
	e := &countingEmbedder{Embedder: testLocal(t)}
	var tools []schemas.Manifest
	for i := range 7 {
		tools = append(tools, manifest(strings.Repeat("w", i+1), "weather forecast"))
	}
	tools = append(tools, tools[0]) // the same tool twice embeds once
	vs, err := EmbedTools(context.Background(), e, nil, tools, WithBatchSize(3))
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, b := range e.batches {
		sizes = append(sizes, len(b))
	}
	if !slices.Equal(sizes, []int{3, 3, 1}) {
		t.Errorf("batch sizes %v, want [3 3 1]", sizes)
	}
	if !slices.Equal(vs[7], vs[0]) {
		t.Error("duplicate tool got a different vector")
	}
}

// failingCache fails every call.
type failingCache struct{}

func (failingCache) Get(context.Context, Key) ([]float32, bool, error) {
	return nil, false, errors.New("store down")
}
func (failingCache) Put(context.Context, Key, []float32) error { return errors.New("store down") }

func TestEmbedToolsSurvivesCacheFailure(t *testing.T) {
	var logs bytes.Buffer
	e := &countingEmbedder{Embedder: testLocal(t)}
	vs, err := EmbedTools(context.Background(), e, failingCache{}, []schemas.Manifest{manifest("weather", "forecast")},
		WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil || len(vs) != 1 || norm2(vs[0]) == 0 {
		t.Fatalf("EmbedTools = %v, %v; want one vector despite the cache", vs, err)
	}
	if !strings.Contains(logs.String(), "store down") {
		t.Errorf("cache failure not logged: %s", logs.String())
	}
}

func TestEmbedToolsEmbedderError(t *testing.T) {
	boom := errors.New("server gone")
	e := &countingEmbedder{Embedder: testLocal(t), fail: boom}
	_, err := EmbedTools(context.Background(), e, NewMemoryCache(), []schemas.Manifest{manifest("weather", "forecast")})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), e.ID()) {
		t.Errorf("EmbedTools = %v, want it to wrap %v and name the embedder", err, boom)
	}
	if _, err := EmbedTools(context.Background(), e, nil, nil, WithBatchSize(0)); err == nil {
		t.Error("batch size 0 accepted")
	}
}

func TestContentHash(t *testing.T) {
	base := schemas.Manifest{
		ID: "getWeather", Name: "getWeather", Description: "Weather forecast",
		Keywords:   []string{"weather"},
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","maximum":10}}}`),
	}
	h := ContentHash(base)
	if len(h) != 64 {
		t.Fatalf("hash %q is not hex SHA-256", h)
	}
	same := func(m schemas.Manifest) schemas.Manifest { return m }
	for _, tc := range []struct {
		name   string
		edit   func(schemas.Manifest) schemas.Manifest
		change bool
	}{
		{"identical", same, false},
		{"parameters reformatted and reordered", func(m schemas.Manifest) schemas.Manifest {
			m.Parameters = json.RawMessage("{\n  \"properties\": {\"days\": {\"maximum\": 10, \"type\": \"integer\"}, \"city\": {\"type\": \"string\"}},\n  \"type\": \"object\"\n}")
			return m
		}, false},
		{"empty examples", func(m schemas.Manifest) schemas.Manifest { m.Examples = []string{}; return m }, false},
		{"version", func(m schemas.Manifest) schemas.Manifest { m.Version = "2"; return m }, false},
		{"executor", func(m schemas.Manifest) schemas.Manifest {
			m.Executor = &schemas.Executor{Kind: schemas.ExecBuiltin}
			return m
		}, false},
		{"description", func(m schemas.Manifest) schemas.Manifest { m.Description += "!"; return m }, true},
		{"name", func(m schemas.Manifest) schemas.Manifest { m.Name = "weather"; return m }, true},
		{"keywords", func(m schemas.Manifest) schemas.Manifest { m.Keywords = nil; return m }, true},
		{"examples", func(m schemas.Manifest) schemas.Manifest { m.Examples = []string{"rain?"}; return m }, true},
		{"parameter", func(m schemas.Manifest) schemas.Manifest {
			m.Parameters = json.RawMessage(`{"type":"object","properties":{"town":{"type":"string"}}}`)
			return m
		}, true},
	} {
		if got := ContentHash(tc.edit(base)) != h; got != tc.change {
			t.Errorf("%s: hash changed = %v, want %v", tc.name, got, tc.change)
		}
	}
}

func TestContentHashInvalidParameters(t *testing.T) {
	a := schemas.Manifest{ID: "x", Parameters: json.RawMessage(`{"broken`)}
	again := schemas.Manifest{ID: "x", Parameters: json.RawMessage(`{"broken`)}
	b := schemas.Manifest{ID: "x", Parameters: json.RawMessage(`{"other`)}
	if ContentHash(a) == ContentHash(b) || ContentHash(a) != ContentHash(again) {
		t.Error("invalid parameters must hash stably and distinctly")
	}
}

func TestKeyString(t *testing.T) {
	k := Key{Embedder: "local:wink@1.1.0:v1:a=0.0003,cc=1", Content: "ab12"}
	if got, want := k.String(), "local_wink_1_1_0_v1_a=0_0003_cc=1.ab12"; got != want {
		t.Errorf("Key.String() = %q, want %q", got, want)
	}
}

func TestToolText(t *testing.T) {
	m := schemas.Manifest{
		ID: "maps/scrape", Name: "googleMapsScraper", Description: "Scrape places from Google Maps.",
		Keywords:   []string{"maps", "leads"},
		Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"What to search"},"max_results":{"type":"integer"}}}`),
		Examples:   []string{"tech companies in Berlin"},
	}
	want := "google maps scraper (maps scrape). Scrape places from Google Maps. Keywords: maps, leads. " +
		"Parameters: max results; query: What to search. Examples: tech companies in Berlin"
	if got := ToolText(m); got != want {
		t.Errorf("ToolText =\n%q\nwant\n%q", got, want)
	}
}

// An embedder with a text of its own (ToolTexter) is given that text, not
// ToolText: USE-lite reads a tool's name, id and description only.
func TestEmbedToolsUsesTheEmbeddersToolText(t *testing.T) {
	u, err := NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	m := schemas.Manifest{
		ID: "maps/scrape", Name: "googleMapsScraper", Description: "Scrape places from Google Maps.",
		Keywords:   []string{"maps", "leads"},
		Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"What to search"}}}`),
	}
	if got, want := u.ToolText(m), "google maps scraper (maps scrape). Scrape places from Google Maps"; got != want {
		t.Fatalf("USELite.ToolText =\n%q\nwant\n%q", got, want)
	}
	e := &countingEmbedder{Embedder: u}
	counted := struct {
		*countingEmbedder
		ToolTexter
	}{e, u}
	if _, err := EmbedTools(context.Background(), counted, nil, []schemas.Manifest{m}); err != nil {
		t.Fatal(err)
	}
	if len(e.batches) != 1 || !slices.Equal(e.batches[0], []string{u.ToolText(m)}) {
		t.Errorf("EmbedTools embedded %q, want the encoder's own text", e.batches)
	}
}

package discover

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

func newHybrid(t *testing.T, emb *fakeEmbedder, opts ...Option) *Engine {
	t.Helper()
	return newFixture(t, append([]Option{WithEmbedder(emb)}, opts...)...)
}

func TestNoEmbedderIsKeywordOnly(t *testing.T) {
	e := newFixture(t)
	if e.Mode() != ModeKeyword {
		t.Fatalf("mode %s without embedder, want keyword", e.Mode())
	}
	cs, err := e.Search(context.Background(), "weather forecast for Berlin", 3, nil)
	if err != nil || len(cs) == 0 || cs[0].ToolID != "weather/getForecast" || cs[0].MatchType != schemas.MatchKeyword {
		t.Fatalf("got %v, %v", cs, err)
	}
}

func TestHybridMatchTypes(t *testing.T) {
	emb := &fakeEmbedder{synonyms: map[string]string{"climate": "weather"}}
	e := newHybrid(t, emb)
	if e.Mode() != ModeHybrid {
		t.Fatalf("mode %s, want hybrid", e.Mode())
	}
	ctx := context.Background()
	cs, err := e.Search(ctx, "weather forecast for the coming days", 5, nil)
	if err != nil || len(cs) == 0 {
		t.Fatalf("got %v, %v", cs, err)
	}
	if cs[0].ToolID != "weather/getForecast" || cs[0].MatchType != schemas.MatchHybrid {
		t.Errorf("top %s (%s), want weather/getForecast found by both", cs[0].ToolID, cs[0].MatchType)
	}
	// No tool has the word "climate"; only its vector reaches the tool.
	cs, err = e.Search(ctx, "climate", 5, nil)
	if err != nil || len(cs) == 0 {
		t.Fatalf("got %v, %v", cs, err)
	}
	if cs[0].ToolID != "weather/getForecast" || cs[0].MatchType != schemas.MatchSemantic {
		t.Errorf("top %s (%s), want weather/getForecast found by vectors only", cs[0].ToolID, cs[0].MatchType)
	}
	for _, c := range cs {
		if c.MatchType == schemas.MatchKeyword || c.MatchType == schemas.MatchHybrid {
			t.Errorf("%s is %s, but no tool has the word", c.ToolID, c.MatchType)
		}
	}
}

func TestHybridConfidenceBoundedAndNonIncreasing(t *testing.T) {
	e := newHybrid(t, &fakeEmbedder{})
	for _, q := range []string{"", "x", "send an email", "list open pull requests of a GitHub repository", strings.Repeat("disk ", 500)} {
		cs, err := e.Search(context.Background(), q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cs {
			if c.Confidence < 0 || c.Confidence > 1 {
				t.Errorf("%q: %s confidence %v out of [0,1]", q, c.ToolID, c.Confidence)
			}
			if i > 0 && c.Confidence > cs[i-1].Confidence {
				t.Errorf("%q: confidence rises down the list at %d", q, i)
			}
		}
	}
}

func TestSearchFakeEmbedderFailingDegradesToKeyword(t *testing.T) {
	emb := &fakeEmbedder{}
	log, buf := newLogger()
	e := newHybrid(t, emb, WithLogger(log))
	kw := newFixture(t)
	emb.failQueries.Store(true)
	ctx := context.Background()
	for range 3 {
		got, err := e.Search(ctx, "send an email to the team", 5, nil)
		if err != nil {
			t.Fatalf("failing embedder surfaced an error: %v", err)
		}
		want, _ := kw.Search(ctx, "send an email to the team", 5, nil)
		if !slices.Equal(ids(got), ids(want)) || got[0].Confidence != want[0].Confidence {
			t.Fatalf("degraded search %v, want the keyword engine's %v", ids(got), ids(want))
		}
	}
	if n := strings.Count(buf.String(), "embedder failed"); n != 1 {
		t.Errorf("logged the failure %d times in 3 searches, want once (rate-limited):\n%s", n, buf)
	}
}

func TestNewFakeEmbedderFailingStartsKeywordOnly(t *testing.T) {
	log, buf := newLogger()
	e := newHybrid(t, &fakeEmbedder{failAll: true}, WithLogger(log))
	if e.Mode() != ModeKeyword {
		t.Fatalf("mode %s, want keyword after the embedder failed", e.Mode())
	}
	if !strings.Contains(buf.String(), "keyword-only") {
		t.Errorf("no log line saying so:\n%s", buf)
	}
	cs, err := e.Search(context.Background(), "send an email", 3, nil)
	if err != nil || len(cs) == 0 || cs[0].ToolID != "mail/send_email" {
		t.Fatalf("got %v, %v", cs, err)
	}
	if len(cs) == len(fixtureTools()) {
		t.Error("returned every tool")
	}
}

func TestHybridPutRemoveKeepVectorsInStep(t *testing.T) {
	emb := &fakeEmbedder{synonyms: map[string]string{"hola": "greet"}}
	e := newHybrid(t, emb)
	ctx := context.Background()
	if err := e.Put(schemas.Manifest{ID: "chat/greet", Name: "greet", Description: "Say hi"}); err != nil {
		t.Fatal(err)
	}
	cs, _ := e.Search(ctx, "hola", 3, nil)
	if len(cs) == 0 || cs[0].ToolID != "chat/greet" || cs[0].MatchType != schemas.MatchSemantic {
		t.Fatalf("after Put: %v", cs)
	}
	if err := e.Remove("chat/greet"); err != nil {
		t.Fatal(err)
	}
	cs, _ = e.Search(ctx, "hola", 3, nil)
	if slices.Contains(ids(cs), "chat/greet") {
		t.Fatalf("removed tool still found: %v", ids(cs))
	}
}

func TestVectorCacheEmbedsUnchangedToolsOnce(t *testing.T) {
	cache := embed.NewMemoryCache()
	for range 2 {
		newHybrid(t, &fakeEmbedder{}, WithVectorCache(cache))
	}
	if cache.Len() != len(fixtureTools()) {
		t.Errorf("cache holds %d vectors for %d tools", cache.Len(), len(fixtureTools()))
	}
}

func TestFilters(t *testing.T) {
	tools := fixtureTools()
	tools[6].Permissions = []string{"mail.send"} // mail/send_email
	tools[7].Type = "script"                     // calendar/create_event
	for _, hybrid := range []bool{false, true} {
		var opts []Option
		if hybrid {
			opts = append(opts, WithEmbedder(&fakeEmbedder{}))
		}
		opts = append(opts, WithAvailability(func(id string) bool { return id != "db/run_sql_query" }))
		e, err := New(tools, opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		ctx := context.Background()
		search := func(q string, f Filter) []string {
			cs, err := e.SearchFilter(ctx, q, 10, f)
			if err != nil {
				t.Fatal(err)
			}
			return ids(cs)
		}
		if got := search("send an email", Filter{Permissions: []string{}}); slices.Contains(got, "mail/send_email") {
			t.Errorf("hybrid %v: tool needing mail.send admitted without it: %v", hybrid, got)
		}
		if got := search("send an email", Filter{Permissions: []string{"mail.send"}}); len(got) == 0 || got[0] != "mail/send_email" {
			t.Errorf("hybrid %v: with the permission: %v", hybrid, got)
		}
		for _, id := range search("create a calendar event", Filter{Types: []string{"script"}}) {
			if id != "calendar/create_event" {
				t.Errorf("hybrid %v: type filter admitted %s", hybrid, id)
			}
		}
		if got := search("run a sql query", Filter{}); slices.Contains(got, "db/run_sql_query") {
			t.Errorf("hybrid %v: unavailable tool returned: %v", hybrid, got)
		}
		for _, id := range search("list open pull requests", Filter{Scope: []string{"github"}}) {
			if !strings.HasPrefix(id, "github/") {
				t.Errorf("hybrid %v: out of scope %s", hybrid, id)
			}
		}
	}
}

func TestParseMode(t *testing.T) {
	for s, want := range map[string]Mode{"keyword": ModeKeyword, "Vector": ModeVector, "semantic": ModeVector, "hybrid": ModeHybrid, "": ModeAuto} {
		if m, err := ParseMode(s); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", s, m, err, want)
		}
	}
	if _, err := ParseMode("fuzzy"); err == nil {
		t.Error("ParseMode accepted fuzzy")
	}
}

// A slow (not local) embedder embeds a repeated request once: the second
// search ranks the same from the kept vector; another request is embedded.
func TestRepeatedRequestEmbeddedOnce(t *testing.T) {
	emb := &fakeEmbedder{}
	e := newHybrid(t, emb)
	ctx := context.Background()
	first, err := e.Search(ctx, "weather forecast for Berlin", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := emb.queries.Load()
	again, err := e.Search(ctx, "weather forecast for Berlin", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := emb.queries.Load(); got != n {
		t.Errorf("the repeated request was embedded again (%d calls, %d before)", got, n)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("ranked differently from the kept vector:\n%+v\n%+v", first, again)
	}
	if _, err := e.Search(ctx, "convert euros to dollars", 3, nil); err != nil || emb.queries.Load() == n {
		t.Errorf("another request was not embedded: %v", err)
	}
}

package llmresolve_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/llmresolve"
	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
	"github.com/toolyard/toolyard/workers/resolve"
)

var testTools = []schemas.Manifest{
	{ID: "maps/scrape", Name: "scrape", Description: "Scrape Google Maps for places matching a search query",
		Parameters: json.RawMessage(`{"type":"object","required":["query"],"properties":{
			"query":{"type":"string","description":"what to search for"},
			"limit":{"type":"integer","minimum":1,"description":"most places returned"},
			"sort":{"type":"string","enum":["relevance","rating"]}}}`)},
	{ID: "maps/geocode", Name: "geocode", Description: "Turn a street address into coordinates",
		Parameters: json.RawMessage(`{"type":"object","required":["address"],"properties":{
			"address":{"type":"string","description":"the street address"}}}`)},
	{ID: "files/checksum", Name: "checksum", Description: "Compute the checksum of a file",
		Parameters: json.RawMessage(`{"type":"object","required":["path"],"properties":{
			"path":{"type":"string"},"algorithm":{"type":"string","enum":["md5","sha256"]}}}`)},
	// Not a candidate: prompts must not show it.
	{ID: "system/uptime", Name: "uptime", Description: "How long the system has been up"},
}

func lookup(id string) (schemas.Manifest, bool) {
	for _, m := range testTools {
		if m.ID == id {
			return m, true
		}
	}
	return schemas.Manifest{}, false
}

var _ resolve.Lookup = lookup

func candidates() []schemas.Candidate {
	return []schemas.Candidate{
		{ToolID: "maps/scrape", Name: "scrape", Server: "maps", Confidence: 0.91, MatchType: schemas.MatchHybrid},
		{ToolID: "maps/geocode", Name: "geocode", Server: "maps", Confidence: 0.42, MatchType: schemas.MatchHybrid},
		{ToolID: "files/checksum", Name: "checksum", Server: "files", Confidence: 0.08, MatchType: schemas.MatchKeyword},
	}
}

func routed(text string) schemas.Routed {
	return schemas.Routed{
		V: schemas.Version,
		Intent: schemas.Intent{ID: "m1.0", SessionID: "s1", MessageID: "m1", Text: text,
			ContextBefore: "I will look for some leads. "},
		Tier: schemas.TierActivated, Candidates: candidates(),
	}
}

// providers are the two protocols every protocol test runs against.
var providers = []string{llmresolve.ProviderOllama, llmresolve.ProviderOpenAI}

// newResolver starts a fake server with the replies and a resolver that
// talks to it over provider's protocol.
func newResolver(t *testing.T, provider string, replies []llmtest.Reply, opts ...llmresolve.Option) (*llmresolve.Resolver, *llmtest.FakeServer) {
	t.Helper()
	srv := llmtest.NewFakeServer(t, replies...)
	cfg := llmresolve.Config{Provider: provider, Model: "fake-model", URL: srv.OllamaURL()}
	if provider == llmresolve.ProviderOpenAI {
		cfg.URL = srv.OpenAIURL()
	}
	model, err := llmresolve.NewModel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]llmresolve.Option{llmresolve.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		llmresolve.WithTimeout(5 * time.Second)}, opts...)
	r, err := llmresolve.New(model, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r, srv
}

func text(s string) llmtest.Reply { return llmtest.Reply{Text: s} }

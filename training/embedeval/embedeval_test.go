package embedeval

import (
	"errors"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// A small registry of my own with one request per tool: the default
// embedder ranks each tool first.
func TestRetrievalRanksTheRightToolsFirst(t *testing.T) {
	l, err := embed.NewLocal()
	if errors.Is(err, embed.ErrUnavailable) {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	tools := []schemas.Manifest{
		{ID: "weather/forecast", Name: "forecast", Description: "Weather forecast for a city: rain, temperature, wind."},
		{ID: "fx/convert", Name: "convert_currency", Description: "Convert an amount of money between currencies."},
		{ID: "mail/send", Name: "send_email", Description: "Send an email message to a recipient."},
	}
	qs := []eval.Query{
		{ID: "1", Query: "rain and wind in Oslo tomorrow", GoldToolIDs: []string{"weather/forecast"}},
		{ID: "2", Query: "change 40 euros into yen", GoldToolIDs: []string{"fx/convert"}},
		{ID: "3", Query: "email my boss that I am late", GoldToolIDs: []string{"mail/send"}},
	}
	s, err := Retrieval(t.Context(), l, tools, qs, embed.ToolText)
	if err != nil {
		t.Fatal(err)
	}
	if s.Hit1 != 1 || s.Recall5 != 1 {
		t.Errorf("%v; want every tool first", s)
	}
	if _, err := Retrieval(t.Context(), l, nil, qs, embed.ToolText); err == nil {
		t.Error("no tools accepted")
	}
}

// Every variant of the table is one the embedder accepts, by a name of its
// own, the default first.
func TestVariantsAreValid(t *testing.T) {
	vs := Variants()
	if vs[0].Name != "default" {
		t.Errorf("first variant %q, want the default", vs[0].Name)
	}
	seen := map[string]bool{}
	m := schemas.Manifest{ID: "a/b", Name: "b", Description: "does b", Keywords: []string{"k"}}
	for _, v := range vs {
		if seen[v.Name] {
			t.Errorf("two variants named %q", v.Name)
		}
		seen[v.Name] = true
		if v.Text(m) == "" {
			t.Errorf("%s: empty tool text", v.Name)
		}
		if _, err := embed.NewLocal(v.Options...); err != nil && !errors.Is(err, embed.ErrUnavailable) {
			t.Errorf("%s: %v", v.Name, err)
		}
	}
}

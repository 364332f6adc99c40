package discover

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// A request's paths, URLs and addresses are items of its coverage that a
// tool with a parameter of that kind covers: "list <path>" is as complete
// a request as "list the directory", and a tool taking a path answers it
// above one that takes none.
func TestValueKindsCovered(t *testing.T) {
	tools := []schemas.Manifest{
		{ID: "files/list", Name: "list", Description: "List the entries of a directory.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
		{ID: "proc/list", Name: "processes", Description: "List the running processes.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"}}}`)},
		{ID: "web/fetch", Name: "fetch", Description: "Fetch a page.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"pageUrl":{"type":"string"}}}`)},
		{ID: "weather/now", Name: "weather", Description: "Current weather.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}}}`)},
	}
	e, err := New(tools)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct {
		id   string
		want valueKind
	}{{"files/list", kindPath}, {"proc/list", 0}, {"web/fetch", kindURL}, {"weather/now", kindPlace}} {
		if got := e.tools[c.id].kinds; got != c.want {
			t.Errorf("%s takes kinds %b, want %b", c.id, got, c.want)
		}
	}
	for _, c := range []struct {
		text string
		want valueKind
	}{
		{"list /srv/data", kindPath},
		{"list ~/notes and https://example.org/x", kindPath | kindURL},
		{"mail ann@example.org", kindEmail},
		{"is db.example.org up", kindHost},
		{"e.g. the list", 0},
		{`say "hello/there"`, 0},
		{"list the processes", 0},
		{"weather in San Francisco", kindPlace},
		{"copy /tmp/a to Berlin", kindPath | kindPlace},
		{"weather in springfield", 0},
	} {
		if got := e.parse(c.text).kinds; got != c.want {
			t.Errorf("%q states kinds %b, want %b", c.text, got, c.want)
		}
	}

	ranked := func(text string) []*pooled {
		t.Helper()
		e.mu.RLock()
		defer e.mu.RUnlock()
		q := e.parse(text)
		order := []*pooled{{en: e.tools["files/list"]}, {en: e.tools["proc/list"]}}
		e.coverages(q, order)
		return order
	}
	withPath, without := ranked("list /srv/data"), ranked("list")
	if !(withPath[0].coverage > without[0].coverage) {
		t.Errorf("a path raised files/list's coverage from %.3f to %.3f; want higher", without[0].coverage, withPath[0].coverage)
	}
	if !(withPath[1].coverage < without[1].coverage) {
		t.Errorf("a path left proc/list's coverage at %.3f (%.3f without); want lower: it takes no path", withPath[1].coverage, without[1].coverage)
	}
	if !(withPath[0].known > without[0].known) {
		t.Errorf("a path some tool takes left the request's known share at %.3f (%.3f without)", withPath[0].known, without[0].known)
	}
}

// An e-mail address stands for the word email: a mail tool answers "let
// <address> know …" above a chat tool whose text shares the request's
// other words.
func TestEmailAddressImpliesEmail(t *testing.T) {
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	e, err := New([]schemas.Manifest{
		{ID: "mail/send", Name: "send", Description: "Send an email message.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}}}`)},
		{ID: "chat/post", Name: "post", Description: "Post a message to a team channel so everyone knows.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}}}`)},
		{ID: "docs/find", Name: "find", Description: "Find a document by its title.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`)},
	}, WithEmbedder(emb), WithMode(ModeHybrid))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct{ text, want string }{
		{"let kim@example.net know the release is out", "mail/send"},
		{"let the team know the release is out", "chat/post"},
	} {
		cs, err := e.Search(context.Background(), c.text, 2, nil)
		if err != nil || len(cs) == 0 {
			t.Fatalf("%q: %v %v", c.text, cs, err)
		}
		if cs[0].ToolID != c.want {
			t.Errorf("%q: %s first (%.2f), want %s", c.text, cs[0].ToolID, cs[0].Confidence, c.want)
		}
	}
}

package discover

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

func TestRequestAction(t *testing.T) {
	e := newFixture(t)
	tests := []struct {
		request string
		want    actionKind
	}{
		{"delete the file /tmp/a.log", actionDelete},
		{"please remove the old backups", actionDelete},
		{"can you list the files in /etc", actionRead},
		{"I want to update my postal address", actionUpdate},
		{"schedule a call with Ann tomorrow", actionCreate},
		{"creating a ticket for the outage", 0}, // not an imperative
		// What happened is not what to do: the request is a delete.
		{"delete the message I just posted", actionDelete},
		// Nouns: after a word that is not a verb's lead.
		{"who reacted to my slack post", 0},
		{"add milk to my shopping list", actionCreate},
		// A question asks for help a tool of any kind may give.
		{"how long has the server been up", 0},
		{"how do I create an issue", actionCreate},
		// Several steps, several effects.
		{"find the old logs and delete them", actionRead | actionDelete},
		{"WhatsApp the family group: dinner at 7", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := e.parse(tt.request).asked; got != tt.want {
			t.Errorf("requestAction(%q) = %04b, want %04b", tt.request, got, tt.want)
		}
	}
}

func TestToolActions(t *testing.T) {
	e := newFixture(t)
	tests := []struct {
		names       []string
		keywords    []string
		description string
		want        actionKind
	}{
		{[]string{"Create GitHub issue", "github/create_issue"}, []string{"file a bug"}, "Open an issue in a GitHub repository.", actionCreate},
		{[]string{"listDirectory"}, nil, "", actionRead},
		// A noun inside a phrase is not what the tool does.
		{[]string{"File info"}, nil, "Show a file's metadata: size, type, permissions, owner and access/modify times.", actionRead},
		{[]string{"Music"}, nil, "Search songs and create playlists.", actionRead | actionCreate},
		// Nor the items of a list.
		{[]string{"Stock quote"}, nil, "Returns the latest trade price, change and volume for a symbol.", 0},
		{[]string{"Invoices"}, nil, "Creates a new draft invoice. Deleting one is not possible", actionCreate | actionDelete},
		{[]string{"Reminders"}, []string{"post reminder"}, "", actionCreate},
		{[]string{"Translate"}, nil, "Translate text into another language.", 0},
		// A tool that manages things does all four.
		{[]string{"Reminders"}, nil, "Create and manage reminders.", actionAny},
	}
	for _, tt := range tests {
		forms := func(texts []string) (out []string) {
			for _, s := range texts {
				out = append(out, e.exactForm(s))
			}
			return out
		}
		if got := toolActions(forms(tt.names), forms(tt.keywords), tt.description); got != tt.want {
			t.Errorf("toolActions(%q, %q, %q) = %04b, want %04b", tt.names, tt.keywords, tt.description, got, tt.want)
		}
	}
}

func TestVerbOf(t *testing.T) {
	tests := map[string]actionKind{
		"delete": actionDelete, "deletes": actionDelete, "deleted": actionDelete, "deleting": actionDelete,
		"lists": actionRead, "searches": actionRead, "creating": actionCreate, "changed": actionUpdate,
		"dropping": 0, "posted": actionCreate, "ed": 0, "sing": 0, "table": 0,
	}
	for w, want := range tests {
		if got := verbOf(w); got != want {
			t.Errorf("verbOf(%q) = %04b, want %04b", w, got, want)
		}
	}
}

func TestActionConflicts(t *testing.T) {
	tests := []struct {
		want, have actionKind
		conflict   bool
	}{
		{actionDelete, actionCreate, true},
		{actionRead, actionCreate, true},
		{actionRead, actionRead | actionCreate, false},
		{actionRead | actionDelete, actionRead, false},
		{0, actionCreate, false}, // the request names no effect
		{actionDelete, 0, false}, // nor the tool
	}
	for _, tt := range tests {
		if got := tt.want.conflicts(tt.have); got != tt.conflict {
			t.Errorf("%04b.conflicts(%04b) = %v, want %v", tt.want, tt.have, got, tt.conflict)
		}
	}
}

func TestPreferAskedAction(t *testing.T) {
	tool := func(id string, actions actionKind, conflict bool) *pooled {
		server := "s"
		if strings.HasPrefix(id, "other") {
			server = "other"
		}
		return &pooled{en: &entry{cand: schemas.Candidate{ToolID: id, Server: server}, actions: actions}, actionConflict: conflict}
	}
	toolIDs := func(ps []*pooled) (out []string) {
		for _, p := range ps {
			out = append(out, p.en.cand.ToolID)
		}
		return out
	}
	tests := []struct {
		name  string
		order []*pooled
		want  []string
	}{
		{"the first names the effect", []*pooled{tool("a", actionDelete, false), tool("b", actionCreate, true)}, []string{"a", "b"}},
		{"the second does", []*pooled{tool("create", actionCreate, true), tool("delete", actionDelete, false), tool("x", 0, false)}, []string{"delete", "create", "x"}},
		{"the third does", []*pooled{tool("create", actionCreate, true), tool("list", actionRead, true), tool("delete", actionDelete, false)}, []string{"delete", "create", "list"}},
		{"a tool naming no effect is not preferred", []*pooled{tool("create", actionCreate, true), tool("x", 0, false)}, []string{"create", "x"}},
		{"not of the first's server", []*pooled{tool("create", actionCreate, true), tool("other-delete", actionDelete, false)}, []string{"create", "other-delete"}},
		{"beyond the rivals", []*pooled{tool("c", actionCreate, true), tool("l", actionRead, true), tool("r", actionRead, true), tool("d", actionDelete, false)}, []string{"c", "l", "r", "d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			preferAskedAction(actionDelete, tt.order)
			got := toolIDs(tt.order)
			if len(got) != len(tt.want) {
				t.Fatalf("order %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("order %q, want %q", got, tt.want)
				}
			}
		})
	}
}

// hybridEngine indexes tools for hybrid search on the build's word vectors,
// with the shipped calibration (without the vectors it fails in CI and
// skips locally).
func hybridEngine(t *testing.T, tools []schemas.Manifest) *Engine {
	t.Helper()
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	e, err := New(tools, WithMode(ModeHybrid), WithEmbedder(emb))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// A request for an effect no tool of the registry has is not auto-run by
// the tool that shares its objects: deleting a message is not posting one.
// The requests are this test's own, not those the model was fitted on.
func TestNearMissesAreNotActivated(t *testing.T) {
	tools, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	e := hybridEngine(t, tools)
	tests := []struct {
		request string
		tool    string // "" for none: the top tool must stay below activation
	}{
		{"delete my github issue about the crash", ""},
		{"remove the event called standup from my calendar", ""},
		{"edit the email I sent to Bob", ""},
		{"rename the slack channel #ops to #infra", ""},
		{"change the owner of report.pdf to alice", ""},
		{"post hello to #general on slack", "slack/post_message"},
		{"add a meeting with Sam to my calendar on Friday at 3pm", "calendar/create_event"},
		{"create an issue in acme/api titled crash on save", "github/create_issue"},
		{"list the running processes", "system/process_list"},
	}
	for _, tt := range tests {
		cs, err := e.Search(context.Background(), tt.request, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			t.Fatalf("%q: no candidates", tt.request)
		}
		top := cs[0]
		if tt.tool == "" && top.Confidence >= 0.85 {
			t.Errorf("%q: %s activated at %.2f; a near miss needs no tool here", tt.request, top.ToolID, top.Confidence)
		}
		// A near miss says so, within the candidates' contract.
		if tt.tool == "" && top.Mismatch == nil {
			t.Errorf("%q: %s carries no mismatch", tt.request, top.ToolID)
		}
		out := schemas.Candidates{V: schemas.Version, Intent: schemas.Intent{ID: "i", SessionID: "s", MessageID: "m", Text: tt.request, End: len(tt.request)}, Candidates: cs}
		if err := schemas.ValidateValue(schemas.KindCandidates, out); err != nil {
			t.Errorf("%q: %v", tt.request, err)
		}
		if tt.tool != "" && (top.ToolID != tt.tool || top.Confidence < 0.85) {
			t.Errorf("%q: %s at %.2f, want %s activated", tt.request, top.ToolID, top.Confidence, tt.tool)
		}
	}
}

// Among tools that share a request's objects, the one naming the effect
// asked for comes first, whatever words the others share with it.
func TestAskedEffectRanksFirst(t *testing.T) {
	var tools []schemas.Manifest
	for _, m := range []struct{ id, name, description string }{
		{"calendar/create_event", "Create event", "Create an event in the user's calendar with a title, start time and attendees."},
		{"calendar/list_events", "List events", "List the events in the user's calendar between two dates."},
		{"calendar/delete_event", "Delete event", "Delete an event from the user's calendar by its id or title."},
		{"slack/post_message", "Post message", "Post a message to a Slack channel."},
		{"slack/delete_message", "Delete message", "Delete a message from a Slack channel."},
		{"github/create_issue", "Create issue", "Open an issue in a GitHub repository with a title and body."},
		{"github/list_issues", "List issues", "List the open issues of a GitHub repository."},
	} {
		tools = append(tools, schemas.Manifest{ID: m.id, Name: m.name, Description: m.description, Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	e := hybridEngine(t, tools)
	for request, want := range map[string]string{
		"erase the message I posted in #ops":      "slack/delete_message",
		"remove my last slack message":            "slack/delete_message",
		"show the open issues in acme/api":        "github/list_issues",
		"remove the standup event from my agenda": "calendar/delete_event",
	} {
		cs, err := e.Search(context.Background(), request, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 || cs[0].ToolID != want {
			t.Errorf("%q: ranked %v, want %s first", request, ids(cs), want)
		}
	}
}

package discover

import (
	"context"
	"encoding/json"
	"slices"
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
		// unsure are the verbs that may head a noun phrase instead.
		unsure []actionKind
	}{
		{"delete the file /tmp/a.log", actionDelete, nil},
		{"archive the #old-launch channel", actionUpdate, nil},
		{"please remove the old backups", actionDelete, nil},
		{"can you list the files in /etc", actionRead, nil},
		{"I want to update my postal address", actionUpdate, nil},
		{"schedule a call with Ann tomorrow", actionCreate, nil},
		{"creating a ticket for the outage", 0, nil}, // not an imperative
		// What happened is not what to do: the request is a delete.
		{"delete the message I just posted", actionDelete, nil},
		// Nouns: after a word that is not a verb's lead.
		{"who reacted to my slack post", 0, nil},
		{"add milk to my shopping list", actionCreate, nil},
		// A question asks for help a tool of any kind may give.
		{"how long has the server been up", 0, nil},
		{"how do I create an issue", actionCreate, nil},
		// Several steps, several effects.
		{"find the old logs and delete them", actionRead | actionDelete, nil},
		{"WhatsApp the family group: dinner at 7", 0, nil},
		// A verb that as often heads a noun phrase is surely a verb only
		// where nothing else can be: after "please" or "to", or before its
		// object. Elsewhere it is unsure.
		{"order a pizza", actionCreate, nil},
		{"share the report with Ann", actionCreate, nil},
		{"update jane's phone number", actionUpdate, nil},
		{"please post hello to #general", actionCreate, nil},
		{"I need to book flights", actionCreate, nil},
		{"order status for 12345", 0, []actionKind{actionCreate}},
		{"share price of ACME", 0, []actionKind{actionCreate}},
		{"update log of the server", 0, []actionKind{actionUpdate}},
		{"show me post titles", actionRead, []actionKind{actionCreate}},
		{"show the orders and post them", actionRead | actionCreate, nil},
		{"", 0, nil},
	}
	for _, tt := range tests {
		q := e.parse(tt.request)
		var unsure []actionKind
		for _, u := range q.unsure {
			unsure = append(unsure, u.kind)
		}
		if q.asked != tt.want || !slices.Equal(unsure, tt.unsure) {
			t.Errorf("requestAction(%q) = %04b, unsure %v; want %04b, unsure %v", tt.request, q.asked, unsure, tt.want, tt.unsure)
		}
	}
}

// An unsure verb is asked of a tool that does not mention its word (the
// request is to do it), not of one that does (the request is about the
// thing the tool speaks of).
func TestAskedOf(t *testing.T) {
	e := hybridEngine(t, describedTools(
		[3]string{"shop/tracking", "Track a parcel", "Look up the status and tracking of a customer's order."},
		[3]string{"stocks/quote", "Stock quote", "Look up the latest share price and quote of a stock ticker."},
		[3]string{"files/head", "First lines", "Show the first lines of a text file."},
		[3]string{"cases/update", "Update case", "Update a case's priority and assignee."},
	))
	tests := []conflictCase{
		{"order status for 12345", "shop/tracking", false},
		{"share price of ACME", "stocks/quote", false},
		{"edit line 5 of notes.txt", "files/head", true},
		// Nor of one that names the effect: it may be asked to do it.
		{"first read case 68, then update case 68 priority", "cases/update", false},
		// A sure verb is asked of every tool.
		{"order a parcel for tomorrow", "shop/tracking", true},
	}
	checkConflicts(t, e, tests)
}

func TestAsksWhatIs(t *testing.T) {
	tests := map[string]bool{
		"what meetings do I have tomorrow":           true,
		"who is online in the eng channel":           true,
		"Where's the nearest pharmacy?":              true,
		"how many files are in /var/tmp":             true,
		"how long has the server been up":            true,
		"which branch is deployed on staging":        true,
		"whose turn is it to cook":                   true,
		"how do I rotate my ssh keys":                false, // a method
		"what is a good way to get fluent in Go":     false, // advice
		"what should I name the repo":                false,
		"what options are there for creating a poll": false, // names an effect
		"who can I invite to the offsite":            false,
		"is the disk full":                           false, // yes-no: "do a backup" is an order too
		"have the printer cleaned":                   false,
		"show the uptime":                            false,
		"":                                           false,
	}
	for request, want := range tests {
		if got := asksWhatIs(plainWords(request)); got != want {
			t.Errorf("asksWhatIs(%q) = %v, want %v", request, got, want)
		}
	}
}

// A question about what is asks to read of a tool whose description opens
// with another effect, unless it names the tool; a tool that opens
// otherwise may give what is asked with a verb its text does not list.
func TestQuestionsAskToRead(t *testing.T) {
	e := hybridEngine(t, describedTools(
		[3]string{"chat/post_message", "Post message", "Post a message to a chat channel or a person."},
		[3]string{"cards/flashcards", "Flashcards", "A study app that lets learners create flashcards and quiz themselves on them."},
		[3]string{"astro/tracker", "Space tracker", "Add-on showing where the space station is and who is aboard."},
	))
	tests := []conflictCase{
		{"who is online in the chat channel", "chat/post_message", true},
		{"which channel did the message go to", "chat/post_message", true},
		// Named: a question about the tool itself.
		{"what does post message do with a channel", "chat/post_message", false},
		// The request itself names the effect.
		{"who can post a message in the chat channel", "chat/post_message", false},
		{"what are my flashcards about", "cards/flashcards", false},
		// "Add-on" is a noun, not the verb "add".
		{"who is aboard the space station", "astro/tracker", false},
	}
	checkConflicts(t, e, tests)
}

// conflictCase is a request, one of the tools it ranks, and whether the
// tool conflicts with the effect the request asks for.
type conflictCase struct {
	request, tool string
	conflict      bool
}

func checkConflicts(t *testing.T, e *Engine, tests []conflictCase) {
	t.Helper()
	for _, tt := range tests {
		cs, err := e.Search(context.Background(), tt.request, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(cs, func(c schemas.Candidate) bool { return c.ToolID == tt.tool })
		if i < 0 {
			t.Fatalf("%q: %s not among %v", tt.request, tt.tool, ids(cs))
		}
		if got := cs[i].Mismatch != nil; got != tt.conflict {
			t.Errorf("%q: %s conflicts = %v, want %v (mismatch %+v)", tt.request, tt.tool, got, tt.conflict, cs[i].Mismatch)
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
		// A hyphenated word is one word: "add-on" is a noun.
		{[]string{"Tracker"}, nil, "Add-on showing where the space station is.", 0},
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
		// The request asks to delete (of every tool).
		return &pooled{en: &entry{cand: schemas.Candidate{ToolID: id, Server: server}, actions: actions}, asked: actionDelete, actionConflict: conflict}
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
			preferAskedAction(tt.order)
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
	e := hybridEngine(t, describedTools(
		[3]string{"calendar/create_event", "Create event", "Create an event in the user's calendar with a title, start time and attendees."},
		[3]string{"calendar/list_events", "List events", "List the events in the user's calendar between two dates."},
		[3]string{"calendar/delete_event", "Delete event", "Delete an event from the user's calendar by its id or title."},
		[3]string{"slack/post_message", "Post message", "Post a message to a Slack channel."},
		[3]string{"slack/delete_message", "Delete message", "Delete a message from a Slack channel."},
		[3]string{"github/create_issue", "Create issue", "Open an issue in a GitHub repository with a title and body."},
		[3]string{"github/list_issues", "List issues", "List the open issues of a GitHub repository."},
	))
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

// describedTools are manifests of tools known by id, name and description
// only, taking an object of anything.
func describedTools(specs ...[3]string) []schemas.Manifest {
	out := make([]schemas.Manifest, len(specs))
	for i, sp := range specs {
		out[i] = schemas.Manifest{ID: sp[0], Name: sp[1], Description: sp[2], Parameters: json.RawMessage(`{"type":"object"}`)}
	}
	return out
}

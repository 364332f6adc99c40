package execute

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

var (
	checksumTool = schemas.Manifest{ID: "files/checksum", Name: "File checksum", Description: "Hash a file",
		Parameters: json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"File to hash","examples":["/etc/hosts"]},"algorithm":{"type":"string","enum":["md5","sha256"],"default":"sha256"}}}`),
		Keywords:   []string{"hash", "sha256"}, Examples: []string{"checksum of /etc/hosts"},
		Executor: &schemas.Executor{Kind: schemas.ExecSubprocess, Argv: []string{"{algorithm}sum", "--", "{path}"}}}
	scraperTool = schemas.Manifest{ID: "maps/scraper", Name: "Maps scraper", Description: "Scrape places from maps",
		Parameters: json.RawMessage(`{"type":"object","required":["query"],"properties":{"query":{"type":"string"}}}`)}
)

// fakeSearch records its calls and answers from a fixed list.
type fakeSearch struct {
	query string
	k     int
	err   error
}

func (f *fakeSearch) search(ctx context.Context, q string, k int) ([]schemas.Candidate, error) {
	f.query, f.k = q, k
	if f.err != nil {
		return nil, f.err
	}
	all := []schemas.Candidate{
		{ToolID: "files/checksum", Name: "File checksum", Description: "Hash a file", Confidence: 0.9, Score: 3, MatchType: schemas.MatchHybrid},
		{ToolID: "maps/scraper", Name: "Maps scraper", Description: "Scrape places from maps", Confidence: 0.4, Score: 1, MatchType: schemas.MatchHybrid},
		{ToolID: "toolyard/help", Name: "Help", Confidence: 0.1, MatchType: schemas.MatchHybrid},
	}
	return all, nil // more than k: the executor must cut
}

func builtinExecutor(s *fakeSearch) *Executor {
	var sf SearchFunc
	if s != nil {
		sf = s.search
	}
	return New(registry.New(checksumTool, scraperTool), sf)
}

func meta(metaTool, toolID string, params map[string]any) schemas.ToolCall {
	return schemas.ToolCall{IntentID: "i", SessionID: "s", MetaTool: metaTool, ToolID: toolID, Parameters: params}
}

func TestSearch(t *testing.T) {
	fs := &fakeSearch{}
	e := builtinExecutor(fs)
	out, err := run(t, e, meta(schemas.MetaSearch, "", map[string]any{"query": "hash a file", "k": 2}))
	if err != nil {
		t.Fatal(err)
	}
	want := []any{
		map[string]any{"id": "files/checksum", "name": "File checksum", "description": "Hash a file", "confidence": 0.9},
		map[string]any{"id": "maps/scraper", "name": "Maps scraper", "description": "Scrape places from maps", "confidence": 0.4},
	}
	if !reflect.DeepEqual(out.Content, want) {
		t.Fatalf("content %#v", out.Content)
	}
	if fs.query != "hash a file" || fs.k != 2 || out.ExitCode != nil {
		t.Fatalf("search got %q k=%d; exit code %v", fs.query, fs.k, out.ExitCode)
	}
	// The content is already in its transported shape.
	data, _ := json.Marshal(out.Content)
	var back any
	_ = json.Unmarshal(data, &back)
	if !reflect.DeepEqual(back, out.Content) {
		t.Fatalf("content changes shape through JSON: %#v", back)
	}

	// Default k, and the same builtin reached through execute of its id.
	if _, err := run(t, e, meta(schemas.MetaExecute, SearchID, map[string]any{"query": "x"})); err != nil || fs.k != DefaultSearchK {
		t.Fatalf("execute toolyard/search: k=%d err=%v", fs.k, err)
	}
}

func TestSearchErrors(t *testing.T) {
	tests := []struct {
		name      string
		params    map[string]any
		searchErr error
		transient bool
		class     error
		msg       string
	}{
		{"no query", map[string]any{}, nil, false, ErrInvalidParameters, "missing property 'query'"},
		{"empty query", map[string]any{"query": ""}, nil, false, ErrInvalidParameters, "/query"},
		{"k above maximum", map[string]any{"query": "x", "k": 500}, nil, false, ErrInvalidParameters, "maximum"},
		{"backend failure is transient", map[string]any{"query": "x"}, errors.New("index unavailable"), true, nil, `search "x": index unavailable`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := builtinExecutor(&fakeSearch{err: tt.searchErr})
			_, err := run(t, e, meta(schemas.MetaSearch, "", tt.params))
			if err == nil || IsTransient(err) != tt.transient || (tt.class != nil && !errors.Is(err, tt.class)) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %v (transient %v), want %v containing %q", err, IsTransient(err), tt.class, tt.msg)
			}
		})
	}
}

func TestLocalSearch(t *testing.T) {
	e := builtinExecutor(nil)
	out, err := run(t, e, meta(schemas.MetaSearch, "", map[string]any{"query": "sha256 hash of files"}))
	if err != nil {
		t.Fatal(err)
	}
	hits := out.Content.([]any)
	if len(hits) == 0 || hits[0].(map[string]any)["id"] != "files/checksum" {
		t.Fatalf("hits %v", hits)
	}
	out, err = run(t, e, meta(schemas.MetaSearch, "", map[string]any{"query": "help"}))
	if err != nil || len(out.Content.([]any)) == 0 || out.Content.([]any)[0].(map[string]any)["id"] != HelpID {
		t.Fatalf("builtins are searchable: %v %v", out.Content, err)
	}
	out, err = run(t, e, meta(schemas.MetaSearch, "", map[string]any{"query": "zzzz"}))
	if err != nil || len(out.Content.([]any)) != 0 {
		t.Fatalf("no match: %v %v", out.Content, err)
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name   string
		call   schemas.ToolCall
		wantID string
		class  error
		msg    string
	}{
		{"item_id", meta(schemas.MetaLoad, "", map[string]any{"item_id": "files/checksum"}), "files/checksum", nil, ""},
		{"tool_id", meta(schemas.MetaLoad, "maps/scraper", nil), "maps/scraper", nil, ""},
		{"id inside free text", meta(schemas.MetaLoad, LoadID, map[string]any{"item_id": "parameters does files/checksum take?"}), "files/checksum", nil, ""},
		{"a builtin", meta(schemas.MetaLoad, "", map[string]any{"item_id": SearchID}), SearchID, nil, ""},
		{"through execute", meta(schemas.MetaExecute, LoadID, map[string]any{"item_id": "files/checksum"}), "files/checksum", nil, ""},
		{"nothing to load", meta(schemas.MetaLoad, LoadID, nil), "", ErrBadCall, "load needs item_id"},
		{"unknown", meta(schemas.MetaLoad, "", map[string]any{"item_id": "hash files"}), "", ErrUnknownTool, `no tool "hash files" in the registry; did you mean files/checksum`},
	}
	e := builtinExecutor(&fakeSearch{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, e, tt.call)
			if tt.class != nil {
				if !errors.Is(err, tt.class) || !strings.Contains(err.Error(), tt.msg) {
					t.Fatalf("err = %v, want %v containing %q", err, tt.class, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m, ok := out.Content.(map[string]any)
			if !ok || m["id"] != tt.wantID || m["description"] == "" {
				t.Fatalf("content %#v", out.Content)
			}
			// The content is the manifest: it decodes back into one.
			data, _ := json.Marshal(m)
			if _, err := schemas.ValidateManifest(data); err != nil {
				t.Fatalf("loaded manifest invalid: %v", err)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	e := builtinExecutor(&fakeSearch{})
	tests := []struct {
		name     string
		call     schemas.ToolCall
		wantText []string
		wantID   string
	}{
		{"general", meta(schemas.MetaHelp, "", nil), []string{"[TOOL: what you want, in plain words]", "<tool_call name=", "search", "load"}, ""},
		{"general via its own id", meta(schemas.MetaExecute, HelpID, map[string]any{}), []string{"Meta-tools"}, ""},
		{"tool", meta(schemas.MetaHelp, "", map[string]any{"item_id": "files/checksum"}), []string{
			"File checksum (files/checksum): Hash a file",
			"path (string, required): File to hash",
			"algorithm (string, optional); one of md5, sha256; default sha256",
			"[TOOL: files/checksum path=/etc/hosts]",
			`<tool_call name="files/checksum">{"path":"/etc/hosts"}</tool_call>`,
			"Examples: checksum of /etc/hosts",
		}, "files/checksum"},
		{"tool by call id", meta(schemas.MetaHelp, "maps/scraper", nil), []string{"query (string, required)", `query="…"`, "no executor here"}, "maps/scraper"},
		{"a question: general help", meta(schemas.MetaHelp, "", map[string]any{"item_id": "how do I write intents"}), []string{"Meta-tools"}, ""},
		{"unknown name: general help with suggestions", meta(schemas.MetaHelp, "", map[string]any{"item_id": "frobnicate"}), []string{`There is no tool "frobnicate"; did you mean files/checksum, maps/scraper, toolyard/help?`, "Meta-tools"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, e, tt.call)
			if err != nil {
				t.Fatal(err)
			}
			m := out.Content.(map[string]any)
			text, _ := m["text"].(string)
			for _, w := range tt.wantText {
				if !strings.Contains(text, w) {
					t.Errorf("help text lacks %q:\n%s", w, text)
				}
			}
			if tt.name == "a question: general help" && strings.Contains(text, "There is no tool") {
				t.Errorf("a question is not a tool name:\n%s", text)
			}
			if tt.wantID != "" && m["id"] != tt.wantID {
				t.Errorf("id = %v", m["id"])
			}
			if tt.wantID == "" && len(m["meta_tools"].([]any)) != len(BuiltinManifests()) {
				t.Errorf("general help lists %v", m["meta_tools"])
			}
		})
	}
}

func TestBuiltinManifests(t *testing.T) {
	ms := BuiltinManifests()
	metas := map[string]string{}
	for _, m := range ms {
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schemas.ValidateManifest(data); err != nil {
			t.Errorf("%s: %v", m.ID, err)
		}
		if !strings.HasPrefix(m.ID, "toolyard/") || m.Executor == nil || m.Executor.Kind != schemas.ExecBuiltin {
			t.Errorf("%s: executor %+v", m.ID, m.Executor)
		}
		if len(m.Keywords) < 5 || len(m.Examples) < 2 || len(m.Description) < 60 {
			t.Errorf("%s: too little for discovery to find it by", m.ID)
		}
		metas[m.Executor.Builtin] = m.ID
	}
	want := map[string]string{schemas.MetaHelp: HelpID, schemas.MetaSearch: SearchID, schemas.MetaLoad: LoadID,
		BuiltinFind: FindToolsID, BuiltinActivate: ActivateID}
	if !reflect.DeepEqual(metas, want) {
		t.Fatalf("builtins %v, want %v", metas, want)
	}
}

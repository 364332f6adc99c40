package schemas

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDocumentsCompile(t *testing.T) {
	all, err := compiled()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		if all[k] == nil {
			t.Errorf("no schema for %s", k)
		}
		if _, err := Document(k); err != nil {
			t.Errorf("document %s: %v", k, err)
		}
	}
}

// The Go types and the JSON Schema documents describe the same messages:
// what the stages write meets the published contract.
func TestGoValuesMeetTheirContracts(t *testing.T) {
	intent := Intent{V: Version, ID: "m1.0", SessionID: "s1", MessageID: "m1", Text: "show disk usage", Start: 3, End: 30,
		ContextBefore: "ok ", DependsOn: []string{"m1.1"}, Conversation: []Message{{Role: "user", Content: "hi"}}, Scope: []string{"system"}}
	cand := Candidate{ToolID: "system/disk_usage", Name: "disk usage", Score: 3.2, Confidence: 0.9, MatchType: MatchKeyword}
	code := 0
	tests := []struct {
		kind Kind
		v    any
	}{
		{KindAgentOutput, AgentOutput{V: Version, SessionID: "s1", MessageID: "m1", Text: "[TOOL: x]"}},
		{KindAgentOutput, AgentOutput{V: Version, SessionID: "s1", MessageID: "m1", Text: "[TOOL: x]", TimeZone: "America/Argentina/Buenos_Aires"}},
		{KindIntent, intent},
		{KindCandidates, Candidates{V: Version, Intent: intent, Candidates: []Candidate{cand}}},
		{KindCandidates, Candidates{V: Version, Intent: intent, Candidates: []Candidate{}}},
		{KindRouted, Routed{V: Version, Intent: intent, Tier: TierActivated, Candidates: []Candidate{cand}}},
		{KindToolCall, ToolCall{V: Version, IntentID: "m1.0", SessionID: "s1", MetaTool: MetaExecute, ToolID: "system/disk_usage", Parameters: map[string]any{"path": "/tmp"}}},
		{KindToolCall, ToolCall{V: Version, IntentID: "m1.0", SessionID: "s1", MetaTool: MetaHelp}},
		{KindResult, Result{V: Version, SessionID: "s1", Status: StatusExecuted, Stage: "execute", Timestamp: time.Now(),
			Output: &ToolOutput{Content: "ok", ExitCode: &code, DurationMS: 1}}},
		{KindResult, Result{V: Version, SessionID: "s1", Status: StatusError, Stage: "parse", Timestamp: time.Now(), Error: &Error{Code: "invalid_input", Message: "bad"}}},
		{KindAuditRecord, AuditRecord{Timestamp: time.Now(), SessionID: "s1", Parameters: map[string]any{}, Result: "success", Stage: "execute"}},
	}
	for _, tt := range tests {
		if err := ValidateValue(tt.kind, tt.v); err != nil {
			t.Errorf("%s: %v", tt.kind, err)
		}
	}
}

func TestInvalidMessagesAreExplained(t *testing.T) {
	tests := []struct {
		kind Kind
		data string
		want string
	}{
		{KindAgentOutput, `{"text": "x"}`, "missing property 'session_id'"},
		{KindAgentOutput, `{"session_id": "a.b", "text": "x"}`, "at /session_id"},
		{KindAgentOutput, `{"session_id": "s", "text": 3}`, "at /text"},
		{KindAgentOutput, `{"session_id": "s", "text": "x", "v": 2}`, "newer than this worker understands"},
		{KindAgentOutput, `{"session_id": "s", "text": "x", "timezone": "Europe Berlin"}`, "at /timezone"},
		{KindAgentOutput, `not json`, "not valid JSON"},
		{KindToolCall, `{"intent_id": "i", "session_id": "s", "meta_tool": "execute"}`, "tool_id"},
		{KindToolCall, `{"intent_id": "i", "session_id": "s", "meta_tool": "launch"}`, "at /meta_tool"},
		{KindResult, `{"session_id": "s", "status": "error", "timestamp": "2026-01-01T00:00:00Z", "stage": "x"}`, "error"},
		{KindManifest, `{"id": "a"}`, "description"},
		{KindManifest, `{"id": "a", "description": "d", "executor": {"kind": "subprocess"}}`, "argv"},
		{KindManifest, `{"id": "a", "description": "d", "executor": {"kind": "http"}}`, "url"},
		{KindManifest, `{"id": "a", "description": "d", "executor": {"kind": "http", "url": "http://x", "method": "FETCH"}}`, "method"},
		{KindManifest, `{"id": "a", "description": "d", "executor": {"kind": "nats"}}`, "subject"},
		{KindManifest, `{"id": "a", "description": "d", "executor": {"kind": "mcp", "command": ["srv"]}}`, "tool"},
		{KindManifest, `{"id": "a", "description": "d", "executor": {"kind": "mcp", "tool": "echo"}}`, "missing property 'command'"},
	}
	for _, tt := range tests {
		err := Validate(tt.kind, []byte(tt.data))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s %s: err = %v, want a ValidationError", tt.kind, tt.data, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %q does not mention %q", tt.kind, tt.data, err, tt.want)
		}
	}
}

func TestManifestExecutorForms(t *testing.T) {
	m, err := ValidateManifest([]byte(`{"id": "py/tool", "description": "d", "executor": "runtime/python"}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Executor.Kind != ExecTool || m.Executor.Tool != "runtime/python" || m.Name != "py/tool" || m.Type != "tool" {
		t.Fatalf("manifest = %+v, executor %+v", m, m.Executor)
	}
	m, err = ValidateManifest([]byte(`{"id": "a", "description": "d", "executor": {"kind": "subprocess", "argv": ["true"], "timeout": "2s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if time.Duration(m.Executor.Timeout) != 2*time.Second {
		t.Fatalf("timeout = %v", time.Duration(m.Executor.Timeout))
	}
	b, _ := json.Marshal(m.Executor)
	if !strings.Contains(string(b), `"timeout":"2s"`) {
		t.Fatalf("executor encodes as %s", b)
	}
	if m.ServerName() != "" {
		t.Fatalf("server of an un-namespaced id: %q", m.ServerName())
	}
	if (&Manifest{ID: "maps/scrape"}).ServerName() != "maps" {
		t.Fatal("server of a namespaced id")
	}
}

func TestParamSchemaValidation(t *testing.T) {
	ps, err := CompileParams("t", json.RawMessage(`{"type":"object","required":["n"],"properties":{"n":{"type":"integer","minimum":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := ps.Validate(map[string]any{"n": 3}); err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]any{{}, {"n": 0}, {"n": "3"}} {
		if ps.Validate(args) == nil {
			t.Errorf("%v accepted", args)
		}
	}
	if _, err := CompileParams("t", json.RawMessage(`{"type": 5}`)); err == nil {
		t.Error("invalid schema compiled")
	}
	if ps, err := CompileParams("t", nil); err != nil || ps.Validate(nil) != nil {
		t.Errorf("empty schema: %v", err)
	}
}

func TestCaseVariantKeysAreRefused(t *testing.T) {
	tests := []struct {
		kind Kind
		data string
		want string // "" means accepted
	}{
		{KindAgentOutput, `{"session_id": "s", "text": "x"}`, ""},
		{KindAgentOutput, `{"session_id": "s", "Session_ID": "a.b.>", "text": "x"}`, `key "Session_ID" is not "session_id"`},
		{KindManifest, `{"id": "a", "description": "d", "eXeCutor": {"kind": "subprocess"}}`, `at /eXeCutor`},
		{KindManifest, `{"id": "a", "description": "d", "executor": {"kind": "subprocess", "argv": ["true"], "ARGV": ["rm"]}}`, `at /executor/ARGV`},
		// Parameters are a JSON Schema kept as written: its keys are not Go fields.
		{KindManifest, `{"id": "a", "description": "d", "parameters": {"type": "object", "properties": {"X": {}, "x": {}}}}`, ""},
		{KindManifest, `{"id": "a", "description": "d", "extra_field": 1}`, ""},
	}
	for _, tt := range tests {
		var err error
		switch tt.kind {
		case KindAgentOutput:
			_, err = Decode[AgentOutput](tt.kind, []byte(tt.data))
		case KindManifest:
			_, err = ValidateManifest([]byte(tt.data))
		}
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tt.data, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: err = %v, want one mentioning %q", tt.data, err, tt.want)
		}
	}
}

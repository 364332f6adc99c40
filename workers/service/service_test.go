package service_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
	"github.com/toolyard/toolyard/workers/stages"
)

type fixture struct {
	env   *pipelinetest.Env
	store *session.Store
}

// start runs the service over the sample registry on a real embedded
// server, with sessions on (or off).
func start(t testing.TB, sessions bool) fixture {
	t.Helper()
	env := pipelinetest.Start(t)
	ms, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	cfg := stages.Config{Tools: ms}
	var st *session.Store
	if sessions {
		if st, err = session.Open(context.Background(), env.JS); err != nil {
			t.Fatal(err)
		}
		cfg.Sessions = &stages.SessionConfig{Store: st}
	}
	set, err := stages.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.Start(env.NC, set)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Stop() })
	return fixture{env: env, store: st}
}

// request sends v and returns the reply, and its error code when it is a
// micro error.
// request sends body to the endpoint's subject for the session the body
// names (or "s" when it names none, or none that can be a subject token).
func request(t *testing.T, nc *nats.Conn, endpoint string, body string) (data []byte, code, desc string) {
	t.Helper()
	var named struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal([]byte(body), &named)
	sess := named.SessionID
	if !schemas.ValidSessionID(sess) {
		sess = "s"
	}
	subject := service.SessionSubject(endpoint, sess)
	m, err := nc.Request(subject, []byte(body), 10*time.Second)
	if err != nil {
		t.Fatalf("%s: %v", subject, err)
	}
	return m.Data, m.Header.Get(micro.ErrorCodeHeader), m.Header.Get(micro.ErrorHeader)
}

func decode[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return v
}

func TestServiceAdvertisesItsEndpoints(t *testing.T) {
	f := start(t, true)
	m, err := f.env.NC.Request("$SRV.INFO.toolyard", nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	info := decode[micro.Info](t, m.Data)
	var subjects []string
	for _, e := range info.Endpoints {
		subjects = append(subjects, e.Subject)
	}
	slices.Sort(subjects)
	var want []string
	for _, ep := range service.Endpoints() {
		want = append(want, ep+".*")
	}
	slices.Sort(want)
	if info.Name != "toolyard" || !slices.Equal(subjects, want) {
		t.Fatalf("info %s %v", info.Name, subjects)
	}
}

func TestResolveIntent(t *testing.T) {
	f := start(t, true)
	nc := f.env.NC
	tests := []struct {
		name, body, status, tool string
	}{
		{"activated and executed", `{"session_id": "r1", "text": "how long has the system been up"}`, schemas.StatusExecuted, "system/uptime"},
		{"not found", `{"session_id": "r1", "text": "compose a sonnet about zyxglorp"}`, schemas.StatusNotFound, ""},
		{"missing argument", `{"session_id": "r1", "text": "count the lines of a file"}`, schemas.StatusError, "files/count_lines"},
		{"one marker: its words", `{"session_id": "r1", "text": "Let me check. [TOOL: how long has the system been up]"}`, schemas.StatusExecuted, "system/uptime"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, code, desc := request(t, nc, service.SubjectResolveIntent, tt.body)
			if code != "" {
				t.Fatalf("error %s: %s", code, desc)
			}
			if err := schemas.Validate(schemas.KindResult, data); err != nil {
				t.Fatalf("reply breaks the result contract: %v", err)
			}
			r := decode[schemas.Result](t, data)
			if r.Status != tt.status || r.ToolID != tt.tool || r.Message == "" && r.Status != schemas.StatusExecuted {
				t.Fatalf("status %s tool %s message %q", r.Status, r.ToolID, r.Message)
			}
			if r.Status == schemas.StatusNotFound && (!slices.Contains(r.Unmatched, "zyxglorp") || r.Available == nil) {
				t.Errorf("not found without unknown words or summary: %+v", r)
			}
		})
	}
	// Every decision is audited, with the call's parameters when one ran.
	recs := f.env.Collect(t, pipeline.StreamAudit, "audit.service.r1", len(tests), 5*time.Second)
	decisions := map[string]schemas.AuditRecord{}
	for _, m := range recs {
		a, err := schemas.Decode[schemas.AuditRecord](schemas.KindAuditRecord, m.Data())
		if err != nil {
			t.Fatal(err)
		}
		decisions[a.Result] = a
	}
	if a := decisions[schemas.StatusExecuted]; a.ToolID != "system/uptime" || a.Decision != schemas.TierActivated {
		t.Errorf("executed audit %+v", a)
	}
	if a := decisions[schemas.StatusNotFound]; a.Decision != schemas.TierNotFound || a.Stage != service.StageService {
		t.Errorf("not-found audit %+v", a)
	}
	// The first request seeded the session's set.
	set, err := f.store.Get(context.Background(), "r1")
	if err != nil || !set.Seeded || !set.Has("system/uptime") {
		t.Fatalf("session after first request: %+v, %v", set, err)
	}
}

func TestSessionEndpoints(t *testing.T) {
	f := start(t, true)
	nc := f.env.NC
	data, code, desc := request(t, nc, service.SubjectFindTools, `{"session_id": "s1", "query": "disk usage of a directory"}`)
	if code != "" {
		t.Fatalf("find_tools: %s %s", code, desc)
	}
	found := decode[map[string]any](t, data)
	if added, _ := found["added"].([]any); len(added) == 0 || added[0] != "system/disk_usage" {
		t.Fatalf("find_tools added %v: %s", found["added"], data)
	}
	data, code, desc = request(t, nc, service.SubjectActivate, `{"session_id": "s1", "id": "files/checksum"}`)
	if code != "" {
		t.Fatalf("activate: %s %s", code, desc)
	}
	act := decode[map[string]any](t, data)
	if act["activated"] != "files/checksum" || !strings.Contains(act["message"].(string), `<tool_call name="files/checksum">`) {
		t.Fatalf("activate: %s", data)
	}
	data, _, _ = request(t, nc, service.SubjectToolsList, `{"session_id": "s1"}`)
	set := decode[schemas.ToolSet](t, data)
	if !set.Has("system/disk_usage") || !set.Has("files/checksum") {
		t.Fatalf("tools.list %v", set.IDs())
	}
	if other := decode[schemas.ToolSet](t, first(request(t, nc, service.SubjectToolsList, `{"session_id": "s2"}`))); len(other.Tools) != 0 {
		t.Fatalf("another session sees %v", other.IDs())
	}
	data, _, _ = request(t, nc, service.SubjectSessionEnd, `{"session_id": "s1"}`)
	if end := decode[service.EndReply](t, data); !end.Ended || end.Cleared != len(set.Tools) {
		t.Fatalf("session.end %+v", end)
	}
	if after := decode[schemas.ToolSet](t, first(request(t, nc, service.SubjectToolsList, `{"session_id": "s1"}`))); len(after.Tools) != 0 {
		t.Fatalf("after end: %v", after.IDs())
	}
}

func first(data []byte, _, _ string) []byte { return data }

func TestServiceBadRequests(t *testing.T) {
	f := start(t, true)
	tests := []struct {
		subject, body, code, says string
	}{
		{service.SubjectResolveIntent, ``, "400", "text is empty"},
		{service.SubjectResolveIntent, `not json`, "400", "not a JSON object"},
		{service.SubjectResolveIntent, `{"session_id": "a.b", "text": "x"}`, "400", "not this subject's session"},
		{service.SubjectResolveIntent, `{"session_id": "s", "text": "   "}`, "400", "text is empty"},
		{service.SubjectResolveIntent, `{"session_id": "s", "text": "x", "txet": 1}`, "400", "unknown field"},
		{service.SubjectResolveIntent, `{"session_id": "s", "text": "x", "timezone": "Mars/Base"}`, "400", "not an IANA time zone"},
		{service.SubjectFindTools, `{"session_id": "s", "query": ""}`, "400", "query is empty"},
		{service.SubjectFindTools, `{"session_id": "s", "query": "x", "k": 500}`, "400", "k must be"},
		{service.SubjectActivate, `{"session_id": "s", "id": ""}`, "400", "id is empty"},
		{service.SubjectActivate, `{"session_id": "s", "id": "nope/nothing"}`, "404", "no tool"},
		{service.SubjectActivate, `{"session_id": "s", "id": "files/checksum", "scope": ["system"]}`, "400", "outside this session's scope"},
		{service.SubjectToolsList, `{"session_id": 7}`, "400", "not this subject's session"},
		{service.SubjectToolsGet, `{"id": "nope/nothing"}`, "404", "no tool"},
		{service.SubjectSessionEnd, `{"session": "s"}`, "400", "unknown field"},
		{service.SubjectResolveIntent, "{\"text\": \"show disk usage \xff\"}", "400", "not valid UTF-8"},
		{service.SubjectResolveIntent, `{"text": "show disk usage \ud800"}`, "400", "surrogate"},
		// More than one intent: one would run and the others be lost.
		{service.SubjectResolveIntent, `{"text": "[TOOL: kernel version] and [TOOL: how long has the system been up]"}`, "400", "answers one intent"},
		{service.SubjectResolveIntent, `{"text": "[TOOL: word count of [TOOL: kernel version]]"}`, "400", "2 intent(s)"},
		{service.SubjectResolveIntent, `{"text": "<tool_call name=\"system/uptime\">{}</tool_call>"}`, "400", "1 direct call(s)"},
	}
	for _, tt := range tests {
		_, code, desc := request(t, f.env.NC, tt.subject, tt.body)
		if code != tt.code || !strings.Contains(desc, tt.says) {
			t.Errorf("%s %s: %s %q, want %s containing %q", tt.subject, tt.body, code, desc, tt.code, tt.says)
		}
	}
}

func TestServiceWithoutSessions(t *testing.T) {
	f := start(t, false)
	for subject, body := range map[string]string{
		service.SubjectFindTools:  `{"session_id": "s", "query": "x"}`,
		service.SubjectActivate:   `{"session_id": "s", "id": "files/checksum"}`,
		service.SubjectToolsList:  `{"session_id": "s"}`,
		service.SubjectSessionEnd: `{"session_id": "s"}`,
	} {
		_, code, desc := request(t, f.env.NC, subject, body)
		if code != "503" || !strings.Contains(desc, "session tool sets are off") {
			t.Errorf("%s without sessions: %s %q", subject, code, desc)
		}
	}
	// Resolving still works.
	data, code, _ := request(t, f.env.NC, service.SubjectResolveIntent, `{"session_id": "s", "text": "how long has the system been up"}`)
	if r := decode[schemas.Result](t, data); code != "" || r.Status != schemas.StatusExecuted {
		t.Fatalf("resolve without sessions: %s %s", code, data)
	}
}

// A session token that NATS accepts but that is not a session id is refused
// by every endpoint before anything runs.
func TestServiceRefusesInvalidSessionTokens(t *testing.T) {
	f := start(t, true)
	for _, ep := range service.Endpoints() {
		for _, sess := range []string{"séance", "a\u00a0b", strings.Repeat("s", 129)} {
			m, err := f.env.NC.Request(service.SessionSubject(ep, sess), []byte(`{}`), 10*time.Second)
			if err != nil {
				t.Fatalf("%s %q: %v", ep, sess, err)
			}
			if code, desc := m.Header.Get(micro.ErrorCodeHeader), m.Header.Get(micro.ErrorHeader); code != "400" || !strings.Contains(desc, "invalid session id") {
				t.Errorf("%s %q: %s %q, want 400 naming the invalid session id", ep, sess, code, desc)
			}
		}
	}
}

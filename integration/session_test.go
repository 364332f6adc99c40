package integration

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/schemas"
)

// embeddingServer speaks the OpenAI embeddings protocol with hashed
// bag-of-words vectors (words shared means vectors close), and fails every
// request with 503 once broken is set: an embedder that goes down.
func embeddingServer(t *testing.T, broken *atomic.Bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() {
			http.Error(w, `{"error": {"message": "model unavailable", "type": "server_error"}}`, http.StatusServiceUnavailable)
			return
		}
		var req struct {
			Input any `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var inputs []string
		switch v := req.Input.(type) {
		case string:
			inputs = []string{v}
		case []any:
			for _, x := range v {
				s, _ := x.(string)
				inputs = append(inputs, s)
			}
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Object string `json:"object"`
			Data   []item `json:"data"`
			Model  string `json:"model"`
			Usage  any    `json:"usage"`
		}{Object: "list", Model: "bow-64", Usage: map[string]int{"prompt_tokens": 1, "total_tokens": 1}}
		for i, s := range inputs {
			resp.Data = append(resp.Data, item{Object: "embedding", Index: i, Embedding: bow(s)})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func bow(s string) []float32 {
	v := make([]float32, 64)
	for _, w := range strings.Fields(strings.ToLower(s)) {
		h := fnv.New32a()
		_, _ = h.Write([]byte(strings.Trim(w, ".,;:!?[]()\"'")))
		v[h.Sum32()%64]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if n == 0 {
		v[0], n = 1, 1
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

// toolsList asks the toolyard micro service for a session's active set.
func toolsList(t *testing.T, nc *nats.Conn, session string) schemas.ToolSet {
	t.Helper()
	m, err := nc.Request("toolyard.tools.list."+session, []byte(`{"session_id": "`+session+`"}`), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if code := m.Header.Get(micro.ErrorCodeHeader); code != "" {
		t.Fatalf("tools.list: %s %s", code, m.Header.Get(micro.ErrorHeader))
	}
	var set schemas.ToolSet
	if err := json.Unmarshal(m.Data, &set); err != nil {
		t.Fatal(err)
	}
	return set
}

// waitSet polls a session's set until ok accepts it.
func waitSet(t *testing.T, nc *nats.Conn, session string, what string, ok func(schemas.ToolSet) bool) schemas.ToolSet {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		set := toolsList(t, nc, session)
		if ok(set) {
			return set
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s: %s did not happen; set %+v", session, what, set)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A session's first output seeds its tool set, find_tools grows it, ending
// the session clears it, and once the embedder fails a new session's set is
// empty rather than filled by half the evidence.
func TestSessionToolSetLifecycle(t *testing.T) {
	var broken atomic.Bool
	emb := embeddingServer(t, &broken)
	_, url := startUp(t, "",
		"--embedder", "openai", "--embedder-url", emb.URL+"/v1", "--embedder-model", "bow-64", "--discovery", "hybrid")
	nc, err := natsConnect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	publish := func(session, subject, text string) {
		t.Helper()
		data, _ := json.Marshal(schemas.AgentOutput{SessionID: session, MessageID: fmt.Sprintf("m-%d", time.Now().UnixNano()), Text: text})
		if err := nc.Publish(subject, data); err != nil {
			t.Fatal(err)
		}
	}

	// Seeded from the first output.
	publish("life", schemas.AgentOutputSubject("life"), "Let me check. [TOOL: how long has the system been up]")
	set := waitSet(t, nc, "life", "seeding", func(s schemas.ToolSet) bool { return s.Seeded })
	if !set.Has("system/uptime") || len(set.Tools) > 8 || set.Degraded != "" {
		t.Fatalf("seeded set %v (degraded %q)", set.IDs(), set.Degraded)
	}
	for _, tl := range set.Tools {
		if tl.Confidence < 0.3 || strings.HasPrefix(tl.ID, "toolyard/") {
			t.Errorf("seeded %s at %.2f", tl.ID, tl.Confidence)
		}
	}
	seeded := len(set.Tools)

	// A later output does not reseed; find_tools, written as an intent, grows the set.
	publish("life", schemas.AgentOutputSubject("life"), "Now [TOOL: find_tools compute the checksum of a file]")
	set = waitSet(t, nc, "life", "find_tools", func(s schemas.ToolSet) bool { return s.Has("files/checksum") })
	if len(set.Tools) <= seeded || !slices.ContainsFunc(set.Tools, func(a schemas.ActiveTool) bool { return a.Source == schemas.SourceFindTools }) {
		t.Fatalf("after find_tools: %+v", set.Tools)
	}
	// activate, through the service.
	m, err := nc.Request("toolyard.activate.life", []byte(`{"session_id": "life", "id": "weather/forecast"}`), 10*time.Second)
	if err != nil || m.Header.Get(micro.ErrorCodeHeader) != "" {
		t.Fatalf("activate: %v %v", err, m.Header)
	}
	if set = toolsList(t, nc, "life"); !set.Has("weather/forecast") {
		t.Fatalf("after activate: %v", set.IDs())
	}
	other := toolsList(t, nc, "someone-else")
	if len(other.Tools) != 0 {
		t.Fatalf("another session sees %v", other.IDs())
	}

	// Ending clears it: the CLI, and agent.end.<session>.
	out, err := exec.Command(binary, "session", "end", "--nats", url, "life").CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"ended":true`) {
		t.Fatalf("session end: %v\n%s", err, out)
	}
	if set = toolsList(t, nc, "life"); len(set.Tools) != 0 || set.Seeded {
		t.Fatalf("after session end: %+v", set)
	}
	publish("gone", schemas.AgentOutputSubject("gone"), "[TOOL: how much disk space does /tmp take]")
	waitSet(t, nc, "gone", "seeding", func(s schemas.ToolSet) bool { return s.Seeded && len(s.Tools) > 0 })
	if err := nc.Publish("agent.end.gone", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	waitSet(t, nc, "gone", "agent.end", func(s schemas.ToolSet) bool { return !s.Seeded && len(s.Tools) == 0 })

	// Scope holds end to end: the seed and the intent's candidates keep to it.
	data, _ := json.Marshal(schemas.AgentOutput{SessionID: "scoped", MessageID: "m-scoped", Scope: []string{"files"},
		Text: "[TOOL: how long has the system been up] and [TOOL: count the lines of a file]"})
	sub, err := nc.SubscribeSync("result.scoped")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Publish(schemas.AgentOutputSubject("scoped"), data); err != nil {
		t.Fatal(err)
	}
	set = waitSet(t, nc, "scoped", "seeding", func(s schemas.ToolSet) bool { return s.Seeded })
	for _, tl := range set.Tools {
		if !strings.HasPrefix(tl.ID, "files/") {
			t.Errorf("scoped session seeded %s", tl.ID)
		}
	}
	for answered := 0; answered < 2; {
		m, err := sub.NextMsg(20 * time.Second)
		if err != nil {
			t.Fatalf("scoped results: %v", err)
		}
		var r schemas.Result
		_ = json.Unmarshal(m.Data, &r)
		if r.Status == schemas.StatusAccepted {
			continue
		}
		answered++
		if r.ToolID != "" && !strings.HasPrefix(r.ToolID, "files/") {
			t.Errorf("scoped intent %q ran %s", r.Intent, r.ToolID)
		}
		for _, c := range r.Matches {
			if !strings.HasPrefix(c.ToolID, "files/") {
				t.Errorf("scoped intent %q offered %s", r.Intent, c.ToolID)
			}
		}
	}

	// The embedder goes down: a new session is seeded empty (meta-tools
	// only), with the reason, while the pipeline still answers.
	broken.Store(true)
	publish("dark", schemas.AgentOutputSubject("dark"), "Please [TOOL: show the kernel version]")
	set = waitSet(t, nc, "dark", "seeding", func(s schemas.ToolSet) bool { return s.Seeded })
	if len(set.Tools) != 0 || !strings.Contains(set.Degraded, "embedder failed") {
		t.Fatalf("with a failing embedder: tools %v, degraded %q", set.IDs(), set.Degraded)
	}
	// find_tools adds nothing either while discovery cannot be trusted.
	m, err = nc.Request("toolyard.find_tools.dark", []byte(`{"session_id": "dark", "query": "kernel version"}`), 30*time.Second)
	if err != nil || m.Header.Get(micro.ErrorCodeHeader) != "503" {
		t.Fatalf("find_tools with a failing embedder: %v %v %s", err, m.Header, m.Data)
	}
	if set = toolsList(t, nc, "dark"); len(set.Tools) != 0 {
		t.Fatalf("find_tools added %v with a failing embedder", set.IDs())
	}
}

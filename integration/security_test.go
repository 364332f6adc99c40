package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/registry"
)

// securedUp starts 'toolyard up' and returns its URL and data directory.
func securedUp(t *testing.T) (url, data string) {
	t.Helper()
	data = t.TempDir()
	port := freePort(t)
	url = fmt.Sprintf("nats://127.0.0.1:%d", port)
	up := startProcess(t, "up", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "")
	up.WaitOutput(t, "Stop with Ctrl-C", 30*time.Second)
	if !strings.Contains(up.Output.String(), "creds agent --data "+data) {
		t.Errorf("the start-up hints should say how to get an agent credential:\n%s", up.Output.String())
	}
	return url, data
}

func adminCreds(data string) string { return filepath.Join(data, "creds", "admin.creds") }

// violations connects with creds and collects the server's permission
// errors, which arrive asynchronously for publishes and subscriptions.
type violations struct {
	nc   *nats.Conn
	mu   sync.Mutex
	errs []string
}

func connectAs(t *testing.T, url, creds string, opts ...nats.Option) *violations {
	t.Helper()
	v := &violations{}
	opts = append(opts, nats.UserCredentials(creds), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		v.mu.Lock()
		v.errs = append(v.errs, err.Error())
		v.mu.Unlock()
	}))
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		t.Fatalf("connect with %s: %v", creds, err)
	}
	t.Cleanup(nc.Close)
	v.nc = nc
	return v
}

// refused waits for a permission error naming subject.
func (v *violations) refused(subject string, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		v.mu.Lock()
		for _, e := range v.errs {
			if strings.Contains(strings.ToLower(e), "permissions violation") && strings.Contains(e, `"`+subject+`"`) {
				v.mu.Unlock()
				return true
			}
		}
		v.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// attempt is one operation an unauthorised client tries.
type attempt struct {
	name    string
	subject string
	sub     bool // a subscription rather than a publish
}

// attempts covers every subject family Toolyard uses and every JetStream
// API verb, against a session ("victim") the client does not own.
func attempts(stage string) []attempt {
	var as []attempt
	for _, s := range []string{
		"agent.output.victim", "agent.stream.victim", "agent.end.victim", "result.victim", "pipe.execute.victim", "audit.execute.victim", "dlq.parse",
		"$KV." + registry.Bucket + ".evil", "$KV.sessions.victim", "$KV.models.current", "$O.outputs.x", "$O.models.x",
		"toolyard.find_tools.victim", "toolyard.resolve_intent.victim", "toolyard.activate.victim", "toolyard.tools.list.victim",
		"toolyard.session.end.victim", "toolyard.feedback.victim",
		"$JS.API.STREAM.CREATE.EVIL", "$JS.API.STREAM.UPDATE.PIPE", "$JS.API.STREAM.DELETE.PIPE", "$JS.API.STREAM.PURGE.PIPE",
		"$JS.API.STREAM.MSG.DELETE.AUDIT", "$JS.API.STREAM.MSG.GET.AUDIT", "$JS.API.STREAM.INFO.AUDIT", "$JS.API.STREAM.NAMES", "$JS.API.STREAM.LIST",
		"$JS.API.STREAM.SNAPSHOT.AUDIT", "$JS.API.STREAM.RESTORE.AUDIT", "$JS.API.DIRECT.GET.KV_tools",
		"$JS.API.CONSUMER.CREATE.AUDIT", "$JS.API.CONSUMER.CREATE.RESULT.x.result.victim", "$JS.API.CONSUMER.DURABLE.CREATE.PIPE.evil",
		"$JS.API.CONSUMER.DELETE.PIPE." + stage, "$JS.API.CONSUMER.INFO.PIPE." + stage, "$JS.API.CONSUMER.NAMES.PIPE", "$JS.API.CONSUMER.LIST.PIPE",
		"$JS.API.CONSUMER.MSG.NEXT.PIPE." + stage, "$JS.API.CONSUMER.PAUSE.PIPE." + stage, "$JS.ACK.PIPE." + stage + ".1.1.1.1.1",
		"$JS.API.ACCOUNT.PURGE", "$JS.API.SERVER.REMOVE", "$SYS.REQ.SERVER.PING",
	} {
		as = append(as, attempt{name: "publish " + s, subject: s})
	}
	for _, s := range []string{"result.victim", "result.>", "agent.>", "audit.>", "pipe.>", "dlq.>", "$KV.tools.>", "_INBOX.>", ">"} {
		as = append(as, attempt{name: "subscribe " + s, subject: s, sub: true})
	}
	return as
}

// An anonymous client is refused outright; an agent limited to its own
// session can do nothing else: every subject family and every JetStream
// API verb is refused, and nothing it tried happened.
func TestSecurityRolesAreEnforced(t *testing.T) {
	url, data := securedUp(t)

	if nc, err := nats.Connect(url); err == nil {
		nc.Close()
		t.Fatal("an anonymous client connected")
	} else if !errors.Is(err, nats.ErrAuthorization) {
		t.Fatalf("anonymous client: want an authorization error, got %v", err)
	}

	agentCreds := filepath.Join(t.TempDir(), "alice.creds")
	toolyard(t, "creds", "agent", "--data", data, "--session", "alice", "--ttl", "1h", "--out", agentCreds)
	if fi, err := os.Stat(agentCreds); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("agent credential file: %v %v", fi.Mode(), err)
	}
	for _, f := range []string{"admin.creds", "worker.creds"} {
		if fi, err := os.Stat(filepath.Join(data, "creds", f)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v", f, err)
		}
	}

	// Positive control: the agent does its own session's work end to end.
	out := toolyard(t, "publish", "--nats", url, "--creds", agentCreds, "--session", "alice", "--wait", "--timeout", "30s", "[TOOL: how long has the system been up]")
	if !strings.Contains(out, `"status":"executed"`) {
		t.Fatalf("the agent's own intent did not run:\n%s", out)
	}

	// It reads and ends its own session's tool set with its credential
	// (the session commands once opened the sessions bucket, which only
	// the admin may), and may say the session is over on agent.end.
	out = toolyard(t, "session", "tools", "--nats", url, "--creds", agentCreds, "alice")
	if !strings.Contains(out, `"session_id":"alice"`) || !strings.Contains(out, `"seeded":true`) {
		t.Errorf("session tools with the agent's credential: %s", out)
	}
	out = toolyard(t, "session", "end", "--nats", url, "--creds", agentCreds, "alice")
	if !strings.Contains(out, `"ended":true`) {
		t.Errorf("session end with the agent's credential: %s", out)
	}
	own := connectAs(t, url, agentCreds, nats.CustomInboxPrefix("_INBOX.alice"))
	if err := own.nc.Publish("agent.end.alice", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if own.refused("agent.end.alice", 2*time.Second) {
		t.Errorf("the agent may not end its own session on agent.end.alice")
	}

	admin := connectJS(t, url, nats.UserCredentials(adminCreds(data)))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	before := streamCounts(ctx, t, admin)

	agent := connectAs(t, url, agentCreds, nats.CustomInboxPrefix("_INBOX.alice"))
	tried, notRefused := attempts("execute"), 0
	defer func() {
		t.Logf("%d operations tried as the agent of another session, %d refused", len(tried), len(tried)-notRefused)
	}()
	for _, a := range tried {
		if a.sub {
			if _, err := agent.nc.SubscribeSync(a.subject); err != nil {
				t.Fatalf("%s: %v", a.name, err)
			}
		} else {
			// A request, so a service or the JetStream API would answer.
			_, _ = agent.nc.Request(a.subject, []byte(`{"session_id":"victim","query":"x","text":"x","id":"x"}`), 200*time.Millisecond)
		}
		if !agent.refused(a.subject, 3*time.Second) {
			notRefused++
			t.Errorf("%s: not refused with a permissions violation", a.name)
		}
	}
	// The body cannot reach another session through the agent's own subject.
	m, err := agent.nc.Request("toolyard.find_tools.alice", []byte(`{"session_id":"victim","query":"disk usage"}`), 10*time.Second)
	if err != nil || m.Header.Get("Nats-Service-Error-Code") != "400" {
		t.Errorf("find_tools for another session through the agent's subject: want a 400, got %v %v", err, m)
	}

	// Nothing the agent tried happened.
	if _, err := admin.Stream(ctx, "EVIL"); !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.Errorf("stream EVIL: %v", err)
	}
	kv, err := admin.KeyValue(ctx, registry.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Get(ctx, "evil"); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Errorf("registry key written by the agent: %v", err)
	}
	after := streamCounts(ctx, t, admin)
	for _, s := range []string{pipeline.StreamAgent, pipeline.StreamAudit, pipeline.StreamDLQ} {
		if after[s] < before[s] {
			t.Errorf("stream %s lost messages: %d before, %d after", s, before[s], after[s])
		}
	}
	if after[pipeline.StreamAgent] != before[pipeline.StreamAgent] {
		t.Errorf("the agent's attempts put %d outputs into AGENT", after[pipeline.StreamAgent]-before[pipeline.StreamAgent])
	}
}

func streamCounts(ctx context.Context, t *testing.T, js jetstream.JetStream) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, s := range []string{pipeline.StreamAgent, pipeline.StreamAudit, pipeline.StreamDLQ, pipeline.StreamResult} {
		st, err := js.Stream(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out[s] = info.State.Msgs
	}
	return out
}

// A worker credential for one stage cannot take, acknowledge or remove
// another stage's work; the other stage's work still runs.
func TestSecurityWorkerStaysInItsStage(t *testing.T) {
	url, data := securedUp(t)
	discover := filepath.Join(t.TempDir(), "discover.creds")
	toolyard(t, "creds", "worker", "--data", data, "--stage", "discover", "--out", discover)

	w := connectAs(t, url, discover)
	js, err := jetstream.New(w.nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := js.Consumer(ctx, pipeline.StreamPipe, "discover"); err != nil {
		t.Fatalf("the discover worker cannot reach its own consumer: %v", err)
	}
	for _, s := range []string{
		"$JS.API.CONSUMER.INFO.PIPE.execute", "$JS.API.CONSUMER.MSG.NEXT.PIPE.execute", "$JS.ACK.PIPE.execute.1.1.1.1.1",
		"$JS.API.CONSUMER.DELETE.PIPE.execute", "$JS.API.CONSUMER.CREATE.PIPE.execute", "$KV.tools.evil", "$JS.API.STREAM.PURGE.PIPE",
	} {
		_, _ = w.nc.Request(s, []byte(`{}`), 200*time.Millisecond)
		if !w.refused(s, 3*time.Second) {
			t.Errorf("discover worker: %s not refused", s)
		}
	}
	out := toolyard(t, "publish", "--nats", url, "--creds", adminCreds(data), "--session", "w1", "--wait", "--timeout", "30s", "[TOOL: how long has the system been up]")
	if !strings.Contains(out, `"status":"executed"`) {
		t.Fatalf("work did not run after the refused attempts:\n%s", out)
	}
}

// An expired agent credential is refused.
func TestSecurityExpiredCredentialRefused(t *testing.T) {
	url, data := securedUp(t)
	creds := filepath.Join(t.TempDir(), "short.creds")
	toolyard(t, "creds", "agent", "--data", data, "--session", "brief", "--ttl", "1s", "--out", creds)
	time.Sleep(2100 * time.Millisecond)
	nc, err := nats.Connect(url, nats.UserCredentials(creds))
	if err == nil {
		nc.Close()
		t.Fatal("an expired credential connected")
	}
	if !errors.Is(err, nats.ErrAuthorization) && !errors.Is(err, nats.ErrAuthExpired) {
		t.Fatalf("expired credential: want an authorization error, got %v", err)
	}
}

package integration

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
)

// replyTargets are subjects of Toolyard's streams and buckets an agent
// names as the reply subject of what it publishes, each with the stream
// that would store an answer published there.
var replyTargets = map[string]string{
	"result.victim":                     pipeline.StreamResult,
	"audit.execute.victim":              pipeline.StreamAudit,
	"agent.output.victim":               pipeline.StreamAgent,
	"pipe.execute.victim":               pipeline.StreamPipe,
	"dlq.execute":                       pipeline.StreamDLQ,
	"$KV." + session.Bucket + ".victim": "KV_" + session.Bucket,
	"$KV." + registry.Bucket + ".junk":  "KV_" + registry.Bucket,
}

// An agent picks the reply subject of everything it publishes, and no
// NATS permission covers reply subjects. In Toolyard's account an answer
// to it (the service's, a JetStream acknowledgement or API response) once
// landed wherever the agent said: another session's results, the audit, a
// bucket. Agents now connect to an account of their own, which reaches
// Toolyard's subjects through imports, and an answer to an imported
// request goes back to the agent's account whatever reply subject it
// named: nothing is stored on any of those subjects. A consumer with a
// deliver subject (another subject the agent would name) is refused; a
// request with an inbox is still answered, and the agent sees its own
// tool set change without any consumer.
func TestSecurityAgentRepliesStayWithTheAgent(t *testing.T) {
	url, data := securedUp(t)
	creds := filepath.Join(t.TempDir(), "alice.creds")
	toolyard(t, "creds", "agent", "--data", data, "--session", "alice", "--ttl", "1h", "--out", creds)
	admin := connectJS(t, url, nats.UserCredentials(adminCreds(data)))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	agent := connectAs(t, url, creds, nats.CustomInboxPrefix("_INBOX.alice"))
	// alice's own tool set, watched as an agent watches it
	setWrites, err := agent.nc.SubscribeSync(session.SetSubject("alice"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := agent.nc.Request(service.SessionSubject(service.SubjectToolsList, "alice"), nil, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for reply := range replyTargets {
		// the service's endpoints
		for _, ep := range []string{service.SubjectToolsList, service.SubjectFindTools} {
			m := nats.NewMsg(service.SessionSubject(ep, "alice"))
			m.Reply, m.Data = reply, []byte(`{"query":"disk usage"}`)
			if ep == service.SubjectToolsList {
				m.Data = nil
			}
			publish(t, agent.nc, m)
		}
		// JetStream's acknowledgement of an output
		m := nats.NewMsg("agent.output.alice")
		m.Reply, m.Data = reply, []byte(`{"session_id":"alice","message_id":"m-`+strings.NewReplacer(".", "-", "$", "").Replace(reply)+`","output":"nothing to do"}`)
		publish(t, agent.nc, m)
		// JetStream's API answers
		for _, api := range []string{"$JS.API.INFO", "$JS.API.STREAM.INFO." + pipeline.StreamResult, "$JS.API.CONSUMER.INFO." + pipeline.StreamResult + ".nosuch"} {
			m := nats.NewMsg(api)
			m.Reply = reply
			publish(t, agent.nc, m)
		}
	}
	if err := agent.nc.Flush(); err != nil {
		t.Fatal(err)
	}

	// A push consumer of its own results, delivering into a bucket.
	push := `{"stream_name":"RESULT","config":{"name":"evil","deliver_subject":"$KV.tools.pushed","filter_subject":"result.alice","ack_policy":"none"}}`
	resp, err := agent.nc.Request("$JS.API.CONSUMER.CREATE.RESULT.evil.result.alice", []byte(push), 10*time.Second)
	if err != nil || !strings.Contains(string(resp.Data), "push consumer") {
		t.Errorf("a push consumer request: want it refused as one, got %v %s", err, respData(resp))
	}
	if _, err := admin.Consumer(ctx, pipeline.StreamResult, "evil"); !errors.Is(err, jetstream.ErrConsumerNotFound) {
		t.Errorf("the agent's push consumer exists: %v", err)
	}

	// A pull consumer of its own results still works: the CLI reads them.
	out := toolyard(t, "publish", "--nats", url, "--creds", creds, "--session", "alice", "--wait", "--timeout", "60s", "[TOOL: activate system/uptime]")
	if !strings.Contains(out, `"session_id":"alice"`) {
		t.Fatalf("the agent's own result:\n%s", out)
	}
	if _, err := setWrites.NextMsg(30 * time.Second); err != nil {
		t.Errorf("the agent saw no write of its tool set: %v", err)
	}

	time.Sleep(time.Second) // the answers above have arrived wherever they go
	for subject, stream := range replyTargets {
		st, err := admin.Stream(ctx, stream)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := st.GetLastMsgForSubject(ctx, subject); !errors.Is(err, jetstream.ErrMsgNotFound) {
			t.Errorf("stream %s holds a message on %s, the reply subject the agent named: %v %s", stream, subject, err, rawData(m))
		}
	}
	if agent.refused("$KV."+session.Bucket+".bob", 0) {
		t.Fatal("a permission error before the agent tried another session's set")
	}
	if _, err := agent.nc.SubscribeSync(session.SetSubject("bob")); err != nil {
		t.Fatal(err)
	}
	if !agent.refused(session.SetSubject("bob"), 10*time.Second) {
		t.Error("the agent may watch another session's tool set")
	}
}

func publish(t *testing.T, nc *nats.Conn, m *nats.Msg) {
	t.Helper()
	if err := nc.PublishMsg(m); err != nil {
		t.Fatal(err)
	}
}

func respData(m *nats.Msg) string {
	if m == nil {
		return ""
	}
	return string(m.Data)
}

func rawData(m *jetstream.RawStreamMsg) string {
	if m == nil {
		return ""
	}
	return string(m.Data)
}

package integration

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
)

// An agent picks the reply subject of its service requests, and the
// service answers with the worker's credential, which may write every
// stream and bucket: a request on the agent's own subject with another
// session's result subject, an audit, a stage's or a bucket's subject as
// reply once wrote the answer there. Such a request is not answered, and
// no stream or bucket changes; a request with an inbox still is.
func TestSecurityServiceRepliesOnlyToInboxes(t *testing.T) {
	url, data := securedUp(t)
	creds := filepath.Join(t.TempDir(), "alice.creds")
	toolyard(t, "creds", "agent", "--data", data, "--session", "alice", "--ttl", "1h", "--out", creds)
	admin := connectJS(t, url, nats.UserCredentials(adminCreds(data)))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	streams := []string{pipeline.StreamAgent, pipeline.StreamPipe, pipeline.StreamResult, pipeline.StreamAudit, pipeline.StreamDLQ, "KV_" + session.Bucket}
	lastSeq := func() map[string]uint64 {
		out := map[string]uint64{}
		for _, s := range streams {
			st, err := admin.Stream(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			info, err := st.Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out[s] = info.State.LastSeq
		}
		return out
	}

	agent := connectAs(t, url, creds, nats.CustomInboxPrefix("_INBOX.alice"))
	// Seeds alice's tool set first, so the requests below change nothing
	// of hers either.
	if _, err := agent.nc.Request(service.SessionSubject(service.SubjectToolsList, "alice"), nil, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	before := lastSeq()
	for _, reply := range []string{"result.victim", "audit.execute.victim", "agent.output.victim", "pipe.execute.victim", "dlq.execute", "$KV." + session.Bucket + ".victim", "$JS.API.STREAM.PURGE.RESULT"} {
		for _, ep := range []string{service.SubjectToolsList, service.SubjectFindTools} {
			m := nats.NewMsg(service.SessionSubject(ep, "alice"))
			m.Reply, m.Data = reply, []byte(`{"query":"disk usage"}`)
			if ep == service.SubjectToolsList {
				m.Data = nil
			}
			if err := agent.nc.PublishMsg(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := agent.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	after := lastSeq()
	for _, s := range streams {
		if after[s] != before[s] {
			t.Errorf("stream %s: last sequence %d before the agent's requests, %d after: an answer was written there", s, before[s], after[s])
		}
	}
	m, err := agent.nc.Request(service.SessionSubject(service.SubjectToolsList, "alice"), nil, 10*time.Second)
	if err != nil || !strings.Contains(string(m.Data), `"session_id":"alice"`) {
		t.Fatalf("a request with an inbox is no longer answered: %v %v", err, m)
	}
}

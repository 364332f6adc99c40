package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/roles"
	"github.com/toolyard/toolyard/workers/service"
)

// An agent, in its own account, asks for consumers of its results through
// the proxy: a pull consumer is passed on and reads them; one with a
// deliver subject, a durable one or a request that is not a consumer
// configuration is refused with the reason, as a JetStream API error.
func TestAPIProxy(t *testing.T) {
	env := pipelinetest.Start(t)
	defer env.Stop()
	proxy, err := service.StartAPIProxy(env.NC, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Stop()
	perms, err := roles.Agent("alice")
	if err != nil {
		t.Fatal(err)
	}
	cred, err := env.Server.Keys().MintAgent(auth.User{Name: "agent:alice", Permissions: perms})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := env.Server.Connect(cred.Option(), nats.CustomInboxPrefix(roles.AgentInbox("alice")))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := env.JS.Publish(ctx, "result.alice", []byte(`{"session_id":"alice"}`)); err != nil {
		t.Fatal(err)
	}

	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := js.OrderedConsumer(ctx, pipeline.StreamResult, jetstream.OrderedConsumerConfig{FilterSubjects: []string{"result.alice"}})
	if err != nil {
		t.Fatalf("an ordered consumer of the agent's results: %v", err)
	}
	msg, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
	if err != nil || !strings.Contains(string(msg.Data()), "alice") {
		t.Fatalf("the agent's result through its consumer: %v", err)
	}

	for _, tt := range []struct{ name, body, want string }{
		{"push", `{"stream_name":"RESULT","config":{"name":"p1","deliver_subject":"$KV.tools.x","filter_subject":"result.alice"}}`, "push consumer"},
		{"durable", `{"stream_name":"RESULT","config":{"durable_name":"p1","filter_subject":"result.alice"}}`, "durable consumer"},
		{"not JSON", `{"stream_name":`, "not a consumer configuration"},
	} {
		resp, err := nc.Request("$JS.API.CONSUMER.CREATE.RESULT.p1.result.alice", []byte(tt.body), 10*time.Second)
		if err != nil || !strings.Contains(string(resp.Data), `"error"`) || !strings.Contains(string(resp.Data), tt.want) {
			t.Errorf("%s: want an API error saying %q, got %v %s", tt.name, tt.want, err, respBody(resp))
		}
	}
	if _, err := env.JS.Consumer(ctx, pipeline.StreamResult, "p1"); err == nil {
		t.Error("a refused consumer exists")
	}

	// The proxy passes on nothing else, even from Toolyard's own side.
	for _, subject := range []string{pipeline.APIProxy + ".STREAM.INFO.AUDIT", pipeline.APIProxy + ".CONSUMER.CREATE.AUDIT.x.audit.>", pipeline.APIProxy + ".STREAM.DELETE.RESULT"} {
		resp, err := env.NC.Request(subject, []byte(`{}`), 10*time.Second)
		if err != nil || !strings.Contains(string(resp.Data), "not a request agents may make") {
			t.Errorf("%s: want it refused, got %v %s", subject, err, respBody(resp))
		}
	}

	// Stream information, but never the subjects (the sessions) it holds.
	if _, err := env.JS.Publish(ctx, "result.bob", []byte(`{"session_id":"bob"}`)); err != nil {
		t.Fatal(err)
	}
	resp, err := nc.Request("$JS.API.STREAM.INFO.RESULT", []byte(`{"subjects_filter":">"}`), 10*time.Second)
	if err != nil || !strings.Contains(string(resp.Data), `"messages":2`) || strings.Contains(string(resp.Data), "bob") {
		t.Errorf("stream info: want the state without the subjects, got %v %s", err, respBody(resp))
	}
	st, err := js.Stream(ctx, pipeline.StreamResult)
	if err != nil {
		t.Fatalf("a client's stream lookup: %v", err)
	}
	if info, err := st.Info(ctx, jetstream.WithSubjectFilter(">")); err != nil || len(info.State.Subjects) != 0 {
		t.Errorf("stream info with a subjects filter: %v %v", err, info.State.Subjects)
	}
}

func respBody(m *nats.Msg) string {
	if m == nil {
		return ""
	}
	return string(m.Data)
}

package roles_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/training/replay"
	"github.com/toolyard/toolyard/workers/roles"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
	"github.com/toolyard/toolyard/workers/stages"
)

// The service answers with the worker's credential on a reply subject
// the requester picks: none the worker may publish to besides replies (a
// stream, a bucket, the JetStream API) is accepted as a reply.
func TestServiceRefusesRepliesWorkersMayPublish(t *testing.T) {
	p, err := roles.Worker()
	if err != nil {
		t.Fatal(err)
	}
	for _, pattern := range p.Pub.Allow {
		subject := strings.NewReplacer("*", "x", ">", "x").Replace(pattern)
		if err := service.CheckReply(subject); err == nil {
			t.Errorf("worker subject %s (%s) accepted as a reply subject", subject, pattern)
		}
	}
	for _, inbox := range []string{"_INBOX.abc.1", roles.AgentInbox("alice") + ".x.1", "_MYAPP_INBOX.x"} {
		if err := service.CheckReply(inbox); err != nil {
			t.Errorf("inbox %s refused: %v", inbox, err)
		}
	}
}

// TestStageStreams: the table says the stream each stage's binding reads.
func TestStageStreams(t *testing.T) {
	set, err := stages.New(stages.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range roles.AllStages() {
		if name == "session" || name == roles.StageReplay {
			continue // session needs a session store (its binding reads AGENT, checked below); replay is not a pipeline stage
		}
		st, err := set.Stage(name)
		if err != nil {
			t.Fatalf("stage %s in the roles table: %v", name, err)
		}
		if st.Name != name || st.Stream != roles.StageStreams[name] {
			t.Errorf("stage %s reads %s as %q; the roles table says %s", name, st.Stream, st.Name, roles.StageStreams[name])
		}
	}
	if roles.StageStreams["session"] != "AGENT" {
		t.Errorf("the session stage reads AGENT, the table says %s", roles.StageStreams["session"])
	}
	for _, name := range []string{"parse", "discover", "route", "choose", "answer", "resolve", "execute", "join", "session"} {
		if _, ok := roles.StageStreams[name]; !ok {
			t.Errorf("stage %s missing from the roles table", name)
		}
	}
}

// allowed evaluates a permission list the way the server does: allowed by
// some allow pattern (or no allow list) and by no deny pattern.
func allowed(p jwt.Permission, subject string) bool {
	match := func(patterns jwt.StringList) bool {
		for _, pat := range patterns {
			if server.SubjectsCollide(pat, subject) && subjectMatches(pat, subject) {
				return true
			}
		}
		return false
	}
	if len(p.Allow) > 0 && !match(p.Allow) {
		return false
	}
	return !match(p.Deny)
}

// subjectMatches: literal subject against a pattern with * and >.
func subjectMatches(pattern, subject string) bool {
	pt, st := strings.Split(pattern, "."), strings.Split(subject, ".")
	for i, tok := range pt {
		if tok == ">" {
			return len(st) > i
		}
		if i >= len(st) || (tok != "*" && tok != st[i]) {
			return false
		}
	}
	return len(pt) == len(st)
}

func TestPermissionSets(t *testing.T) {
	agent, err := roles.Agent("alice", "alice2")
	if err != nil {
		t.Fatal(err)
	}
	discover, err := roles.Worker("discover")
	if err != nil {
		t.Fatal(err)
	}
	execute, err := roles.Worker("execute")
	if err != nil {
		t.Fatal(err)
	}
	all, err := roles.Worker()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		role    string
		p       jwt.Permissions
		pub     bool
		subject string
		want    bool
	}{
		{"agent", agent, true, "agent.output.alice", true},
		{"agent", agent, true, "agent.stream.alice2", true},
		{"agent", agent, true, "agent.output.bob", false},
		{"agent", agent, true, "agent.end.alice2", true},
		{"agent", agent, true, "agent.end.bob", false},
		{"agent", agent, true, "toolyard.find_tools.alice", true},
		{"agent", agent, true, "toolyard.find_tools.bob", false},
		{"agent", agent, true, "$JS.API.CONSUMER.CREATE.RESULT.abc.result.alice", true},
		{"agent", agent, true, "$JS.API.CONSUMER.CREATE.RESULT.abc.result.bob", false},
		{"agent", agent, true, "$JS.API.CONSUMER.CREATE.RESULT.abc.result.>", false},
		{"agent", agent, true, "$JS.API.CONSUMER.DELETE.RESULT.join", false},
		{"agent", agent, true, "$JS.API.CONSUMER.MSG.NEXT.RESULT.join", false},
		{"agent", agent, true, "$KV.tools.x", false},
		{"agent", agent, true, "$JS.API.STREAM.PURGE.PIPE", false},
		{"agent", agent, false, "_INBOX.alice.xyz", true},
		{"agent", agent, false, "_INBOX.bob.xyz", false},
		{"agent", agent, false, "result.alice", false},
		{"agent", agent, false, "$KV.sessions.alice2", true},
		{"agent", agent, false, "$KV.sessions.bob", false},
		{"agent", agent, false, "$KV.sessions.>", false},
		{"discover", discover, true, "$JS.API.CONSUMER.MSG.NEXT.PIPE.discover", true},
		{"discover", discover, true, "$JS.ACK.PIPE.discover.1.2.3.4.5", true},
		{"discover", discover, true, "$JS.ACK.PIPE.execute.1.2.3.4.5", false},
		{"discover", discover, true, "$JS.API.CONSUMER.MSG.NEXT.PIPE.execute", false},
		{"discover", discover, true, "$KV.tools.x", false},
		{"discover", discover, true, "$KV.vectors.x", true},
		{"discover", discover, true, "$JS.API.STREAM.DELETE.PIPE", false},
		{"execute", execute, true, "calc.user.bob", false},
		{"tools", roles.Tools(), true, "calc.user.bob", true},
		{"tools", roles.Tools(), true, "$JS.API.STREAM.PURGE.PIPE", false},
		{"tools", roles.Tools(), true, "$KV.tools.x", false},
		{"tools", roles.Tools(), true, "agent.output.alice", false},
		{"tools", roles.Tools(), true, "toolyard.find_tools.alice", false},
		// the REPLAY stream's subjects (cmd/toolyard/replay_shards.go)
		{"tools", roles.Tools(), true, replay.ShardPrefix + "job1", false},
		{"tools", roles.Tools(), true, replay.PartPrefix + "job1", false},
		{"tools", roles.Tools(), false, "_INBOX.alice.x", false},
		{"tools", roles.Tools(), false, "_TOOLS_INBOX.x", true},
		{"execute", execute, true, "$JS.ACK.PIPE.execute.1.2.3.4.5", true},
		{"execute", execute, true, "$JS.ACK.PIPE.discover.1.2.3.4.5", false},
		{"execute", execute, true, "$JS.API.CONSUMER.MSG.NEXT.AGENT.parse", false},
		{"execute", execute, true, "$KV.tools.x", false},
		{"execute", execute, true, "$KV.models.current", false},
		{"execute", execute, true, "$JS.API.STREAM.PURGE.AUDIT", false},
		{"execute", execute, true, "$JS.API.STREAM.PURGE.OBJ_outputs", true},
		{"execute", execute, true, "$JS.API.STREAM.PURGE.OBJ_models", false},
		{"discover", discover, true, "$JS.API.STREAM.PURGE.OBJ_outputs", false},
		{"execute", execute, true, "agent.output.alice", false},
		{"all", all, true, "$JS.ACK.AGENT.parse.1.2.3.4.5", true},
		{"all", all, true, "$JS.ACK.PIPE.join.1.2.3.4.5", true},
		{"all", all, true, "$JS.ACK.RESULT.join.1.2.3.4.5", false},
		{"all", all, true, "$O.models.x", false},
	}
	for _, tt := range tests {
		perm := tt.p.Sub
		if tt.pub {
			perm = tt.p.Pub
		}
		if got := allowed(perm, tt.subject); got != tt.want {
			t.Errorf("%s %s %s: allowed %v, want %v", tt.role, map[bool]string{true: "publish", false: "subscribe"}[tt.pub], tt.subject, got, tt.want)
		}
	}
	if _, err := roles.Worker("nosuch"); err == nil || !strings.Contains(err.Error(), "no stage") {
		t.Errorf("unknown stage: %v", err)
	}
	if _, err := roles.Agent(); err == nil {
		t.Error("an agent credential without a session")
	}
	if _, err := roles.Agent("a.b"); err == nil {
		t.Error("an agent credential for a session that is not one token")
	}
	if !slices.Equal(roles.AllStages(), func() []string { s := roles.AllStages(); slices.Sort(s); return s }()) {
		t.Error("AllStages is not sorted")
	}
}

// An agent's credential belongs to the AGENTS account, which has only
// what pipeline.AgentShares imports: every subject the role allows must
// arrive through a share (or it would do nothing), and the shares name
// the workers' own subjects.
func TestAgentShares(t *testing.T) {
	agent, err := roles.Agent("alice")
	if err != nil {
		t.Fatal(err)
	}
	local := func(s auth.Share) string {
		if s.Local != "" {
			return s.Local
		}
		return s.Subject
	}
	concrete := strings.NewReplacer("*", "x", ">", "x.y")
	for _, perm := range []struct {
		subjects jwt.StringList
		feed     bool
	}{{agent.Pub.Allow, false}, {agent.Sub.Allow, true}} {
		for _, subject := range perm.subjects {
			if strings.HasPrefix(subject, roles.AgentInbox("alice")) {
				continue // replies, in AGENTS itself
			}
			found := false
			for _, s := range pipeline.AgentShares {
				if s.Feed == perm.feed && subjectMatches(local(s), concrete.Replace(subject)) {
					found = true
				}
			}
			if !found {
				t.Errorf("the agent role allows %s (feed %v), which no share brings into the agents' account", subject, perm.feed)
			}
		}
	}
	var names []string
	for _, s := range pipeline.AgentShares {
		names = append(names, s.Subject)
	}
	for _, want := range []string{service.Name + ".>", "$KV." + session.Bucket + ".*"} {
		if !slices.Contains(names, want) {
			t.Errorf("no share of %s: %v", want, names)
		}
	}
}

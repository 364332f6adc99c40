package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/stages"
)

// pipeKinds is the contract of the work each stage consumes from PIPE
// (pipe.<stage>.<session>, pipe.answer.<tier>.<session>), as each stage's
// binding decodes it (workers/*/binding.go: bind.Input / DecodeInternal).
// Parse is not here: it consumes agent.output.<session> from AGENT.
var pipeKinds = map[string]schemas.Kind{
	bind.StageDiscover: schemas.KindIntent,     // discover/binding.go: Input[Intent]
	bind.StageRoute:    schemas.KindCandidates, // route/binding.go: Input[Candidates]
	bind.StageChoose:   schemas.KindRouted,     // route/binding.go, ChooseStage: Input[Routed]
	bind.StageAnswer:   schemas.KindRouted,     // route/binding.go, AnswerStage: Input[Routed]
	bind.StageResolve:  schemas.KindRouted,     // resolve/binding.go: Input[Routed]
	bind.StageExecute:  schemas.KindToolCall,   // execute/binding.go: the resolved ToolCall
	bind.StageJoin:     schemas.KindResult,     // join/binding.go: DecodeInternal[Result]
}

// contractOf is the contract a stored message must meet, by its subject;
// skip says why a subject has none to check, and ok is false for a
// subject no contract is known for (a new subject must be added here).
func contractOf(subject string) (kind schemas.Kind, skip string, ok bool) {
	switch {
	case strings.HasPrefix(subject, schemas.AgentOutputPrefix):
		return schemas.KindAgentOutput, "", true
	case strings.HasPrefix(subject, schemas.AgentStreamPrefix):
		// Token chunks only feed the predict stage: schemas/json has no
		// document for them (schemas.StreamChunk is checked in code).
		return "", "agent.stream chunks have no JSON Schema contract", true
	case strings.HasPrefix(subject, schemas.AgentEndPrefix):
		// The end of a session is a signal whose body is not read.
		return "", "agent.end has no JSON Schema contract", true
	case strings.HasPrefix(subject, schemas.ResultPrefix):
		return schemas.KindResult, "", true
	case strings.HasPrefix(subject, schemas.AuditPrefix):
		return schemas.KindAuditRecord, "", true
	case strings.HasPrefix(subject, bind.PipePrefix):
		stage, _, _ := strings.Cut(strings.TrimPrefix(subject, bind.PipePrefix), ".")
		k, ok := pipeKinds[stage]
		return k, "", ok
	}
	return "", "", false
}

// stored is one message a stream held (or, for PIPE, one hand-off seen on
// its subject).
type stored struct {
	stream, subject string
	// seq is the stream sequence; for PIPE, the order the hand-off was seen.
	seq  uint64
	data []byte
}

// A message the pipeline stores is its public record: agents read
// results, training reads audit records, stages read each other's
// hand-offs. Stages decode what other stages wrote without the schema pass
// (schemas.DecodeInternal), so nothing in production checks that what
// they write still meets schemas/json: this test does, for every message
// of one run that goes down every decision path the pipeline has — an
// intent activated and run, a direct call, a nested intent (its inner
// result handed to join), each lower tier, a near miss, a stated value no
// argument took, invalid arguments, a failing tool, malformed outputs.
func TestEveryStoredMessageMeetsItsContract(t *testing.T) {
	// Hybrid discovery with the build's word vectors, as 'toolyard up'
	// runs it: only hybrid search marks a near miss (keyword-only never
	// sets a candidate's mismatch), and the tiers below are the ones its
	// confidences give.
	local, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	env := startEnv(t)
	tools, err := registry.LoadFile(contractRegistry(t))
	if err != nil {
		t.Fatal(err)
	}

	// PIPE is a work queue: a hand-off is removed once its stage acks it,
	// and a consumer over all of pipe.> would overlap the stages' own
	// (which a work queue refuses). So the hand-offs are read as they are
	// published, on a plain subscription opened before anything runs.
	pipe := &pipeTap{}
	sub, err := env.NC.Subscribe(pipeline.PipeSubjects, pipe.add)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		t.Fatal(err)
	}
	if err := env.NC.Flush(); err != nil {
		t.Fatal(err)
	}

	cfg := stages.Config{Tools: tools, Discover: []discover.Option{
		discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(local), discover.WithVectorCache(embed.NewMemoryCache())}}
	runStagesWith(t, env, cfg, bind.Stages)

	// One output per path, each in a session of its own, so each session's
	// results say what happened on that path. Tiers are decided by
	// confidence; the wording of each was chosen to sit well inside its
	// band with this registry (multiple ≈ 0.63, weak ≈ 0.40, not found
	// ≈ 0.01, thresholds 0.85 / 0.50 / 0.30).
	paths := []struct {
		name, session, text string
		intents             int
		status, code        string // of every non-receipt result of the session
		// orStatus are other statuses that pass too: only where the path
		// is what is checked, not the tier.
		orStatus []string
	}{
		{"activated, executed", "ct-exec", "[TOOL: test/record label=contract-ok]", 1, schemas.StatusExecuted, "", nil},
		{"direct call", "ct-direct", `Directly: <tool_call name="test/record">{"label": "contract-direct"}</tool_call>`, 1, schemas.StatusExecuted, "", nil},
		// The inner intent's result goes to join on pipe.join.<session>.
		{"nested", "ct-nested", "[TOOL: test/record label=contract-outer once [TOOL: test/record label=contract-inner] is done]", 2, schemas.StatusExecuted, "", nil},
		{"multiple matches", "ct-multiple", "[TOOL: what time is it in Atlantis]", 1, schemas.StatusMultiple, "", nil},
		{"weak matches", "ct-weak", "[TOOL: something about the test]", 1, schemas.StatusWeak, "", nil},
		{"not found", "ct-notfound", "[TOOL: recalibrate the flux of a quasar]", 1, schemas.StatusNotFound, "", nil},
		// Only a tool that creates notes: a near miss, never run (its
		// candidates carry the mismatch, checked below), whichever tier
		// its lowered confidence falls in (today not_found).
		{"near miss", "ct-nearmiss", "[TOOL: delete the note I wrote]", 1, schemas.StatusNotFound, "", []string{schemas.StatusWeak, schemas.StatusMultiple}},
		{"missing arguments", "ct-missing", "[TOOL: system/current_time what time is it in Atlantis]", 1, schemas.StatusMissingArguments, "", nil},
		{"invalid arguments", "ct-invalid", `<tool_call name="test/record">{"pause": 0}</tool_call>`, 1, schemas.StatusError, bind.CodeInvalidArgs, nil},
		{"tool fails", "ct-fails", "[TOOL: ping the test backend]", 1, schemas.StatusError, bind.CodeToolFailed, nil},
	}
	// Malformed outputs are stored in AGENT as they came, answered with an
	// error and dead-lettered by parse: they must fail their contract.
	malformed := []struct{ name, session, payload string }{
		{"not JSON", "ct-badjson", `{"session_id": "ct-badjson", "text": `},
		{"no session id", "ct-nosession", `{"message_id": "m1", "text": "[TOOL: test/record label=never]"}`},
	}

	for _, p := range paths {
		publishOutput(t, env.JS, schemas.AgentOutput{SessionID: p.session, Text: p.text})
	}
	for _, m := range malformed {
		if _, err := env.JS.Publish(t.Context(), schemas.AgentOutputSubject(m.session), []byte(m.payload)); err != nil {
			t.Fatal(err)
		}
	}

	var all []schemas.Result
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			rs := results(t, env.JS, p.session, 10*time.Second, countAnswered(p.intents))
			all = append(all, rs...)
			got := byIntent(rs)
			if len(got) != p.intents {
				t.Fatalf("results for %d intents, want %d: %+v", len(got), p.intents, rs)
			}
			for id, r := range got {
				code := ""
				if r[0].Error != nil {
					code = r[0].Error.Code
				}
				if len(r) != 1 || (r[0].Status != p.status && !slices.Contains(p.orStatus, r[0].Status)) || code != p.code {
					t.Errorf("intent %s: %d results, first %s %q (%s), want one %s %q", id, len(r), r[0].Status, code, r[0].Message, p.status, p.code)
				}
			}
		})
	}
	for _, m := range malformed {
		t.Run(m.name, func(t *testing.T) {
			rs := results(t, env.JS, m.session, 10*time.Second, func(rs []schemas.Result) bool { return len(rs) > 0 })
			all = append(all, rs...)
			if len(rs) != 1 || rs[0].Status != schemas.StatusError || rs[0].Error == nil {
				t.Errorf("results %+v, want one error", rs)
			}
		})
	}
	if dl := dlq(t, env, bind.StageParse, len(malformed)); len(dl) != len(malformed) {
		t.Errorf("%d dead letters at parse, want %d", len(dl), len(malformed))
	}

	// Answered is not finished: audit records and hand-offs of the last
	// decisions may still be on their way.
	settle(t, env, pipe)

	// AGENT, RESULT and AUDIT keep what they were given: read by sequence.
	// PIPE is empty once settled (settle checks): its hand-offs are the
	// ones the subscription saw. (The manifest contract is not among these:
	// a run stores no manifest, the registry is given to the stages.)
	var msgs []stored
	for _, s := range []string{pipeline.StreamAgent, pipeline.StreamResult, pipeline.StreamAudit} {
		msgs = append(msgs, streamMessages(t, env.JS, s)...)
	}
	msgs = append(msgs, pipe.messages()...)
	if n, err := sub.Dropped(); err != nil || n != 0 {
		t.Errorf("the PIPE subscription dropped %d hand-offs (%v)", n, err)
	}

	// Validate every message, and check it is about the session (and
	// stage) its subject names; list every violation, not the first.
	expectInvalid := map[string]bool{}
	for _, m := range malformed {
		expectInvalid[schemas.AgentOutputSubject(m.session)] = true
	}
	var violations []string
	perStream := map[string]int{}
	perKind := map[schemas.Kind]int{}
	skipped := map[string]int{}
	for _, m := range msgs {
		perStream[m.stream]++
		kind, skip, ok := contractOf(m.subject)
		switch {
		case !ok:
			violations = append(violations, fmt.Sprintf("%s #%d %s: no contract known for this subject (add it to contractOf)", m.stream, m.seq, m.subject))
			continue
		case skip != "":
			skipped[skip]++
			continue
		}
		perKind[kind]++
		err := schemas.Validate(kind, m.data)
		if expectInvalid[m.subject] {
			if err == nil {
				violations = append(violations, fmt.Sprintf("%s #%d %s: a malformed output meets %s", m.stream, m.seq, m.subject, kind))
			}
			continue
		}
		if p := subjectMismatch(m.subject, m.data); p != "" {
			violations = append(violations, fmt.Sprintf("%s #%d %s (%s): %s", m.stream, m.seq, m.subject, kind, p))
		}
		var ve *schemas.ValidationError
		switch {
		case errors.As(err, &ve):
			violations = append(violations, fmt.Sprintf("%s #%d %s (%s): %s\n\t%s", m.stream, m.seq, m.subject, kind, strings.Join(ve.Problems, "; "), clipBytes(m.data, 600)))
		case err != nil:
			violations = append(violations, fmt.Sprintf("%s #%d %s (%s): %v", m.stream, m.seq, m.subject, kind, err))
		}
	}
	t.Logf("checked %d messages: by stream %v, by contract %v, skipped %v", len(msgs), perStream, perKind, skipped)
	if len(violations) > 0 {
		t.Errorf("%d stored messages do not meet their contract:\n%s", len(violations), strings.Join(violations, "\n"))
	}

	// Not vacuous: every stream held what this run must have written, and
	// every contract a stage writes was checked. AGENT holds exactly the
	// outputs published; every valid output has a receipt and every
	// intent a result (each malformed output its error); each discovered
	// intent (all but the direct calls) has an audit record of parse,
	// discover and route, and hand-offs to discover, route and the stage
	// of its tier; each direct call a hand-off to execute.
	intents, direct := 0, 0
	for _, p := range paths {
		intents += p.intents
		direct += strings.Count(p.text, "<tool_call ")
	}
	discovered := intents - direct
	minimum := map[string]int{
		pipeline.StreamAgent:  len(paths) + len(malformed),
		pipeline.StreamResult: len(paths) + intents + len(malformed),
		pipeline.StreamAudit:  3 * discovered,
		pipeline.StreamPipe:   3*discovered + direct,
	}
	for s, n := range minimum {
		if perStream[s] < n {
			t.Errorf("%s: %d messages, want at least %d", s, perStream[s], n)
		}
	}
	if perStream[pipeline.StreamAgent] != len(paths)+len(malformed) {
		t.Errorf("AGENT holds %d messages, want the %d published", perStream[pipeline.StreamAgent], len(paths)+len(malformed))
	}
	for _, k := range []schemas.Kind{schemas.KindAgentOutput, schemas.KindIntent, schemas.KindCandidates, schemas.KindRouted, schemas.KindToolCall, schemas.KindResult, schemas.KindAuditRecord} {
		if perKind[k] == 0 {
			t.Errorf("no %s message was checked", k)
		}
	}
	// Every stage that reads PIPE has its contract here.
	for _, s := range bind.Stages {
		if _, ok := pipeKinds[s]; !ok && s != bind.StageParse {
			t.Errorf("stage %s reads PIPE but has no contract in pipeKinds", s)
		}
	}

	// Every decision path was taken: the results' statuses and error
	// codes, routing's tiers (its audit decisions), and the near miss.
	statuses, codes := map[string]bool{}, map[string]bool{}
	for _, r := range all {
		statuses[r.Status] = true
		if r.Error != nil {
			codes[r.Error.Code] = true
		}
	}
	for _, s := range []string{schemas.StatusAccepted, schemas.StatusExecuted, schemas.StatusMultiple, schemas.StatusWeak,
		schemas.StatusNotFound, schemas.StatusMissingArguments, schemas.StatusError} {
		if !statuses[s] {
			t.Errorf("no result with status %s", s)
		}
	}
	for _, c := range []string{bind.CodeInvalidArgs, bind.CodeToolFailed} {
		if !codes[c] {
			t.Errorf("no error result with code %s", c)
		}
	}
	tiers, nearMiss := map[string]bool{}, false
	for _, m := range msgs {
		switch {
		case strings.HasPrefix(m.subject, schemas.AuditSubject(bind.StageRoute, "")):
			var a schemas.AuditRecord
			if json.Unmarshal(m.data, &a) == nil {
				tiers[a.Decision] = true
			}
		case m.subject == bind.PipeSubject(bind.StageRoute, "ct-nearmiss"):
			var c schemas.Candidates
			if json.Unmarshal(m.data, &c) == nil {
				for _, cand := range c.Candidates {
					if cand.Mismatch != nil && slices.Contains(cand.Mismatch.Asked, "delete") && slices.Contains(cand.Mismatch.Names, "create") {
						nearMiss = true
					}
				}
			}
		}
	}
	for _, tier := range []string{schemas.TierActivated, schemas.TierMultiple, schemas.TierWeak, schemas.TierNotFound} {
		if !tiers[tier] {
			t.Errorf("routing never decided %s (decided %v)", tier, tiers)
		}
	}
	if !nearMiss {
		t.Error("no candidate of the near miss carries a mismatch {asked: [delete], names: [create]}")
	}
}

// subjectMismatch says how a message is not about what its subject names
// (docs/contract.md: every subject ends with the session it acts for; an
// audit record sits on audit.<its stage>.<its session>), "" when it is.
// The session is the message's session_id, or its intent's (candidates,
// routed).
func subjectMismatch(subject string, data []byte) string {
	var v map[string]any
	if json.Unmarshal(data, &v) != nil {
		return "" // not an object: the schema says so
	}
	session, _ := v["session_id"].(string)
	if in, ok := v["intent"].(map[string]any); ok && session == "" {
		session, _ = in["session_id"].(string)
	}
	want := bind.SessionOf(subject)
	if rest, ok := strings.CutPrefix(subject, schemas.AuditPrefix); ok {
		var stage string
		stage, want, _ = strings.Cut(rest, ".")
		if got, _ := v["stage"].(string); got != stage {
			return fmt.Sprintf("an audit record of stage %q on stage %q's subject", got, stage)
		}
	}
	if session != want {
		return fmt.Sprintf("session %q on the subject of session %q", session, want)
	}
	return ""
}

// contractRegistry is testRegistry's record tool, a tool that always fails
// (test/fail), one that only creates notes (test/create_note: the near
// miss of a request to delete one), and the sample clock tool, whose time
// zone parameter takes a stated place (the missing-arguments path).
func contractRegistry(t *testing.T) string {
	t.Helper()
	path, _ := testRegistry(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fail := filepath.Join(dir, "fail.sh")
	if err := os.WriteFile(fail, []byte("#!/bin/sh\necho \"cannot reach the test backend\" >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	extra := []map[string]any{
		{
			"id": "test/fail", "name": "fail", "description": "Ping the test backend, which is always down: the call fails.",
			"keywords":   []string{"ping", "backend"},
			"parameters": map[string]any{"type": "object", "properties": map[string]any{}},
			"executor":   map[string]any{"kind": "subprocess", "argv": []string{fail}, "timeout": "5s"},
		},
		{
			"id": "test/create_note", "name": "create note", "description": "Create a note with a title and a body in the notebook.",
			"keywords": []string{"note", "notebook", "memo"},
			"parameters": map[string]any{"type": "object", "required": []string{"title"}, "properties": map[string]any{
				"title": map[string]any{"type": "string", "description": "title of the note"},
				"body":  map[string]any{"type": "string", "description": "text of the note", "default": ""},
			}},
			"executor": map[string]any{"kind": "subprocess", "argv": []string{"/bin/echo", "created", "{title}"}, "timeout": "5s"},
		},
	}
	sample, err := registry.LoadFile("../ops/sample/tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sample {
		if m.ID == "system/current_time" {
			line, _ := json.Marshal(m)
			data = append(data, append(line, '\n')...)
		}
	}
	for _, m := range extra {
		line, _ := json.Marshal(m)
		data = append(data, append(line, '\n')...)
	}
	out := filepath.Join(dir, "tools.jsonl")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// pipeTap keeps every hand-off published on pipe.>.
type pipeTap struct {
	mu   sync.Mutex
	msgs []stored
}

func (p *pipeTap) add(m *nats.Msg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, stored{stream: pipeline.StreamPipe, subject: m.Subject, seq: uint64(len(p.msgs) + 1), data: m.Data})
}

func (p *pipeTap) messages() []stored {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.msgs)
}

// settle waits until AGENT, RESULT and AUDIT stop growing, PIPE is empty
// (every hand-off consumed) and no hand-off was published for a while.
func settle(t *testing.T, env *pipelinetest.Env, pipe *pipeTap) {
	t.Helper()
	const quiet = 500 * time.Millisecond
	state := func() string {
		var b strings.Builder
		for _, s := range []string{pipeline.StreamAgent, pipeline.StreamResult, pipeline.StreamAudit, pipeline.StreamPipe} {
			st, err := env.JS.Stream(t.Context(), s)
			if err != nil {
				t.Fatal(err)
			}
			info, err := st.Info(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s:%d/%d ", s, info.State.LastSeq, info.State.Msgs)
			if s == pipeline.StreamPipe && info.State.Msgs > 0 {
				b.WriteString("pending ")
			}
		}
		fmt.Fprintf(&b, "tap:%d", len(pipe.messages()))
		return b.String()
	}
	last, since := state(), time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Since(since) < quiet || strings.Contains(last, "pending"); {
		if time.Now().After(deadline) {
			// Checked all the same: what is stored is what is wrong.
			t.Errorf("the pipeline did not settle within 10s: %s", last)
			return
		}
		time.Sleep(50 * time.Millisecond)
		if s := state(); s != last {
			last, since = s, time.Now()
		}
	}
}

// streamMessages reads every message a stream holds, by sequence.
func streamMessages(t *testing.T, js jetstream.JetStream, name string) []stored {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []stored
	if info.State.Msgs == 0 {
		return out
	}
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue // deleted (a work queue's acked hand-off)
		}
		if err != nil {
			t.Fatalf("%s #%d: %v", name, seq, err)
		}
		out = append(out, stored{stream: name, subject: m.Subject, seq: m.Sequence, data: m.Data})
	}
	return out
}

// clipBytes is data as text, cut to at most n bytes.
func clipBytes(data []byte, n int) string {
	if len(data) <= n {
		return string(data)
	}
	return string(data[:n]) + "…"
}

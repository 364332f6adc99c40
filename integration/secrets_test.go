package integration

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/effects"
)

// The secrets of the path test: one an agent passes as a writeOnly
// argument, one the worker's environment gives the tool.
const (
	itArgSecret = "argS3cret-7f1c9e2a"
	itEnvSecret = "envS3cret-b84d01f6"
)

// secretRegistry writes a registry with one tool, test/secret, that prints
// its writeOnly token and its environment secret in every way it can fail.
func secretRegistry(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "secret.sh")
	body := `#!/bin/sh
echo "mode=$1 token=$2 env=$TY_IT_SECRET"
case "$1" in
fail) echo "failed with token=$2 env=$TY_IT_SECRET" >&2; exit 3 ;;
sleep) exec sleep 30 ;;
tempfail) echo "down for now, token=$2 env=$TY_IT_SECRET" >&2; exit 75 ;;
big) head -c 70000 /dev/zero | tr '\0' x; echo " token=$2 env=$TY_IT_SECRET" ;;
esac
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tool := map[string]any{
		"id": "test/secret", "name": "secret", "description": "Log in to the test service with a token",
		"parameters": map[string]any{"type": "object", "required": []string{"mode", "token"}, "properties": map[string]any{
			"mode":  map[string]any{"type": "string", "enum": []string{"ok", "fail", "sleep", "tempfail", "big"}},
			"token": map[string]any{"type": "string", "writeOnly": true, "pattern": "^[A-Za-z0-9-]+$", "description": "API token"},
		}},
		"executor": map[string]any{"kind": "subprocess", "argv": []string{script, "{mode}", "{token}"}, "env": []string{"TY_IT_SECRET"}, "timeout": "2s"},
	}
	path := filepath.Join(dir, "tools.jsonl")
	data, _ := json.Marshal(tool)
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A tool given a secret argument and an environment secret runs through
// every path — success, a large output, a tool error, a validation error,
// a timeout, a dead letter after its deliveries ran out, and the replay of
// that dead letter, in direct calls, and success and tool error in plain
// words (token=…) — and then no stream, bucket, object or log holds
// either secret, except the agent outputs the test itself published.
func TestSecretsStayInTheExecutor(t *testing.T) {
	t.Setenv("TY_IT_SECRET", itEnvSecret)
	up, url := startUp(t, "",
		"--registry", secretRegistry(t), "--max-deliver", "2", "--retry-budget", "0", "--log-level", "debug")
	js := connectJS(t, url)
	var cli strings.Builder // everything the commands printed: scanned too
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(binary, append(args, "--nats", url)...).CombinedOutput()
		cli.Write(out)
		if err != nil {
			t.Fatalf("toolyard %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	const session = "sec"
	paths := []struct {
		mode, token          string
		wantStatus, wantCode string
		plain                bool // written in plain words, not as a direct call
	}{
		{"ok", itArgSecret, schemas.StatusExecuted, "", false},
		{"big", itArgSecret, schemas.StatusExecuted, "", false},
		{"fail", itArgSecret, schemas.StatusError, bind.CodeToolFailed, false},
		{"ok", itArgSecret + "!", schemas.StatusError, bind.CodeInvalidArgs, false}, // the pattern refuses it
		{"sleep", itArgSecret, schemas.StatusError, bind.CodeToolFailed, false},     // timed out
		{"tempfail", itArgSecret, schemas.StatusError, bind.CodeGaveUp, false},      // dead-lettered
		{"ok", itArgSecret, schemas.StatusExecuted, "", true},
		{"fail", itArgSecret, schemas.StatusError, bind.CodeToolFailed, true},
	}
	var published []string
	for i, p := range paths {
		text := fmt.Sprintf(`Logging in. <tool_call name="test/secret">{"mode": %q, "token": %q}</tool_call>`, p.mode, p.token)
		if p.plain {
			text = fmt.Sprintf("Logging in. [TOOL: log in to the test service with mode=%s token=%s]", p.mode, p.token)
		}
		publishOutput(t, js, schemas.AgentOutput{V: schemas.Version, SessionID: session, MessageID: fmt.Sprintf("path-%d", i), Text: text})
		published = append(published, text)
	}
	got := byIntent(results(t, js, session, 60*time.Second, countAnswered(len(paths))))
	var deadIntent string
	for i, p := range paths {
		id := fmt.Sprintf("path-%d.call0", i)
		rs := got[id]
		if len(rs) == 0 {
			for k := range got {
				if strings.HasPrefix(k, fmt.Sprintf("path-%d.", i)) {
					id, rs = k, got[k]
				}
			}
		}
		if len(rs) != 1 {
			t.Fatalf("path %d (%s): %d results: %+v", i, p.mode, len(rs), got)
		}
		r := rs[0]
		code := ""
		if r.Error != nil {
			code = r.Error.Code
		}
		if r.Status != p.wantStatus || code != p.wantCode {
			t.Errorf("path %d (%s): status %s code %q (%s), want %s %q", i, p.mode, r.Status, code, r.Message, p.wantStatus, p.wantCode)
		}
		if p.mode == "big" && (r.Output == nil || r.Output.Ref == nil) {
			t.Errorf("the large output was not kept in the object store: %+v", r.Output)
		}
		if p.mode == "tempfail" {
			deadIntent = id
		}
	}

	// The dead letter is replayed; its secret was removed, so the executor
	// refuses it rather than run the tool with the mark.
	var entry struct {
		ID    uint64 `json:"id"`
		Stage string `json:"stage"`
	}
	for _, l := range strings.Split(run("dlq", "list", "--json"), "\n") {
		var e struct {
			ID    uint64 `json:"id"`
			Stage string `json:"stage"`
		}
		if json.Unmarshal([]byte(l), &e) == nil && e.Stage == bind.StageExecute {
			entry = e
		}
	}
	if entry.ID == 0 {
		t.Fatalf("no dead letter of the execute stage")
	}
	run("dlq", "show", fmt.Sprint(entry.ID))
	if out := run("dlq", "replay", fmt.Sprint(entry.ID)); !strings.Contains(out, "1 replayed") {
		t.Fatalf("dlq replay: %s", out)
	}
	kv, err := js.KeyValue(context.Background(), effects.ExecutionsBucket)
	if err != nil {
		t.Fatal(err)
	}
	key := session + "." + base64.RawURLEncoding.EncodeToString([]byte(deadIntent))
	var record string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if e, err := kv.Get(context.Background(), key); err == nil && strings.Contains(string(e.Value()), `"state":"done"`) {
			record = string(e.Value())
			break
		}
	}
	if !strings.Contains(record, "send the call again with the secret values") {
		t.Errorf("the replayed call was not refused for its redacted secret; execution record: %s", record)
	}
	pipelinetest.WaitEmpty(t, js, pipeline.StreamPipe, 20*time.Second)

	counts := scanForSecrets(t, js, []string{itArgSecret, itEnvSecret}, published)
	counts["log of toolyard up"] = count(up.Output.String(), itArgSecret, itEnvSecret)
	counts["output of the dlq commands"] = count(cli.String(), itArgSecret, itEnvSecret)
	total := 0
	var where []string
	for k, n := range counts {
		total += n
		if n > 0 {
			where = append(where, fmt.Sprintf("%s: %d", k, n))
		}
	}
	sort.Strings(where)
	t.Logf("secret occurrences outside the agent's own outputs: %d %v", total, where)
	if total != 0 {
		t.Errorf("secrets left the executor: %d occurrences: %s", total, strings.Join(where, "; "))
	}
}

// scanForSecrets reads every message of every stream (AGENT, PIPE,
// RESULT, AUDIT, DLQ, and the streams behind the KV buckets and object
// stores) and every stored object, and counts the secrets in each place.
// The agent outputs the test published are skipped: they are the agent's
// own words, the secret's source.
func scanForSecrets(t *testing.T, js jetstream.JetStream, secrets, published []string) map[string]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	counts := map[string]int{}
	own := 0
	names := js.StreamNames(ctx)
	var streams []string
	for n := range names.Name() {
		streams = append(streams, n)
	}
	if err := names.Err(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{pipeline.StreamAgent, pipeline.StreamPipe, pipeline.StreamResult, pipeline.StreamAudit, pipeline.StreamDLQ, "KV_" + effects.ExecutionsBucket, "OBJ_" + effects.OutputsBucket} {
		if !slices.Contains(streams, want) {
			t.Errorf("stream %s not found among %v", want, streams)
		}
	}
	read := 0
	for _, name := range streams {
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for seq := info.State.FirstSeq; seq > 0 && seq <= info.State.LastSeq; seq++ {
			m, err := s.GetMsg(ctx, seq)
			if err != nil {
				continue // deleted (acked work, replayed dead letters)
			}
			read++
			text := m.Subject + "\n" + string(m.Data)
			for k, vs := range m.Header {
				text += "\n" + k + ": " + strings.Join(vs, ", ")
			}
			n := count(text, secrets...)
			if n > 0 && name == pipeline.StreamAgent && isPublished(m.Data, published) {
				own += n
				continue
			}
			counts["stream "+name] += n
		}
	}
	objects := 0
	for store := range js.ObjectStoreNames(ctx).Name() {
		obs, err := js.ObjectStore(ctx, store)
		if err != nil {
			t.Fatal(err)
		}
		list, err := obs.List(ctx)
		if err != nil {
			continue // an empty store
		}
		for _, o := range list {
			data, err := obs.GetBytes(ctx, o.Name)
			if err != nil {
				t.Fatal(err)
			}
			objects++
			counts["object store "+store] += count(string(data), secrets...)
		}
	}
	if objects == 0 {
		t.Error("no stored object scanned: the large output should be one")
	}
	t.Logf("scanned %d stream messages in %d streams and %d objects; the agent's own outputs hold the argument secret %d times", read, len(streams), objects, own)
	return counts
}

func isPublished(data []byte, published []string) bool {
	var out schemas.AgentOutput
	if json.Unmarshal(data, &out) != nil {
		return false
	}
	return slices.Contains(published, out.Text)
}

func count(text string, secrets ...string) int {
	n := 0
	for _, s := range secrets {
		n += strings.Count(text, s)
	}
	return n
}

package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/workers/effects"
)

// An execute worker on an operator's server, connected with the worker
// credential, keeps --keep-outputs large outputs per tool and deletes the
// older ones, without a permission it lacks: deleting an object purges its
// chunks. (A refused purge held each call past the kept number until its
// context ran out and left the deleted outputs' chunks stored until the
// bucket's TTL.)
func TestLargeOutputsPrunedWithWorkerCredential(t *testing.T) {
	url, keys := startSecuredNode(t)
	admin, worker := filepath.Join(keys, "creds", "admin.creds"), filepath.Join(keys, "creds", "worker.creds")

	m := map[string]any{"id": "test/numbers", "name": "numbers", "description": "Print the numbers from 1 to n, one a line.",
		"parameters": map[string]any{"type": "object", "required": []string{"n"}, "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 1}}},
		"executor":   map[string]any{"kind": "subprocess", "argv": []string{"seq", "1", "{n}"}}}
	data, _ := json.Marshal(m)
	reg := filepath.Join(t.TempDir(), "tools.jsonl")
	if err := os.WriteFile(reg, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	toolyard(t, "tools", "import", "--nats", url, "--creds", admin, reg)
	w := startProcess(t, "worker", "--nats", url, "--creds", worker, "--http", "", "--keep-outputs", "1",
		"--stage", "parse,discover,route,choose,answer,resolve,execute,join")
	w.WaitOutput(t, "worker started", 60*time.Second)

	const calls = 3
	for i := range calls {
		out := toolyard(t, "publish", "--nats", url, "--creds", admin, "--session", "keep", "--wait", "--timeout", "30s",
			fmt.Sprintf(`<tool_call name="test/numbers">{"n": %d}</tool_call>`, 20000+i))
		if !strings.Contains(out, `"status":"executed"`) || !strings.Contains(out, `"ref"`) {
			t.Fatalf("call %d: want an executed result with an output reference:\n%s", i, out)
		}
	}

	js := connectJS(t, url, nats.UserCredentials(admin))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	obj, err := js.ObjectStore(ctx, effects.OutputsBucket)
	if err != nil {
		t.Fatal(err)
	}
	infos, err := obj.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 {
		t.Errorf("%d outputs stored with --keep-outputs 1 after %d calls", len(infos), calls)
	}
	// The chunks of the deleted outputs are gone too, not only their names.
	st, err := js.Stream(ctx, "OBJ_"+effects.OutputsBucket)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter("$O."+effects.OutputsBucket+".C.>"))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.State.Subjects) != 1 {
		t.Errorf("chunks of %d objects stored; --keep-outputs 1 keeps one", len(info.State.Subjects))
	}
	for _, bad := range []string{"Permissions Violation", "old output not deleted"} {
		if strings.Contains(w.Output.String(), bad) {
			t.Errorf("worker log says %q:\n%s", bad, w.Output.String())
		}
	}
}

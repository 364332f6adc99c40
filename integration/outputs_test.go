package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/execute"
)

// An output over 64 KiB travels as a reference and a preview; the CLI
// fetches the whole of it from the outputs object store.
func TestLargeOutputThroughObjectStore(t *testing.T) {
	env := startEnv(t)
	m := map[string]any{"id": "test/numbers", "name": "numbers", "description": "Print the numbers from 1 to n, one a line.",
		"parameters": map[string]any{"type": "object", "required": []string{"n"}, "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 1}}},
		"executor":   map[string]any{"kind": "subprocess", "argv": []string{"seq", "1", "{n}"}}}
	data, _ := json.Marshal(m)
	reg := filepath.Join(t.TempDir(), "tools.jsonl")
	if err := os.WriteFile(reg, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	runStagesInProcess(t, env, reg)
	const n = 30000
	var want strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintln(&want, i)
	}
	url := env.Server.ClientURL()
	published, err := exec.Command(binary, "publish", "--nats", url, "--session", "big", "--wait", "--timeout", "30s",
		fmt.Sprintf(`<tool_call name="test/numbers">{"n": %d}</tool_call>`, n)).Output()
	if err != nil {
		t.Fatalf("publish: %v\n%s", err, published)
	}
	var res *schemas.Result
	for _, line := range bytes.Split(bytes.TrimSpace(published), []byte("\n")) {
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, line)
		if err != nil {
			t.Fatalf("not a result: %v\n%s", err, line)
		}
		if r.Status != schemas.StatusAccepted {
			res = &r
		}
	}
	if res == nil || res.Status != schemas.StatusExecuted || res.Output == nil || res.Output.Ref == nil {
		t.Fatalf("want an executed result with an output reference, got:\n%s", published)
	}
	preview, _ := res.Output.Content.(string)
	if len(preview) != execute.PreviewBytes || !strings.HasPrefix(want.String(), preview) {
		t.Errorf("preview of %d bytes, want the first %d of the output", len(preview), execute.PreviewBytes)
	}
	if res.Output.Ref.Size != int64(want.Len()) || res.Output.Truncated {
		t.Errorf("ref %+v truncated %v; want size %d, not truncated", res.Output.Ref, res.Output.Truncated, want.Len())
	}
	for _, args := range [][]string{
		{"outputs", "get", "--nats", url, "-"},
		{"outputs", "get", "--nats", url, res.Output.Ref.Bucket + "/" + res.Output.Ref.Name},
	} {
		cmd := exec.Command(binary, args...)
		cmd.Stdin = bytes.NewReader(published)
		full, err := cmd.Output()
		if err != nil {
			t.Fatalf("toolyard %v: %v", args, err)
		}
		if string(full) != want.String() {
			t.Errorf("toolyard %v printed %d bytes, want the %d of the output", args, len(full), want.Len())
		}
	}
	list, err := exec.Command(binary, "outputs", "list", "--nats", url, "test/numbers").Output()
	if err != nil || strings.TrimSpace(string(list)) != "outputs/"+res.Output.Ref.Name {
		t.Errorf("outputs list: %q %v", list, err)
	}
	out, err := exec.Command(binary, "outputs", "get", "--nats", url, "outputs/test/numbers/big/nope.0").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no longer stored") {
		t.Errorf("fetching an unknown output: %v %s", err, out)
	}
}

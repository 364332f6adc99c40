package integration

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// A streamed output whose intent the predictor saw coming is answered from
// the prefetched search (a recorded hit, checked by a fresh search and not
// wrong) with the same result as the same output published whole; killing
// one of the two predict workers mid-stream loses no result.
func TestStreamedOutputIsAnsweredFromPrefetch(t *testing.T) {
	data := useData(t, t.TempDir())
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	up := startProcess(t, "up", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "127.0.0.1:0")
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	httpBase := regexp.MustCompile(`status:\s+(http://\S+)/`).FindStringSubmatch(up.Output.String())
	if httpBase == nil {
		t.Fatalf("no status address in:\n%s", up.Output.String())
	}
	worker := startProcess(t, "worker", "--stage", "predict", "--nats", url, "--creds", filepath.Join(data, "creds", "worker.creds"), "--http", "")
	worker.WaitOutput(t, "following agent streams", 60*time.Second)

	metric := func(name string) int {
		t.Helper()
		resp, err := http.Get(httpBase[1] + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\d+)`).FindSubmatch(b)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	publish := func(session string, args ...string) schemas.Result {
		t.Helper()
		cmd := exec.Command(binary, append([]string{"publish", "--nats", url, "--session", session, "--wait", "--timeout", "30s"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("publish %v: %v\n%s", args, err, out)
		}
		return lastResult(t, out)
	}
	const text = "Let me check that for you. [TOOL: how long has the system been up?]"
	hits := `toolyard_prefetch_lookups_total{outcome="hit"}`

	whole := publish("whole", text)
	if metric(hits) != 0 {
		t.Fatalf("a hit for an output that was not streamed")
	}
	streamed := publish("streamed", "--stream", "--tokens-per-second", "20", text)
	if metric(hits) != 1 {
		t.Fatalf("hits %d after one streamed intent, want 1; misses %d", metric(hits), metric(`toolyard_prefetch_lookups_total{outcome="miss"}`))
	}
	if streamed.Status != whole.Status || streamed.ToolID != whole.ToolID || whole.Status != schemas.StatusExecuted {
		t.Errorf("streamed: %s %s; published whole: %s %s", streamed.Status, streamed.ToolID, whole.Status, whole.ToolID)
	}
	deadline := time.Now().Add(10 * time.Second)
	for metric("toolyard_prefetch_checked_hits_total") < 1 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if c, w := metric("toolyard_prefetch_checked_hits_total"), metric("toolyard_prefetch_wrong_hits_total"); c != 1 || w != 0 {
		t.Errorf("checked hits %d, wrong hits %d; want 1 and 0", c, w)
	}
	// The status page's panel counts the answers from the audit records.
	resp, err := http.Get(httpBase[1] + "/status.json")
	if err != nil {
		t.Fatal(err)
	}
	var status struct {
		Activity struct {
			Discovery map[string]int `json:"discovery"`
		} `json:"activity"`
	}
	err = json.NewDecoder(resp.Body).Decode(&status)
	resp.Body.Close()
	if err != nil || status.Activity.Discovery["prefetched"] != 1 || status.Activity.Discovery["discovered"] != 1 {
		t.Errorf("status page discovery panel: %v (err %v), want 1 prefetched and 1 discovered", status.Activity.Discovery, err)
	}

	// Kill the second predict worker while an output streams: up's own
	// predictor goes on, and the output completes whatever happens.
	done := make(chan schemas.Result, 1)
	go func() {
		cmd := exec.Command(binary, "publish", "--nats", url, "--session", "killed", "--wait", "--timeout", "30s", "--stream", "--tokens-per-second", "20", text)
		out, _ := cmd.CombinedOutput()
		var last schemas.Result
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			if r, err := schemas.Decode[schemas.Result](schemas.KindResult, sc.Bytes()); err == nil && r.Status != schemas.StatusAccepted {
				last = r
			}
		}
		done <- last
	}()
	time.Sleep(300 * time.Millisecond)
	worker.Kill(syscall.SIGKILL)
	select {
	case r := <-done:
		if r.Status != whole.Status || r.ToolID != whole.ToolID {
			t.Errorf("with a predict worker killed mid-stream: %s %s, want %s %s", r.Status, r.ToolID, whole.Status, whole.ToolID)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("no result after a predict worker was killed mid-stream")
	}
}

package integration

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// TestUpOnASmallDisk runs `toolyard up` with a JetStream store smaller
// than the streams' built-in sizes, as on a disk with a few GB free: it
// starts, says it scaled the streams down, answers an intent, restarts
// without calling its own sizes a difference, and refuses a store too
// small for any stream with the reason.
func TestUpOnASmallDisk(t *testing.T) {
	const store = 2 << 30
	reg, _ := testRegistry(t)
	data := t.TempDir()
	up, url := startUp(t, data, "--max-store", "2GiB", "--registry", reg)
	if out := up.Output.String(); !strings.Contains(out, "scaled down to fit") {
		t.Fatalf("up did not say it scaled the streams down:\n%s", out)
	}
	js := connectJS(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var reserved int64
	for _, cfg := range pipeline.DefaultTopology().Streams() {
		s, err := js.Stream(ctx, cfg.Name)
		if err != nil {
			t.Fatalf("stream %s: %v", cfg.Name, err)
		}
		reserved += s.CachedInfo().Config.MaxBytes
	}
	if reserved > store {
		t.Fatalf("the streams reserve %d bytes in a %d byte store", reserved, store)
	}
	publishOutput(t, js, schemas.AgentOutput{SessionID: "small-disk", MessageID: "m1", Text: "[TOOL: test/record label=small]"})
	rs := results(t, js, "small-disk", 30*time.Second, countAnswered(1))
	if got := byIntent(rs); len(got) != 1 || got["m1.0"][0].Status != schemas.StatusExecuted {
		t.Fatalf("results on the fitted streams: %+v", rs)
	}

	up.Kill(syscall.SIGTERM)
	again, _ := startUp(t, data, "--max-store", "2GiB", "--registry", reg)
	if out := again.Output.String(); strings.Contains(out, "streams differ") {
		t.Fatalf("a restart calls the fitted sizes a difference:\n%s", out)
	}
	again.Kill(syscall.SIGTERM)

	out, err := exec.Command(binary, "up", "--data", t.TempDir(), "--listen", "127.0.0.1:0", "--http", "", "--max-store", "200MiB").CombinedOutput()
	if exitStatus(err) == 0 || !strings.Contains(string(out), "too small for Toolyard's streams") || !strings.Contains(string(out), "--max-store") {
		t.Fatalf("up with a 200 MiB store: exit %d, output:\n%s", exitStatus(err), out)
	}
}

package integration

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A worker started with a credential minted for another stage says so at
// once, naming the stage and how to get the right credential, instead of
// timing out on a refused request; one with the right credential goes on
// to connect.
func TestWorkerRefusesAnotherStagesCredential(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "keys")
	toolyard(t, "creds", "server-config", "--data", keys, "--out", filepath.Join(t.TempDir(), "auth.conf"))
	execute := filepath.Join(t.TempDir(), "execute.creds")
	toolyard(t, "creds", "worker", "--data", keys, "--stage", "execute", "--out", execute)
	down := "nats://127.0.0.1:1"
	for _, tc := range []struct {
		name, stages, creds, want string
	}{
		{"another stage", "discover", execute, "may not take stage discover's work"},
		{"one of several", "execute,join", execute, "may not take stage join's work"},
		{"its own stage", "execute", execute, "connect to NATS at " + down},
		{"every stage", "discover,join", filepath.Join(keys, "creds", "worker.creds"), "connect to NATS at " + down},
		{"no such file", "discover", filepath.Join(keys, "nope.creds"), "do not exist ('toolyard up --data DATA' writes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := exec.Command(binary, "worker", "--stage", tc.stages, "--creds", tc.creds, "--nats", down, "--http", "").CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.want) {
				t.Errorf("worker --stage %s: want an error saying %q, got %v:\n%s", tc.stages, tc.want, err, out)
			}
		})
	}
}

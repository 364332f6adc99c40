package integration

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Runner settings that would silently mean something else are refused
// before anything starts, by up and by worker alike.
func TestStageFlagsRefuseNonsense(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"worker concurrency 0", []string{"worker", "--stage", "discover", "--concurrency", "0"}, "--concurrency 0: want at least 1"},
		{"worker ack-wait 0", []string{"worker", "--stage", "discover", "--ack-wait", "0s"}, "--ack-wait 0s: want a positive duration"},
		{"worker max-deliver 0", []string{"worker", "--stage", "discover", "--max-deliver", "0"}, "--max-deliver 0: want at least 1"},
		{"worker max-deliver -1", []string{"worker", "--stage", "execute", "--max-deliver", "-1"}, "--max-deliver -1: want at least 1"},
		{"up concurrency -2", []string{"up", "--data", data, "--concurrency", "-2"}, "--concurrency -2: want at least 1"},
		{"up max-deliver 0", []string{"up", "--data", data, "--max-deliver", "0"}, "--max-deliver 0: want at least 1"},
		{"worker lease 0", []string{"worker", "--stage", "execute", "--lease", "0s"}, "--lease 0s: want a positive duration"},
		{"worker execution-ttl 0", []string{"worker", "--stage", "execute", "--execution-ttl", "0s"}, "--execution-ttl 0s: want a positive duration"},
		{"up busy-wait -1s", []string{"up", "--data", data, "--busy-wait", "-1s"}, "--busy-wait -1s: want a duration of 0 or more"},
		{"up retry-budget -5s", []string{"up", "--data", data, "--retry-budget", "-5s"}, "--retry-budget -5s: want a duration of 0 or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(tc.args, "--nats", "nats://127.0.0.1:1", "--http", "")
			if tc.args[0] == "up" {
				args = append(args, "--listen", "127.0.0.1:1")
			}
			out, err := exec.Command(binary, args...).CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.want) {
				t.Errorf("want an error saying %q, got %v:\n%s", tc.want, err, out)
			}
		})
	}
}

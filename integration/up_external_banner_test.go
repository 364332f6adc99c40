package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// 'up --external' on an operator's server prints how to mint an agent's
// credential, and the command it prints works: its --data is the keys'
// directory, not the "(external server)" placeholder it used to print.
func TestUpExternalBannerMintsAgents(t *testing.T) {
	url, keys := startSecuredNode(t)
	up := startProcess(t, "up", "--external", "--nats", url, "--creds", filepath.Join(keys, "creds", "admin.creds"), "--http", "")
	up.WaitOutput(t, "Stop with Ctrl-C.", 60*time.Second)

	m := regexp.MustCompile(`an agent, for its own session only: \S+ (creds agent --data (\S+) --session demo --out demo.creds)`).FindStringSubmatch(up.Output.String())
	if m == nil {
		t.Fatalf("no agent line in the banner:\n%s", up.Output.String())
	}
	if m[2] != keys {
		t.Errorf("the banner mints agents with --data %s; the keys are in %s", m[2], keys)
	}
	out := filepath.Join(t.TempDir(), "demo.creds")
	args := append(strings.Fields(strings.Replace(m[1], "demo.creds", out, 1)), "--nats", url)
	toolyard(t, args...)
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the banner's command wrote no credential: %v", err)
	}
}

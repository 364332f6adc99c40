package auth_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
)

// A data directory from before the agents' account: its server's next
// start refuses the credentials TOOLYARD issued before (an agent's then
// was one of them), and those it mints from then on connect.
func TestUpgradeRefusesOlderCredentials(t *testing.T) {
	dir := t.TempDir()
	srv, err := pipeline.StartServer(pipeline.WithDataDir(dir), pipeline.WithListen("127.0.0.1", -1))
	if err != nil {
		t.Fatal(err)
	}
	old, err := srv.Keys().Mint(auth.User{Name: "agent:before"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Shutdown()
	if err := os.Remove(filepath.Join(dir, auth.KeysDir, "agents.nk")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // the revocation counts whole seconds

	srv, err = pipeline.StartServer(pipeline.WithDataDir(dir), pipeline.WithListen("127.0.0.1", -1))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	if nc, err := nats.Connect(srv.ClientURL(), old.Option()); err == nil {
		nc.Close()
		t.Error("a credential issued before the upgrade still connects")
	}
	now, err := srv.Keys().Mint(auth.User{Name: "admin:after"})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(srv.ClientURL(), now.Option())
	if err != nil {
		t.Fatalf("a credential minted after the upgrade: %v", err)
	}
	nc.Close()
	// and the server's own connection, minted at its start
	if nc, err := srv.Connect(); err != nil {
		t.Errorf("the server's own connection: %v", err)
	} else {
		nc.Close()
	}
}

package auth_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"

	"github.com/toolyard/toolyard/pipeline/auth"
)

func TestKeysAreCreatedOncePrivately(t *testing.T) {
	dir := t.TempDir()
	if _, err := auth.LoadKeys(dir); err == nil {
		t.Fatal("LoadKeys created keys")
	}
	k1, err := auth.LoadOrCreateKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := auth.LoadOrCreateKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k1.AccountPublicKey() != k2.AccountPublicKey() {
		t.Fatal("a second start made new keys")
	}
	fi, err := os.Stat(filepath.Join(dir, auth.KeysDir))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("key directory: %v %v", fi.Mode(), err)
	}
	for _, f := range []string{"operator.nk", "account.nk", "system.nk", "agents.nk"} {
		fi, err := os.Stat(filepath.Join(dir, auth.KeysDir, f))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", f, fi.Mode(), err)
		}
	}
}

func TestMintedCredentials(t *testing.T) {
	k, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var perms jwt.Permissions
	perms.Sub.Allow.Add("_INBOX.alice.>")
	perms.Pub.Allow.Add("agent.output.alice")
	c, err := k.Mint(auth.User{Name: "agent:alice", Permissions: perms, TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	uc, err := jwt.DecodeUserClaims(c.JWT)
	if err != nil {
		t.Fatal(err)
	}
	if uc.Issuer != k.AccountPublicKey() || uc.Expires < time.Now().Add(59*time.Minute).Unix() || !uc.Pub.Allow.Contains("agent.output.alice") {
		t.Fatalf("claims %+v", uc)
	}
	file := filepath.Join(t.TempDir(), "a.creds")
	if err := c.WriteFile(file); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Fatalf("credential file mode %v", fi.Mode())
	}
	if p, err := auth.InboxPrefix(file); err != nil || p != "_INBOX.alice" {
		t.Fatalf("inbox prefix %q %v", p, err)
	}
	admin, _ := k.Mint(auth.User{Name: "admin"})
	adminFile := filepath.Join(t.TempDir(), "admin.creds")
	if err := admin.WriteFile(adminFile); err != nil {
		t.Fatal(err)
	}
	if p, err := auth.InboxPrefix(adminFile); err != nil || p != "" {
		t.Fatalf("admin inbox prefix %q %v", p, err)
	}
	for file, want := range map[string]bool{file: false, adminFile: true} {
		if got, err := auth.PublishesAnywhere(file); err != nil || got != want {
			t.Errorf("PublishesAnywhere(%s) = %v %v, want %v", filepath.Base(file), got, err, want)
		}
	}
	tr, err := k.Trust(auth.Share{Subject: "agent.>", Why: "outputs"}, auth.Share{Subject: "$KV.sessions.*", Feed: true, Why: "sets"},
		auth.Share{Subject: "proxy.CREATE.>", Local: "$JS.API.CONSUMER.CREATE.>", Why: "consumers"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Accounts) != 3 || tr.Accounts[k.AccountPublicKey()] == "" {
		t.Fatalf("trust %+v", tr)
	}
	agents, err := jwt.DecodeAccountClaims(tr.Accounts[k.AgentsPublicKey()])
	if err != nil {
		t.Fatal(err)
	}
	if agents.Name != auth.AgentsAccountName || len(agents.Imports) != 3 || agents.Limits.JetStreamLimits.DiskStorage != 0 {
		t.Errorf("the agents' account: %+v", agents)
	}
	for _, im := range agents.Imports {
		if im.Account != k.AccountPublicKey() || (im.Subject == "$KV.sessions.*") != (im.Type == jwt.Stream) {
			t.Errorf("import %+v", im)
		}
		if im.Subject == "proxy.CREATE.>" && im.LocalSubject != "$JS.API.CONSUMER.CREATE.>" {
			t.Errorf("a renamed import: %+v", im)
		}
	}
	agent, err := k.MintAgent(auth.User{Name: "agent:alice", Permissions: perms})
	if err != nil {
		t.Fatal(err)
	}
	if uc, err := jwt.DecodeUserClaims(agent.JWT); err != nil || uc.Issuer != k.AgentsPublicKey() {
		t.Errorf("an agent's credential is signed by %v (%v), want the agents' account", uc, err)
	}
	if _, err := k.Trust(auth.Share{Subject: "a.>"}, auth.Share{Subject: "a.b.>"}); err == nil {
		t.Error("overlapping shares were accepted")
	}
}

// A data directory written before agents had an account of their own has
// no agents.nk: the server's next start creates it, and minting an
// agent's credential before then says so. Its older credentials, agents'
// among them, are refused from then on.
func TestAgentsKeyAddedToAnOlderDataDirectory(t *testing.T) {
	dir := t.TempDir()
	k1, err := auth.LoadOrCreateKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, auth.KeysDir, "agents.nk")); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.LoadKeys(dir); err == nil || !strings.Contains(err.Error(), "toolyard up --data") {
		t.Errorf("LoadKeys without the agents' key: %v", err)
	}
	k2, err := auth.LoadOrCreateKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k2.AccountPublicKey() != k1.AccountPublicKey() || k2.AgentsPublicKey() == "" {
		t.Errorf("a restart changed the account or made no agents' key")
	}
	k3, err := auth.LoadKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Credentials of TOOLYARD issued before the agents' key (agents' among
	// them) are refused from then on; those minted since are not.
	for _, k := range []*auth.Keys{k2, k3} {
		if k.RevokedBefore.IsZero() || time.Since(k.RevokedBefore) > time.Minute {
			t.Fatalf("revoked before %v", k.RevokedBefore)
		}
		tr, err := k.Trust()
		if err != nil {
			t.Fatal(err)
		}
		app, err := jwt.DecodeAccountClaims(tr.Accounts[k.AccountPublicKey()])
		if err != nil {
			t.Fatal(err)
		}
		user := &jwt.UserClaims{}
		user.Subject = "UXYZ"
		for _, tt := range []struct {
			issued  time.Time
			revoked bool
		}{{k.RevokedBefore.Add(-time.Hour), true}, {k.RevokedBefore.Add(-time.Second), true}, {k.RevokedBefore, false}, {k.RevokedBefore.Add(time.Hour), false}} {
			user.IssuedAt = tt.issued.Unix()
			if got := app.IsClaimRevoked(user); got != tt.revoked {
				t.Errorf("a credential issued %v before the agents' key: revoked %v, want %v", k.RevokedBefore.Sub(tt.issued), got, tt.revoked)
			}
		}
	}
	// A new data directory has nothing to revoke.
	fresh, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !fresh.RevokedBefore.IsZero() {
		t.Errorf("a new data directory revokes credentials before %v", fresh.RevokedBefore)
	}
}

func TestExpiredAt(t *testing.T) {
	k, err := auth.LoadOrCreateKeys(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(ttl time.Duration) string {
		c, err := k.Mint(auth.User{Name: "agent:bob", TTL: ttl})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "bob.creds")
		if err := c.WriteFile(file); err != nil {
			t.Fatal(err)
		}
		return file
	}
	hour, never := write(time.Hour), write(0)
	now := time.Now()
	tests := []struct {
		name    string
		file    string
		now     time.Time
		expired bool
	}{
		{"valid", hour, now, false},
		{"past its expiry", hour, now.Add(2 * time.Hour), true},
		{"never expires", never, now.Add(1000 * time.Hour), false},
		{"no credential", "", now, false},
		{"unreadable", filepath.Join(t.TempDir(), "missing.creds"), now, false},
	}
	for _, tt := range tests {
		at := auth.ExpiredAt(tt.file, tt.now)
		if at.IsZero() == tt.expired {
			t.Errorf("%s: expired at %v, want expired %v", tt.name, at, tt.expired)
		}
		if tt.expired && at.After(tt.now) {
			t.Errorf("%s: expired at %v, after now %v", tt.name, at, tt.now)
		}
	}
}

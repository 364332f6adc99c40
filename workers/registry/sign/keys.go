package sign

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nats-io/nkeys"
)

// NewKey creates an account key pair for signing tools.
func NewKey() (nkeys.KeyPair, error) { return nkeys.CreateAccount() }

// LoadKey reads a signing seed from a file: the bare seed ("SA…"), or a
// decorated nkey file as nsc writes them. Only account seeds are accepted.
func LoadKey(path string) (nkeys.KeyPair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	defer wipe(data)
	kp, err := nkeys.ParseDecoratedNKey(data)
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %w", path, err)
	}
	if !nkeys.IsValidPublicAccountKey(pub) {
		kp.Wipe()
		return nil, fmt.Errorf("signing key %s is not an account seed (it starts %q; tool signing keys start \"SA\" — make one with 'toolyard tools keygen')", path, seedKind(data))
	}
	return kp, nil
}

func seedKind(data []byte) string {
	s := strings.TrimSpace(string(data))
	if len(s) > 2 && strings.HasPrefix(s, "S") {
		return s[:2]
	}
	return "?"
}

func wipe(b []byte) {
	for i := range b {
		b[i] = 'x'
	}
}

// Trust is a set of public account keys whose signatures are accepted.
type Trust struct {
	keys map[string]bool
	rev  revocations // revoke.go
}

// NewTrust checks the keys: each must be a public account nkey ("A…").
func NewTrust(keys ...string) (*Trust, error) {
	t := &Trust{keys: map[string]bool{}}
	good, bad := publicKeys(keys)
	for _, k := range good {
		t.keys[k] = true
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("not public account nkeys (\"A…\", 56 characters): %s", strings.Join(bad, ", "))
	}
	if len(t.keys) == 0 {
		return nil, errors.New("no trusted keys given")
	}
	return t, nil
}

// Trusts reports whether signatures by the public key are accepted.
// A revoked key is not trusted.
func (t *Trust) Trusts(key string) bool {
	if t == nil || !t.keys[key] {
		return false
	}
	revoked, _ := t.revoked(key)
	return !revoked
}

// Len is how many keys are trusted.
func (t *Trust) Len() int {
	if t == nil {
		return 0
	}
	return len(t.keys)
}

// ReadKeys reads public keys from a file, one per line; blank lines and
// lines starting with # are skipped.
func ReadKeys(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	var out []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSpace(string(line))
		if s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, s)
		}
	}
	return out, nil
}

// publicKeys sorts keys (spaces trimmed, blanks dropped) into public
// account nkeys and the rest.
func publicKeys(keys []string) (good, bad []string) {
	for _, k := range keys {
		k = strings.TrimSpace(k)
		switch {
		case k == "":
		case nkeys.IsValidPublicAccountKey(k):
			good = append(good, k)
		default:
			bad = append(bad, k)
		}
	}
	return good, bad
}

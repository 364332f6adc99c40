package sign

import (
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nats-io/nkeys"

	"github.com/toolyard/toolyard/schemas"
)

// Reasons a tool is refused, for errors.Is.
var (
	// ErrUnsigned: the manifest carries no signature.
	ErrUnsigned = errors.New("tool is not signed")
	// ErrBadSignature: the manifest or one of its scripts changed since it
	// was signed, or the signature is malformed.
	ErrBadSignature = errors.New("bad signature")
	// ErrUntrusted: the signature is by a key the worker does not trust.
	ErrUntrusted = errors.New("signed by an untrusted key")
)

// Sign returns m signed by kp (an account key), with the hashes of the
// scripts it runs and a serial (see WithSerial). Any previous signature is
// replaced.
func Sign(m schemas.Manifest, kp nkeys.KeyPair, opts ...Option) (schemas.Manifest, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return m, fmt.Errorf("sign %s: %w", m.ID, err)
	}
	if !nkeys.IsValidPublicAccountKey(pub) {
		return m, fmt.Errorf("sign %s: %s is not an account key", m.ID, pub)
	}
	if _, err := DeclaredFiles(m); err != nil {
		return m, fmt.Errorf("sign: %w", err)
	}
	sig := &schemas.Signature{Key: pub, Serial: o.serial(m)}
	for _, p := range Scripts(m) {
		h, err := hashFile(p)
		if err != nil {
			return m, fmt.Errorf("sign %s: script: %w", m.ID, err)
		}
		if sig.Files == nil {
			sig.Files = map[string]string{}
		}
		sig.Files[p] = h
	}
	m.Signature = sig
	payload, err := Payload(m)
	if err != nil {
		return m, err
	}
	raw, err := kp.Sign(payload)
	if err != nil {
		return m, fmt.Errorf("sign %s: %w", m.ID, err)
	}
	signed := *sig
	signed.Sig = base64.RawURLEncoding.EncodeToString(raw)
	m.Signature = &signed
	return m, nil
}

// Verify checks that m is signed by a key t trusts, that it has not changed
// since, and that the scripts it runs are the ones signed. The error says
// which check failed and matches ErrUnsigned, ErrUntrusted or
// ErrBadSignature.
func Verify(m schemas.Manifest, t *Trust) error {
	s := m.Signature
	if s == nil || s.Sig == "" {
		return fmt.Errorf("tool %s: %w; sign it with 'toolyard tools sign --key SEED_FILE MANIFEST_FILE'", m.ID, ErrUnsigned)
	}
	if !nkeys.IsValidPublicAccountKey(s.Key) {
		return fmt.Errorf("tool %s: %w: signer %q is not a public account nkey", m.ID, ErrBadSignature, s.Key)
	}
	if revoked, err := t.revoked(s.Key); revoked {
		if err != nil {
			return fmt.Errorf("tool %s: %w: %v", m.ID, ErrRevoked, err)
		}
		return fmt.Errorf("tool %s: %w %s (on this worker's revocation list)", m.ID, ErrRevoked, s.Key)
	}
	if !t.Trusts(s.Key) {
		return fmt.Errorf("tool %s: %w %s (not in this worker's --trusted-keys)", m.ID, ErrUntrusted, s.Key)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s.Sig)
	if err != nil {
		return fmt.Errorf("tool %s: %w: sig is not unpadded base64url: %v", m.ID, ErrBadSignature, err)
	}
	pub, err := nkeys.FromPublicKey(s.Key)
	if err != nil {
		return fmt.Errorf("tool %s: %w: %v", m.ID, ErrBadSignature, err)
	}
	payload, err := Payload(m)
	if err != nil {
		return err
	}
	if err := pub.Verify(payload, raw); err != nil {
		return fmt.Errorf("tool %s: %w: the manifest changed since it was signed by %s", m.ID, ErrBadSignature, s.Key)
	}
	return verifyScripts(m)
}

// verifyScripts compares the scripts the tool runs now with those signed.
func verifyScripts(m schemas.Manifest) error {
	now := Scripts(m)
	signed := m.Signature.Files
	for _, p := range now {
		want, ok := signed[p]
		if !ok {
			return fmt.Errorf("tool %s: %w: script %s is not covered by the signature (it did not exist when the tool was signed)", m.ID, ErrBadSignature, p)
		}
		got, err := hashFile(p)
		if err != nil {
			return fmt.Errorf("tool %s: %w: script %s: %v", m.ID, ErrBadSignature, p, err)
		}
		if got != want {
			return fmt.Errorf("tool %s: %w: script %s changed since it was signed (sha256 %s, signed %s)", m.ID, ErrBadSignature, p, short(got), short(want))
		}
	}
	var gone []string
	for _, p := range slices.Sorted(maps.Keys(signed)) {
		if !slices.Contains(now, p) {
			gone = append(gone, p)
		}
	}
	if len(gone) > 0 {
		return fmt.Errorf("tool %s: %w: signed script(s) missing: %s", m.ID, ErrBadSignature, strings.Join(gone, ", "))
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

package sign

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// ErrRevoked: the signature is by a key on the revocation list. A revoked
// key's signatures are refused even if the key is also trusted: revoking
// is how a leaked signing key is retired without waiting for every
// worker's --trusted-keys to change.
var ErrRevoked = errors.New("signed by a revoked key")

// revocations is the revocation list: keys given once, plus a file that is
// read again whenever it changes, so a worker refuses a key from the
// moment it is added, without a restart.
type revocations struct {
	mu       sync.Mutex
	fixed    map[string]bool
	file     string
	modTime  time.Time
	size     int64
	fromFile map[string]bool
	err      error
}

// Revoke adds keys to t's revocation list.
func (t *Trust) Revoke(keys ...string) error {
	good, bad := publicKeys(keys)
	t.rev.mu.Lock()
	defer t.rev.mu.Unlock()
	if t.rev.fixed == nil {
		t.rev.fixed = map[string]bool{}
	}
	for _, k := range good {
		t.rev.fixed[k] = true
	}
	if len(bad) > 0 {
		return fmt.Errorf("revoked keys: not public account nkeys: %s", strings.Join(bad, ", "))
	}
	return nil
}

// RevokeFile makes t refuse the keys listed in file (one per line, #
// comments), re-reading it whenever it changes. The file must exist now;
// if it later becomes unreadable, every signature is refused until it is
// readable again (a revocation list that cannot be read revokes nothing
// it should, so failing closed is the safe side).
func (t *Trust) RevokeFile(file string) error {
	t.rev.mu.Lock()
	t.rev.file = file
	t.rev.mu.Unlock()
	_, err := t.revoked("")
	return err
}

// RevokedLen is how many keys are revoked now.
func (t *Trust) RevokedLen() int {
	if t == nil {
		return 0
	}
	_, _ = t.revoked("")
	t.rev.mu.Lock()
	defer t.rev.mu.Unlock()
	n := len(t.rev.fixed)
	for k := range t.rev.fromFile {
		if !t.rev.fixed[k] {
			n++
		}
	}
	return n
}

// revoked reports whether key is revoked, reloading the file if it changed.
func (t *Trust) revoked(key string) (bool, error) {
	if t == nil {
		return false, nil
	}
	r := &t.rev
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.file != "" {
		fi, err := os.Stat(r.file)
		switch {
		case err != nil:
			r.err = fmt.Errorf("revocation list: %w", err)
		case !fi.ModTime().Equal(r.modTime) || fi.Size() != r.size || r.err != nil:
			keys, err := ReadKeys(r.file)
			if err != nil {
				r.err = fmt.Errorf("revocation list: %w", err)
				break
			}
			m := map[string]bool{}
			for _, k := range keys {
				m[k] = true
			}
			r.fromFile, r.modTime, r.size, r.err = m, fi.ModTime(), fi.Size(), nil
		}
		if r.err != nil {
			return true, r.err
		}
	}
	return r.fixed[key] || r.fromFile[key], nil
}

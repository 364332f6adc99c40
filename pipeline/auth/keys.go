package auth

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nkeys"
)

// KeysDir is where the seeds live, under the data directory.
const KeysDir = "auth"

// Keys are the signing keys of one Toolyard deployment.
type Keys struct {
	// Operator signs the accounts; the server trusts its public key.
	Operator nkeys.KeyPair
	// Account is the TOOLYARD account: it holds the streams and signs the
	// credentials of admins, workers and tools.
	Account nkeys.KeyPair
	// Agents is the AGENTS account: it signs agent credentials. Agents
	// reach TOOLYARD only through the subjects it exports to them (Share).
	Agents nkeys.KeyPair
	// RevokedBefore, when set, is when the agents' key was added to keys
	// written before it: every TOOLYARD credential issued earlier is
	// refused, since agents' credentials were TOOLYARD's then, with their
	// reply subjects inside it. Toolyard's own roles are minted again.
	RevokedBefore time.Time
	// System is the server's system account.
	System nkeys.KeyPair
}

// seedFile names one key's seed file and how to create it.
type seedFile struct {
	name   string
	create func() (nkeys.KeyPair, error)
	into   func(*Keys, nkeys.KeyPair)
}

var seedFiles = []seedFile{
	{"operator.nk", nkeys.CreateOperator, func(k *Keys, kp nkeys.KeyPair) { k.Operator = kp }},
	{"account.nk", nkeys.CreateAccount, func(k *Keys, kp nkeys.KeyPair) { k.Account = kp }},
	{"system.nk", nkeys.CreateAccount, func(k *Keys, kp nkeys.KeyPair) { k.System = kp }},
	{agentsSeed, nkeys.CreateAccount, func(k *Keys, kp nkeys.KeyPair) { k.Agents = kp }},
}

// agentsSeed is the AGENTS account's seed, added after the others: a data
// directory written before it gets it at the next start of its server,
// and the time of that in revokedFile.
const (
	agentsSeed  = "agents.nk"
	revokedFile = "revoked-before"
)

// LoadOrCreateKeys reads the deployment's keys from dataDir/auth, creating
// the ones that do not exist yet (0600 files in a 0700 directory).
func LoadOrCreateKeys(dataDir string) (*Keys, error) {
	dir := filepath.Join(dataDir, KeysDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create key directory %s: %w", dir, err)
	}
	k := &Keys{}
	created := map[string]bool{}
	for _, f := range seedFiles {
		path := filepath.Join(dir, f.name)
		kp, err := readSeed(path)
		if errors.Is(err, fs.ErrNotExist) {
			created[f.name], err = true, nil
			if f.name == agentsSeed && !created["account.nk"] {
				err = writePrivate(filepath.Join(dir, revokedFile), []byte(strconv.FormatInt(time.Now().Unix(), 10)))
			}
			if err == nil {
				kp, err = createSeed(path, f.create)
			}
		}
		if err != nil {
			return nil, err
		}
		f.into(k, kp)
	}
	if err := k.readRevoked(dir); err != nil {
		return nil, err
	}
	return k, nil
}

// readRevoked reads when the agents' key was added, if it was.
func (k *Keys) readRevoked(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, revokedFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return fmt.Errorf("read %s: %w", filepath.Join(dir, revokedFile), err)
	}
	k.RevokedBefore = time.Unix(sec, 0)
	return nil
}

// LoadKeys reads existing keys (for minting credentials outside the server
// process); it never creates any.
func LoadKeys(dataDir string) (*Keys, error) {
	dir := filepath.Join(dataDir, KeysDir)
	k := &Keys{}
	for _, f := range seedFiles {
		kp, err := readSeed(filepath.Join(dir, f.name))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && f.name == agentsSeed && k.Account != nil {
				return nil, fmt.Errorf("no agents' account key in %s: it was written before agents had an account of their own; start 'toolyard up --data %s' (or 'toolyard creds server-config --data %s') once with this version: %w", dir, dataDir, dataDir, err)
			}
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("no Toolyard keys in %s (has 'toolyard up --data %s' run once?): %w", dir, dataDir, err)
			}
			return nil, err
		}
		f.into(k, kp)
	}
	if err := k.readRevoked(dir); err != nil {
		return nil, err
	}
	return k, nil
}

func readSeed(path string) (nkeys.KeyPair, error) {
	seed, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	kp, err := nkeys.FromSeed(bytes.TrimSpace(seed))
	if err != nil {
		return nil, fmt.Errorf("read key %s: %w", path, err)
	}
	return kp, nil
}

func createSeed(path string, create func() (nkeys.KeyPair, error)) (nkeys.KeyPair, error) {
	kp, err := create()
	if err != nil {
		return nil, fmt.Errorf("create key %s: %w", path, err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return nil, err
	}
	if err := writePrivate(path, seed); err != nil {
		return nil, err
	}
	return kp, nil
}

// writePrivate writes data readable by the owner only, atomically: a
// reader never sees half a key.
func writePrivate(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create directory for %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// AgentsPublicKey is the AGENTS account's public key.
func (k *Keys) AgentsPublicKey() string {
	pub, _ := k.Agents.PublicKey()
	return pub
}

// AccountPublicKey is the TOOLYARD account's public key: the name of the
// account on the server and of its JetStream directory.
func (k *Keys) AccountPublicKey() string {
	pub, _ := k.Account.PublicKey()
	return pub
}

package auth

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// User is a credential to mint: a name for the logs and the permissions
// of its role.
type User struct {
	Name        string
	Permissions jwt.Permissions
	// TTL, when positive, makes the credential expire: the server refuses
	// it afterwards (and closes a connection that outlives it).
	TTL time.Duration
}

// Credential is a minted user: its JWT and seed.
type Credential struct {
	JWT  string
	Seed []byte
}

// Mint signs a new user of the TOOLYARD account.
func (k *Keys) Mint(u User) (Credential, error) { return mint(u, k.Account) }

// MintAgent signs a new user of the AGENTS account: an agent's
// credential, which reaches TOOLYARD through its shares only.
func (k *Keys) MintAgent(u User) (Credential, error) { return mint(u, k.Agents) }

func mint(u User, account nkeys.KeyPair) (Credential, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return Credential{}, err
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return Credential{}, err
	}
	seed, err := kp.Seed()
	if err != nil {
		return Credential{}, err
	}
	uc := jwt.NewUserClaims(pub)
	uc.Name = u.Name
	uc.Permissions = u.Permissions
	if u.TTL > 0 {
		uc.Expires = time.Now().Add(u.TTL).Unix()
	}
	token, err := uc.Encode(account)
	if err != nil {
		return Credential{}, fmt.Errorf("sign user %s: %w", u.Name, err)
	}
	return Credential{JWT: token, Seed: seed}, nil
}

// File is the credential in the .creds format every NATS client reads.
func (c Credential) File() ([]byte, error) { return jwt.FormatUserConfig(c.JWT, c.Seed) }

// Option connects as this user (in-process or over the network).
func (c Credential) Option() nats.Option { return nats.UserJWTAndSeed(c.JWT, string(c.Seed)) }

// WriteFile writes the credential to path, readable by the owner only.
func (c Credential) WriteFile(path string) error {
	data, err := c.File()
	if err != nil {
		return err
	}
	return writePrivate(path, data)
}

// InboxPrefix is the reply-subject prefix a credential restricted to one
// inbox must use ("" when it may subscribe to any inbox). A client that
// connects with such a credential sets it with nats.CustomInboxPrefix, or
// its requests get no replies.
func InboxPrefix(credsFile string) (string, error) {
	uc, err := readUser(credsFile)
	if err != nil {
		return "", err
	}
	return inboxOf(uc.Permissions), nil
}

// FileError is a credentials file that cannot be used as one (missing,
// unreadable, not a JWT and seed): the fault is the file's, whatever the
// server it was meant for.
type FileError struct{ err error }

func (e *FileError) Error() string { return e.err.Error() }
func (e *FileError) Unwrap() error { return e.err }

// FileErrorf is a FileError, its message formatted (and naming the file).
func FileErrorf(format string, args ...any) error {
	return &FileError{err: fmt.Errorf(format, args...)}
}

// notCreds says what a credentials file must hold.
const notCreds = "not a credentials file: expected a user JWT and its seed, as 'toolyard creds agent' and 'toolyard up' write them"

// readUser reads the user claims of a credentials file, which must also
// hold the user's seed (nats.go would refuse it only when connecting,
// in words that name no file). Its errors are FileErrors.
func readUser(file string) (*jwt.UserClaims, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, FileErrorf("read credentials: %w", err)
	}
	token, err := jwt.ParseDecoratedJWT(data)
	if err != nil {
		return nil, FileErrorf("credentials %s: %s (%w)", file, notCreds, err)
	}
	uc, err := jwt.DecodeUserClaims(token)
	if err != nil {
		return nil, FileErrorf("credentials %s: %s (%w)", file, notCreds, err)
	}
	if _, err := nkeys.ParseDecoratedNKey(data); err != nil {
		return nil, FileErrorf("credentials %s: %s (no seed: %w)", file, notCreds, err)
	}
	return uc, nil
}

func inboxOf(p jwt.Permissions) string {
	for _, s := range p.Sub.Allow {
		if s == "_INBOX.>" || s == ">" {
			return ""
		}
	}
	for _, s := range p.Sub.Allow {
		if strings.HasPrefix(s, "_INBOX.") && strings.HasSuffix(s, ".>") {
			return strings.TrimSuffix(s, ".>")
		}
	}
	return ""
}

// PublishesAnywhere says whether the credential in file may publish to
// subjects no role table knows (an admin's, or the tools role's), for the
// hint a worker gives when NATS-request tools would be refused.
func PublishesAnywhere(file string) (bool, error) {
	uc, err := readUser(file)
	if err != nil {
		return false, err
	}
	return len(uc.Pub.Allow) == 0 || uc.Pub.Allow.Contains(">"), nil
}

// ExpiredAt is when the credential in file expired, as of now; zero when
// it has not, never expires, or cannot be read. A server refusing an
// expired credential says only "Authorization Violation", so a client
// reads the expiry itself to say what to do.
func ExpiredAt(file string, now time.Time) time.Time {
	if file == "" {
		return time.Time{}
	}
	uc, err := readUser(file)
	if err != nil || uc.Expires == 0 {
		return time.Time{}
	}
	if at := time.Unix(uc.Expires, 0); !now.Before(at) {
		return at
	}
	return time.Time{}
}

// MayPublish says whether the credential in file may publish to subject
// (a literal subject): allowed by its publish permissions (none listed
// allows everything) and not denied. A worker checks it at start-up for
// each stage's consumer, so a credential minted for another stage is
// refused at once with its cause, rather than as a request timing out.
func MayPublish(file, subject string) (bool, error) {
	uc, err := readUser(file)
	if err != nil {
		return false, err
	}
	for _, d := range uc.Pub.Deny {
		if server.SubjectMatchesFilter(subject, d) {
			return false, nil
		}
	}
	if len(uc.Pub.Allow) == 0 {
		return true, nil
	}
	for _, a := range uc.Pub.Allow {
		if server.SubjectMatchesFilter(subject, a) {
			return true, nil
		}
	}
	return false, nil
}

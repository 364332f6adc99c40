package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
)

// connFlags are how every connecting command reaches a (secured) NATS
// server or cluster, named as the nats CLI names them.
type connFlags struct {
	creds, tlsCA, tlsCert, tlsKey string
}

func (c *connFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&c.creds, "creds", os.Getenv("NATS_CREDS"),
		"NATS credentials file (env NATS_CREDS; default: DATA/creds/admin.creds of the local 'toolyard up', when readable)")
	fl.StringVar(&c.tlsCA, "tls-ca", os.Getenv("NATS_CA"), "CA certificate that signed the NATS server's certificate (env NATS_CA)")
	fl.StringVar(&c.tlsCert, "tls-cert", os.Getenv("NATS_CERT"), "client certificate for TLS to NATS (env NATS_CERT)")
	fl.StringVar(&c.tlsKey, "tls-key", os.Getenv("NATS_KEY"), "client key for TLS to NATS (env NATS_KEY)")
}

// credsFile is the credential to present: the flag's, else the local data
// directory's admin credential (the one 'toolyard up' writes), else none.
func (c *connFlags) credsFile() string {
	if c.creds != "" {
		return c.creds
	}
	local := filepath.Join(pipeline.DefaultDataDir(), "creds", "admin.creds")
	if f, err := os.Open(local); err == nil {
		f.Close()
		return local
	}
	return ""
}

// options are the nats.Options the flags ask for.
func (c *connFlags) options() ([]nats.Option, error) {
	var opts []nats.Option
	if file := c.credsFile(); file != "" {
		if _, err := os.Stat(file); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, auth.FileErrorf("credentials %s do not exist ('toolyard up --data DATA' writes DATA/creds/admin.creds and worker.creds; 'toolyard creds agent' mints one per session)", file)
			}
			return nil, auth.FileErrorf("credentials: %w", err)
		}
		inbox, err := auth.InboxPrefix(file)
		if err != nil {
			return nil, err
		}
		opts = append(opts, nats.UserCredentials(file))
		if inbox != "" {
			opts = append(opts, nats.CustomInboxPrefix(inbox))
		}
		slog.Debug("NATS credentials", "file", file)
	}
	if c.tlsCA != "" {
		opts = append(opts, nats.RootCAs(c.tlsCA))
	}
	switch {
	case c.tlsCert != "" && c.tlsKey != "":
		opts = append(opts, nats.ClientCert(c.tlsCert, c.tlsKey))
	case c.tlsCert != "" || c.tlsKey != "":
		return nil, errors.New("--tls-cert and --tls-key go together")
	}
	return opts, nil
}

// connect dials --nats with the global connection flags.
func (g *globalFlags) connect(name string, extra ...nats.Option) (*nats.Conn, error) {
	opts, err := g.conn.options()
	if err != nil {
		return nil, err
	}
	// A refusal is kept and named if the command then fails; a client
	// command (clientConnect) or a process (observe) puts its own handler
	// after this one.
	opts = append([]nats.Option{g.refusal.handler(g.conn.credsFile(), false, clientHint)}, opts...)
	nc, err := pipeline.Connect(g.nats, name, append(opts, extra...)...)
	if errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) {
		file := g.conn.credsFile()
		if at := auth.ExpiredAt(file, time.Now()); !at.IsZero() {
			return nil, fmt.Errorf("%w: the credential in %s expired at %s; mint a new one ('toolyard creds agent --session S --ttl 1h --out FILE' on the machine of 'toolyard up')",
				err, file, at.UTC().Format(time.RFC3339))
		}
		return nil, fmt.Errorf("%w: the server refused %s (give --creds FILE or NATS_CREDS: 'toolyard up --data DATA' writes DATA/creds/admin.creds, 'toolyard creds agent' mints a session's)", err, credsName(g.conn.credsFile()))
	}
	return nc, err
}

// clientConnect is connect for a command that does one job and exits: an
// operation the server refuses ends it at once, naming the credential.
func (g *globalFlags) clientConnect(name string) (*nats.Conn, error) {
	return g.connect(name, g.refusal.option(g.conn.credsFile()))
}

func credsName(file string) string {
	if file == "" {
		return "an anonymous client"
	}
	return "the credentials in " + file
}

// toolConnector opens the NATS-request tools' connection with --tool-creds
// (none given: the stage's own connection).
func (g *globalFlags) toolConnector(f *guardFlags) func() (*nats.Conn, error) {
	return func() (*nats.Conn, error) {
		if f.toolCreds == "" {
			return nil, nil
		}
		tg := *g
		tg.conn.creds = f.toolCreds
		return tg.connect("toolyard-tools")
	}
}

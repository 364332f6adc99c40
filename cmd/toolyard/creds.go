package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/workers/roles"
)

// credsDir is where 'up' writes the role credentials, under the data dir.
const credsDir = "creds"

// writeRoleCreds (re)writes DATA/creds/admin.creds, worker.creds and
// tools.creds, so they always carry this version's permissions.
func writeRoleCreds(dataDir string, keys *auth.Keys) error {
	worker, err := roles.Worker()
	if err != nil {
		return err
	}
	for _, u := range []struct {
		file string
		user auth.User
	}{
		{"admin.creds", auth.User{Name: "toolyard-admin", Permissions: roles.Admin()}},
		{"worker.creds", auth.User{Name: "toolyard-worker", Permissions: worker}},
		{"tools.creds", auth.User{Name: "toolyard-tools", Permissions: roles.Tools()}},
	} {
		c, err := keys.Mint(u.user)
		if err != nil {
			return err
		}
		if err := c.WriteFile(filepath.Join(dataDir, credsDir, u.file)); err != nil {
			return err
		}
	}
	return nil
}

func newCreds() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "creds",
		Short: "Mint NATS credentials: per-session agents, per-stage workers",
		Long: `Toolyard's NATS server refuses anonymous clients. 'toolyard up --data DATA'
writes DATA/creds/admin.creds (everything) and DATA/creds/worker.creds (every
stage's work, no registry or stream administration). These commands mint
narrower credentials with the keys in DATA/auth (run them where DATA is, as
the user that owns it); no server restart is needed.`,
	}
	cmd.AddCommand(newCredsAgent(), newCredsWorker(), newCredsServerConfig())
	return cmd
}

// mintFlags are shared by the creds subcommands.
type mintFlags struct {
	data, out string
}

func (m *mintFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&m.data, "data", pipeline.DefaultDataDir(), "data directory of the 'toolyard up' whose keys sign the credential (env TOOLYARD_DATA)")
	cmd.Flags().StringVar(&m.out, "out", "", "file to write the credential to (0600); required")
}

// mint writes a credential signed by sign: (*auth.Keys).Mint for
// Toolyard's own roles, (*auth.Keys).MintAgent for agents.
func (m *mintFlags) mint(cmd *cobra.Command, u auth.User, sign func(*auth.Keys, auth.User) (auth.Credential, error)) error {
	if m.out == "" {
		return errors.New("--out FILE is required: where to write the credential")
	}
	keys, err := auth.LoadKeys(m.data)
	if err != nil {
		return err
	}
	c, err := sign(keys, u)
	if err != nil {
		return err
	}
	if err := c.WriteFile(m.out); err != nil {
		return err
	}
	expiry := "never expires"
	if u.TTL > 0 {
		expiry = "expires " + time.Now().Add(u.TTL).UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (%s, %s)\n", m.out, u.Name, expiry)
	return nil
}

func newCredsAgent() *cobra.Command {
	var (
		m        mintFlags
		sessions []string
		ttl      time.Duration
	)
	cmd := &cobra.Command{
		Use:   "agent --session S [--session S2…] --out FILE",
		Short: "Mint an agent's credential, limited to its own sessions",
		Long: `An agent credential may publish to agent.output.S, agent.stream.S and
agent.end.S, read result.S, and call the service endpoints for S
(toolyard.find_tools.S, toolyard.activate.S, …), and watch its tool set on
$KV.sessions.S, for its sessions S only. It cannot read other sessions'
results, the AUDIT stream or the registry, nor change anything else. It
belongs to the AGENTS account, which reaches Toolyard's streams only through
the subjects shared with it, so whatever reply subject an agent names, no
answer lands in a stream or bucket; its consumers must be pull consumers.

Clients connecting with it must use the inbox prefix _INBOX.<first session>
(Toolyard's own commands do so by themselves; in other NATS clients set the
custom inbox prefix), since it may receive replies there only.`,
		Example: `  toolyard creds agent --data /var/lib/toolyard --session demo --ttl 1h --out demo.creds
  toolyard publish --creds demo.creds --session demo --wait "[TOOL: disk usage of /tmp]"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			perms, err := roles.Agent(sessions...)
			if err != nil {
				return err
			}
			if ttl < 0 {
				return fmt.Errorf("--ttl %s: give a positive duration, or 0 for a credential that never expires", ttl)
			}
			return m.mint(cmd, auth.User{Name: "agent:" + sessions[0], Permissions: perms, TTL: ttl}, (*auth.Keys).MintAgent)
		},
	}
	m.register(cmd)
	cmd.Flags().StringArrayVar(&sessions, "session", nil, "a session the agent may act for (repeatable); required")
	cmd.Flags().DurationVar(&ttl, "ttl", 24*time.Hour, "how long the credential is valid (0: never expires)")
	return cmd
}

func newCredsWorker() *cobra.Command {
	var (
		m      mintFlags
		stages []string
	)
	cmd := &cobra.Command{
		Use:   "worker [--stage S…] --out FILE",
		Short: "Mint a worker's credential, limited to its stages",
		Long: `A worker credential may consume and acknowledge only its stages' durable
consumers, publish stage outputs (pipe.>, result.>, audit.>, dlq.>), read the
streams and buckets and write the stages' buckets. It cannot change the registry
or the models, nor delete, purge or update a stream. Without --stage it covers
every stage (DATA/creds/worker.creds is that one).`,
		Example: `  toolyard creds worker --stage discover --out discover.creds
  toolyard worker --stage discover --nats nats://nats-1:4222 --creds discover.creds`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			perms, err := roles.Worker(stages...)
			if err != nil {
				return err
			}
			name := "toolyard-worker"
			for _, s := range stages {
				name += ":" + s
			}
			return m.mint(cmd, auth.User{Name: name, Permissions: perms}, (*auth.Keys).Mint)
		},
	}
	m.register(cmd)
	cmd.Flags().StringArrayVar(&stages, "stage", nil, "a stage the worker may run (repeatable; default every stage)")
	return cmd
}

func newCredsServerConfig() *cobra.Command {
	var data, out string
	cmd := &cobra.Command{
		Use:   "server-config --data DATA [--out FILE]",
		Short: "Write the nats-server configuration that makes a cluster trust Toolyard's credentials",
		Long: `For stages running on an external NATS server or cluster: prints (or writes to
--out) the configuration block each server includes: the operator, the accounts
preloaded in a memory resolver (no account server needed), and the protocol line
limit the credentials need. The keys in DATA/auth are created when missing, and
DATA/creds/admin.creds and worker.creds are written beside them.

Keep DATA private: whoever has DATA/auth/account.nk (or agents.nk, for agents)
can mint credentials.`,
		Example: `  toolyard creds server-config --data ./toolyard-keys --out nats-auth.conf
  # in each server's nats.conf:   include ./nats-auth.conf
  toolyard worker --nats tls://nats-1:4222 --tls-ca ca.pem --creds ./toolyard-keys/creds/worker.creds --stage discover`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			keys, err := auth.LoadOrCreateKeys(data)
			if err != nil {
				return err
			}
			if err := writeRoleCreds(data, keys); err != nil {
				return err
			}
			tr, err := keys.Trust(pipeline.AgentShares...)
			if err != nil {
				return err
			}
			conf := tr.ServerConfig(pipeline.MaxControlLine)
			if out == "" {
				_, err := fmt.Fprint(cmd.OutOrStdout(), conf)
				return err
			}
			if err := os.WriteFile(out, []byte(conf), 0o644); err != nil {
				return fmt.Errorf("write %s: %w", out, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s; credentials in %s; the streams' account (for KEDA's scaler): %s\n", out, filepath.Join(data, credsDir), keys.AccountPublicKey())
			return nil
		},
	}
	cmd.Flags().StringVar(&data, "data", pipeline.DefaultDataDir(), "directory of the keys (DATA/auth) and role credentials (DATA/creds)")
	cmd.Flags().StringVar(&out, "out", "", "file to write the configuration to (default: standard output)")
	return cmd
}

// embeddedToolConn connects NATS-request tools in-process with the tools
// role: their subjects cannot reach a stream, a bucket or a stage.
func embeddedToolConn(srv *pipeline.Server) (*nats.Conn, error) {
	c, err := srv.Keys().Mint(auth.User{Name: "toolyard-tools", Permissions: roles.Tools()})
	if err != nil {
		return nil, err
	}
	return srv.Connect(c.Option(), nats.CustomInboxPrefix(roles.ToolsInbox), nats.Name("toolyard-tools"))
}

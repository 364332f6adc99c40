package pipeline

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline/auth"
)

// Server is an embedded NATS server with JetStream on disk.
type Server struct {
	ns      *server.Server
	dataDir string
	// lock holds the data directory for this process (datalock_unix.go).
	lock *os.File
	// keys sign the accounts and users (nil when auth is off); admin is the
	// credential in-process connections use.
	keys  *auth.Keys
	admin auth.Credential
}

type serverConfig struct {
	dataDir    string
	host       string
	port       int
	syncAlways bool
	maxStore   int64
	logging    bool
	readyWait  time.Duration
	noAuth     bool
	tls        *tls.Config
}

// ServerOption configures the embedded server.
type ServerOption func(*serverConfig)

// WithDataDir sets where JetStream keeps its files.
func WithDataDir(dir string) ServerOption { return func(c *serverConfig) { c.dataDir = dir } }

// WithListen sets the client address; port -1 picks a free port, 0 means the default 4222.
func WithListen(host string, port int) ServerOption {
	return func(c *serverConfig) { c.host, c.port = host, port }
}

// WithSyncAlways makes the server fsync every write. Without it, writes are
// flushed to the operating system before they are acknowledged (they survive a
// crash of this process) and fsynced every two minutes (a machine crash may
// lose the last of them).
func WithSyncAlways(on bool) ServerOption { return func(c *serverConfig) { c.syncAlways = on } }

// WithMaxStore caps JetStream's disk use in bytes (0: server default).
func WithMaxStore(bytes int64) ServerOption { return func(c *serverConfig) { c.maxStore = bytes } }

// WithServerLogging sends the server's own log to stderr.
func WithServerLogging(on bool) ServerOption { return func(c *serverConfig) { c.logging = on } }

// MaxControlLine is the protocol line limit Toolyard's credentials need
// (a NATS server running the stages must allow at least this much:
// max_control_line in its configuration).
const MaxControlLine = 32 << 10

// WithoutAuth runs the server open to anonymous clients. Only for tests of
// code that has nothing to do with access: Toolyard itself never does.
func WithoutAuth() ServerOption { return func(c *serverConfig) { c.noAuth = true } }

// WithTLS makes the client port speak TLS only.
func WithTLS(cfg *tls.Config) ServerOption { return func(c *serverConfig) { c.tls = cfg } }

// DefaultDataDir is where the embedded server keeps its data unless told otherwise.
func DefaultDataDir() string {
	if d := os.Getenv("TOOLYARD_DATA"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "toolyard")
	}
	return filepath.Join(os.TempDir(), "toolyard")
}

// StartServer starts an embedded NATS server with JetStream and waits until it
// accepts connections.
func StartServer(opts ...ServerOption) (*Server, error) {
	cfg := serverConfig{dataDir: DefaultDataDir(), host: "127.0.0.1", port: 4222, readyWait: 10 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	if err := os.MkdirAll(cfg.dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("create data directory %s: %w", cfg.dataDir, err)
	}
	lock, err := lockDataDir(cfg.dataDir)
	if err != nil {
		return nil, err
	}
	// The address is tried before the server starts, so a port in use is
	// said at once rather than after the readiness wait.
	if cfg.port > 0 {
		l, err := net.Listen("tcp", net.JoinHostPort(cfg.host, strconv.Itoa(cfg.port)))
		if err != nil {
			closeLock(lock)
			return nil, fmt.Errorf("cannot listen on %s:%d: %w", cfg.host, cfg.port, err)
		}
		l.Close()
	}
	var keys *auth.Keys
	var admin auth.Credential
	if !cfg.noAuth {
		if keys, err = auth.LoadOrCreateKeys(cfg.dataDir); err == nil {
			err = adoptGlobalAccount(cfg.dataDir, keys.AccountPublicKey())
		}
		if err == nil {
			admin, err = keys.Mint(auth.User{Name: "toolyard-embedded"})
		}
		if err != nil {
			closeLock(lock)
			return nil, err
		}
	}
	sopts := &server.Options{
		ServerName:        "toolyard",
		Host:              cfg.host,
		Port:              cfg.port,
		JetStream:         true,
		StoreDir:          cfg.dataDir,
		JetStreamMaxStore: cfg.maxStore,
		SyncAlways:        cfg.syncAlways,
		NoSigs:            true,
		MaxPayload:        8 << 20,
		// A credential's permissions travel in its CONNECT line; a worker's
		// exceed the 4 KiB default.
		MaxControlLine:        MaxControlLine,
		DisableShortFirstPing: true,
	}
	if cfg.tls != nil {
		sopts.TLSConfig = cfg.tls
		sopts.TLS = true
		sopts.TLSTimeout = 2
	}
	if keys != nil {
		if err := keys.Configure(sopts, AgentShares...); err != nil {
			closeLock(lock)
			return nil, err
		}
	}
	ns, err := server.NewServer(sopts)
	if err != nil {
		closeLock(lock)
		return nil, fmt.Errorf("configure embedded NATS server: %w", err)
	}
	if cfg.logging {
		ns.ConfigureLogger()
	}
	go ns.Start()
	if !ns.ReadyForConnections(cfg.readyWait) {
		ns.Shutdown()
		closeLock(lock)
		return nil, fmt.Errorf("embedded NATS server not ready within %s on %s:%d", cfg.readyWait, cfg.host, cfg.port)
	}
	return &Server{ns: ns, dataDir: cfg.dataDir, lock: lock, keys: keys, admin: admin}, nil
}

// ClientURL is the URL other processes connect to.
func (s *Server) ClientURL() string { return s.ns.ClientURL() }

// MaxStore is how much JetStream may keep on disk: --max-store when set,
// otherwise what the server took from the free disk at start (three
// quarters of it).
func (s *Server) MaxStore() int64 { return s.ns.JetStreamConfig().MaxStore }

// DataDir is where JetStream keeps its files.
func (s *Server) DataDir() string { return s.dataDir }

// Keys are the server's signing keys (nil when auth is off).
func (s *Server) Keys() *auth.Keys { return s.keys }

// Connect opens an in-process connection: no socket, no network stack. It
// authenticates as admin unless opts carry another credential.
func (s *Server) Connect(opts ...nats.Option) (*nats.Conn, error) {
	base := []nats.Option{nats.InProcessServer(s.ns), nats.Name("toolyard-embedded")}
	if s.keys != nil {
		base = append(base, s.admin.Option())
	}
	opts = append(base, opts...)
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, fmt.Errorf("connect in-process: %w", err)
	}
	return nc, nil
}

// Shutdown stops the server and waits until it is down.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	closeLock(s.lock)
}

// closeLock releases the data directory (closing the file drops the flock).
func closeLock(f *os.File) {
	if f != nil {
		f.Close()
	}
}

// Connect dials a NATS server or cluster, retrying the first connection and
// reconnecting forever: workers outlive server restarts.
func Connect(url, name string, opts ...nats.Option) (*nats.Conn, error) {
	if url == "" {
		return nil, errors.New("no NATS URL")
	}
	opts = append([]nats.Option{
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.RetryOnFailedConnect(false),
		nats.ReconnectWait(250 * time.Millisecond),
	}, opts...)
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to NATS at %s: %w", url, err)
	}
	return nc, nil
}

// adoptGlobalAccount moves the streams of a data directory written before
// authentication (in the server's global account, $G) into the account
// they live in now, so an upgrade keeps its registry, audit and results.
func adoptGlobalAccount(dataDir, account string) error {
	old := filepath.Join(dataDir, server.JetStreamStoreDir, server.DEFAULT_GLOBAL_ACCOUNT)
	now := filepath.Join(dataDir, server.JetStreamStoreDir, account)
	if _, err := os.Stat(old); err != nil {
		return nil
	}
	if _, err := os.Stat(now); err == nil {
		return nil
	}
	if err := os.Rename(old, now); err != nil {
		return fmt.Errorf("move the streams of %s (written before authentication) into account %s: %w", old, account, err)
	}
	return nil
}

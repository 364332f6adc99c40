package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/gateway"
	"github.com/toolyard/toolyard/workers/session"
)

func newMCP(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Toolyard as an MCP server (the gateway facade)",
	}
	cmd.AddCommand(newMCPServe(g))
	return cmd
}

func newMCPServe(g *globalFlags) *cobra.Command {
	var (
		stdio   bool
		addr    string
		sess    string
		timeout time.Duration
		tokens  string
	)
	c := &cobra.Command{
		Use:   "serve (--stdio | --http ADDR)",
		Short: "Serve MCP clients: a handful of tools in front of the whole registry",
		Long: `An MCP server in front of a running Toolyard (toolyard up, or workers with the session
service, at --nats). Each MCP connection is a Toolyard session. Its tools/list holds:

  find_tools      search the registry, add the good matches to the list
  activate        add a tool by id to the list
  resolve_intent  say what you want in plain words: the right tool is found, filled and run
  execute         run any registered tool by id with arguments

plus the session's active tools (seeded from its first intent, grown by find_tools and
activate), named by id with "/" as "." (fs/read_file → fs.read_file). When the set
changes the server sends notifications/tools/list_changed. Calls run through the
pipeline as direct calls: the same guard, permissions and exactly-once effects.

--stdio serves one client on standard input/output (logs go to stderr) under --session
(default: a new id). --http ADDR serves streamable HTTP at http://ADDR/mcp; each MCP
session gets its own Toolyard session, named by the X-Toolyard-Session header or the
?session= query parameter when given.

Over HTTP the gateway acts with its own NATS credential for whoever reaches it, so
an address other machines can reach needs --tokens FILE: clients then send
"Authorization: Bearer TOKEN", and each token acts only for its sessions. A line
of FILE is a token (at least 32 characters) and the sessions it may act for: ids,
or prefixes ending in '*' (a client naming no session gets a new one under the
first prefix). Without --tokens the address must be a loopback one.`,
		Example: `  toolyard mcp serve --stdio --session claude-desktop
  toolyard mcp serve --http 127.0.0.1:8765
  echo "$(openssl rand -hex 16) team-a-*" > tokens && chmod 600 tokens && toolyard mcp serve --http 0.0.0.0:8765 --tokens tokens
  npx @modelcontextprotocol/inspector --cli toolyard mcp serve --stdio --method tools/list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if stdio == (addr != "") {
				return errors.New("choose one transport: --stdio or --http ADDR")
			}
			if timeout <= 0 {
				return fmt.Errorf("--timeout %s: want a positive duration (every call would fail at once)", timeout)
			}
			if addr != "" {
				// Checked before connecting: a bad address is the cause,
				// whatever NATS says.
				if _, _, err := net.SplitHostPort(addr); err != nil {
					return fmt.Errorf("--http %q: want HOST:PORT: %w", addr, err)
				}
				if tokens == "" && !loopbackOnly(addr) {
					return fmt.Errorf("--http %s is reachable from other machines, and the gateway acts with its NATS credential for every client: give --tokens FILE (bearer tokens, each limited to its sessions), or serve on 127.0.0.1", addr)
				}
			}
			var toks mcpTokens
			if tokens != "" {
				if addr == "" {
					return errors.New("--tokens is for --http: a stdio client is the process that started the gateway")
				}
				var err error
				if toks, err = readMCPTokens(tokens); err != nil {
					return err
				}
			}
			ctx := cmd.Context()
			// Fails at once when NATS is down at start; later, reconnects
			// with growing waits and says so once per change of state.
			nc, err := g.connect("toolyard-mcp", connStateLog(g.nats)...)
			if err != nil {
				return withUpHint(err)
			}
			defer nc.Close()
			backend, err := gateway.NewNATS(nc, timeout)
			if err != nil {
				return err
			}
			gw := gateway.New(backend, gateway.WithLogger(slog.Default()), gateway.WithVersion(buildVersion()))
			if stdio {
				if sess == "" {
					sess = "mcp-" + nuid.Next()
				}
				if err := session.CheckID(sess); err != nil {
					return fmt.Errorf("--session: %w", err)
				}
				slog.Info("MCP gateway on stdio", "session", sess, "nats", g.nats)
				err := gw.Server(ctx, sess).Run(ctx, gateway.StdioTransport(os.Stdin, os.Stdout, slog.Default()))
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
			return serveMCPHTTP(ctx, gw, addr, toks)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&stdio, "stdio", false, "serve one client on standard input and output")
	fl.StringVar(&addr, "http", "", "serve streamable HTTP on ADDR (host:port), endpoint /mcp")
	fl.StringVar(&sess, "session", "", "Toolyard session id of the stdio client (default: a new one)")
	fl.DurationVar(&timeout, "timeout", 60*time.Second, "how long a request or a tool run may take")
	fl.StringVar(&tokens, "tokens", "", "with --http: bearer tokens clients must send, one per line with the sessions it may act for (required unless --http is a loopback address)")
	return c
}

// connStateLog reconnects with reconnectDelay and logs one line per change
// of the connection's state. Closing the connection on the way out is no
// loss: it is not logged as one.
func connStateLog(url string) []nats.Option {
	return []nats.Option{
		nats.CustomReconnectDelay(reconnectDelay),
		nats.DisconnectErrHandler(func(c *nats.Conn, err error) {
			if c.IsClosed() {
				return
			}
			slog.Warn("NATS connection lost; MCP calls fail until it is back, reconnecting", "nats", url, "error", err)
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { slog.Info("NATS connection back", "nats", c.ConnectedUrl()) }),
	}
}

// reconnectDelay backs off from a quarter second to five seconds between
// reconnection attempts, with jitter, so a gateway waiting out a NATS
// restart neither spins nor waits long after it is back.
func reconnectDelay(attempts int) time.Duration {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval, b.RandomizationFactor = 250*time.Millisecond, 5*time.Second, 0.2
	d := b.InitialInterval
	for range min(attempts, 20) {
		d = b.NextBackOff()
	}
	return d
}

// serveMCPHTTP serves the gateway over streamable HTTP; with tokens, every
// request needs one of them, and acts for the sessions it allows.
func serveMCPHTTP(ctx context.Context, gw *gateway.Gateway, addr string, tokens mcpTokens) error {
	handler := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		sess, _ := r.Context().Value(sessionKey{}).(string)
		if sess == "" {
			return nil // 400; checkRequestSession says why first
		}
		slog.Info("MCP client connected", "session", sess, "remote", r.RemoteAddr)
		return gw.Server(ctx, sess)
	}, &mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute})
	var h http.Handler = checkRequestSession(handler, tokens != nil)
	if tokens != nil {
		h = auth.RequireBearerToken(tokens.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--http %s: %w", addr, err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	slog.Info("MCP gateway listening", "url", "http://"+ln.Addr().String()+"/mcp")
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// sessionKey carries the session a request acts for, from
// checkRequestSession to the handler.
type sessionKey struct{}

// requestSession is the session an HTTP client names: the X-Toolyard-Session
// header, else the session query parameter ("" for none).
func requestSession(r *http.Request) string {
	if s := r.Header.Get("X-Toolyard-Session"); s != "" {
		return s
	}
	return r.URL.Query().Get("session")
}

// maxMCPBody bounds an MCP request body read for the UTF-8 check.
const maxMCPBody = 8 << 20

// checkRequestSession answers 400, with the rule broken, a request naming
// an invalid session or whose JSON body is not valid UTF-8, before the MCP
// handler sees it: the SDK's decoding would replace bad bytes and the
// request would run with text nobody wrote.
func checkRequestSession(next http.Handler, tokens bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		named := requestSession(r)
		if named != "" {
			if err := session.CheckID(named); err != nil {
				http.Error(w, "X-Toolyard-Session / session: "+err.Error(), http.StatusBadRequest)
				return
			}
		}
		sess, err := sessionFor(named, grantedSessions(r), tokens)
		if err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), sessionKey{}, sess))
		if r.Method == http.MethodPost && r.Body != nil {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMCPBody))
			if err != nil {
				http.Error(w, fmt.Sprintf("request body: %v (at most %d bytes)", err, maxMCPBody), http.StatusRequestEntityTooLarge)
				return
			}
			if err := schemas.CheckJSONUTF8(body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/roles"
	"github.com/toolyard/toolyard/workers/stages"
	statuspage "github.com/toolyard/toolyard/workers/status"
)

func newUp(g *globalFlags) *cobra.Command {
	var (
		sf         stageFlags
		data       string
		listen     string
		syncAlways bool
		external   bool
		replicas   int
		retention  []string
		maxStore   string
		srvTLS     serverTLSFlags
	)
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Run everything in one process: embedded NATS JetStream, every stage, metrics and status page",
		Long: `Starts an embedded NATS server with JetStream (files in --data), creates the
streams, and runs every stage (parse, discover, route, resolve, execute) in this
process, with metrics and a status page on --http.

Agents publish to agent.output.<session> on the printed NATS URL and read
result.<session>; 'toolyard publish' does both. More workers for any stage can
join from other processes with 'toolyard worker --stage S --nats URL'.

With --external, no server is embedded: the stages run against --nats.`,
		Example: `  toolyard up
  toolyard up --registry tools.jsonl --data /var/lib/toolyard --listen 0.0.0.0:4222
  toolyard up --external --nats nats://nats-1:4222,nats://nats-2:4222`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			log := slog.Default()
			if err := sf.check(); err != nil {
				return err
			}
			httpLn, err := sf.listenHTTP()
			if err != nil {
				return err
			}
			if httpLn != nil {
				defer httpLn.Close() // served below, which closes it when ctx ends; closed here on an early return
			}
			topo := pipeline.DefaultTopology().WithReplicas(replicas)
			for _, r := range retention {
				if err := topo.ParseLimits(r); err != nil {
					return err
				}
			}
			var js jetstream.JetStream
			var natsURL string
			// keysData is the --data that mints credentials: the data
			// directory, or with --external the keys' directory.
			keysData := data
			var ops *pipeline.Ops
			creds := g.conn.credsFile()
			if external {
				sf.guard.toolConn = g.toolConnector(&sf.guard)
				nc, err := g.connect("toolyard-up", g.refusal.observe(g.conn.credsFile()))
				if err != nil {
					return withUpHint(err)
				}
				defer drainWait(nc)
				natsURL, data = g.nats, "(external server)"
				keysData = keysDir(creds)
				if js, err = jetstream.New(nc); err != nil {
					return err
				}
				ops = pipeline.NewOps(nc)
				ops.Registry.MustRegister(stages.Collectors()...)
			} else {
				host, port, err := splitHostPort(listen)
				if err != nil {
					return err
				}
				tlsCfg, err := srvTLS.config(host)
				if err != nil {
					return err
				}
				storeCap, err := parseMaxStore(maxStore)
				if err != nil {
					return err
				}
				srv, err := pipeline.StartServer(pipeline.WithDataDir(data), pipeline.WithListen(host, port), pipeline.WithSyncAlways(syncAlways), pipeline.WithTLS(tlsCfg), pipeline.WithMaxStore(storeCap))
				if err != nil {
					return err
				}
				defer srv.Shutdown()
				if err := writeRoleCreds(data, srv.Keys()); err != nil {
					return err
				}
				creds = filepath.Join(data, credsDir, "admin.creds")
				sf.guard.toolConn = func() (*nats.Conn, error) {
					if sf.guard.toolCreds != "" {
						return g.toolConnector(&sf.guard)()
					}
					return embeddedToolConn(srv)
				}
				nc, err := srv.Connect()
				if err != nil {
					return err
				}
				defer drainWait(nc)
				natsURL = srv.ClientURL()
				if js, err = jetstream.New(nc); err != nil {
					return err
				}
				// Sizes an operator chose are kept (and refused, with the
				// reason, if they do not fit); the built-in ones shrink to
				// what the disk holds.
				if len(retention) == 0 {
					if topo, err = fitStore(ctx, topo, js, srv.MaxStore(), log); err != nil {
						return err
					}
				}
				ops = pipeline.NewOps(nc)
				ops.Registry.MustRegister(stages.Collectors()...)
			}
			// Streams are created when missing and otherwise kept as they
			// are: an operator's changes survive a restart. Differences from
			// this configuration are said once, with how to apply them.
			tctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			err = topo.Ensure(tctx, js)
			var diffs []string
			if err == nil {
				diffs, err = topo.Differences(tctx, js)
			}
			cancel()
			if err != nil {
				return err
			}
			if len(diffs) > 0 {
				log.Warn("streams differ from this configuration and are kept as they are; apply it with 'toolyard streams apply' (with the same --replicas and --retention)",
					"differences", diffs)
			}
			retired, err := retireConsumers(ctx, js)
			if err != nil {
				return err
			}
			for _, c := range retired {
				log.Info("deleted a consumer this version no longer reads", "stream", c.Stream, "consumer", c.Name, "why", c.Why)
			}
			set, err := sf.followRegistry(ctx, js, true, log)
			if err != nil {
				return err
			}
			statusURL, metricsURL := "(disabled: --http is empty)", "(disabled: --http is empty)"
			if httpLn != nil {
				page, status := statuspage.Handlers(js)
				ops.Handle("GET /{$}", page)
				ops.Handle("GET /status.json", status)
				base := "http://" + ops.Serve(ctx, httpLn, log)
				statusURL, metricsURL = base+"/", base+"/metrics"
			}
			// The service answers before "up" is printed: whoever reads it
			// may send a request at once.
			stopService, err := sf.sess.startService(js, set, log)
			if err != nil {
				return err
			}
			defer stopService()
			// "up" is printed once every stage takes work: the command it
			// shows may be run at once.
			banner := func() {
				fmt.Fprintf(cmd.OutOrStdout(), `Toolyard is up.
  NATS:      %s
  data:      %s
  status:    %s
  metrics:   %s
  tools:     %d
  discovery: %s
  stages:    %v (concurrency %d each)
Publish:   %s publish%s --session demo --wait "[TOOL: how long has the system been up]"
Access:    anonymous clients are refused. Admin: %s; workers: %s;
           an agent, for its own session only: %s creds agent --data %s --session demo --out demo.creds
Stop with Ctrl-C.
`, natsURL, data, statusURL, metricsURL, set.Registry().Len(), sf.discovery, bind.Stages, sf.concurrency, os.Args[0], clientFlags(natsURL, creds),
					orNoCreds(creds), orNoCreds(siblingCreds(creds, "worker.creds")), os.Args[0], keysData)
			}
			err = sf.runStages(ctx, js, set, sf.withPrefetch(sf.sess.withStages(bind.Stages)), ops.Metrics, log, banner)
			log.Info("stopped")
			return err
		},
	}
	sf.register(cmd, "127.0.0.1:7070")
	cmd.Flags().StringVar(&data, "data", pipeline.DefaultDataDir(), "JetStream data directory (env TOOLYARD_DATA)")
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:4222", "address the embedded NATS server listens on")
	cmd.Flags().BoolVar(&syncAlways, "sync-always", false, "fsync every write (survives power loss, slower); by default writes are flushed before they are acknowledged and fsynced periodically")
	cmd.Flags().IntVar(&replicas, "replicas", 1, "stream replicas (with --external on a cluster: 3 keeps data through the loss of a server)")
	cmd.Flags().StringArrayVar(&retention, "retention", nil, "stream limits STREAM=MAXAGE[:MAXBYTES], and for DLQ MAXAGE[:MAXBYTES[:PERSTAGE]] (dead letters each stage may hold), repeatable (defaults: AGENT, PIPE, RESULT 24h:1GiB; AUDIT 720h:10GiB; DLQ 720h:1GiB:8192)")
	cmd.Flags().StringVar(&maxStore, "max-store", "", "disk JetStream may use under --data, e.g. 20GiB (default: three quarters of the free disk at start); the streams' built-in sizes shrink to fit it")
	cmd.Flags().BoolVar(&external, "external", false, "use the NATS server at --nats instead of embedding one")
	srvTLS.register(cmd)
	return cmd
}

func splitHostPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("--listen %q: %w", addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("--listen %q: port must be 0–65535", addr)
	}
	if port == 0 {
		port = -1 // the server reads 0 as "default"; 0 here means "any free port"
	}
	return host, port, nil
}

// clientFlags are the flags a client command needs to reach this server:
// --nats unless the URL is the one clients assume, --creds unless the
// credential is the one they find by themselves.
func clientFlags(natsURL, creds string) string {
	var s string
	if natsURL != defaultNATS {
		s += " --nats " + natsURL
	}
	if creds != "" && creds != (&connFlags{}).credsFile() {
		s += " --creds " + creds
	}
	return s
}

func orNoCreds(s string) string {
	if s == "" {
		return "(none given)"
	}
	return s
}

// siblingCreds is the file named name next to creds, when creds is one
// that up wrote.
// keysDir is the directory whose auth/ holds the keys that signed creds,
// when creds sits where 'creds server-config --data KEYS' wrote it
// (KEYS/creds/admin.creds beside KEYS/auth): the --data that mints an
// agent's credential. Otherwise "KEYS", for the operator to fill in.
func keysDir(creds string) string {
	if creds != "" && filepath.Base(filepath.Dir(creds)) == credsDir {
		dir := filepath.Dir(filepath.Dir(creds))
		if _, err := os.Stat(filepath.Join(dir, auth.KeysDir)); err == nil {
			return dir
		}
	}
	return "KEYS"
}

func siblingCreds(creds, name string) string {
	if creds == "" || filepath.Base(creds) != "admin.creds" {
		return ""
	}
	return filepath.Join(filepath.Dir(creds), name)
}

// retireConsumers deletes the durable consumers this version's stages no
// longer read (roles.Retired) and returns those it found.
func retireConsumers(ctx context.Context, js jetstream.JetStream) ([]roles.Consumer, error) {
	var deleted []roles.Consumer
	for _, c := range roles.Retired {
		err := js.DeleteConsumer(ctx, c.Stream, c.Name)
		switch {
		case err == nil:
			deleted = append(deleted, c)
		case errors.Is(err, jetstream.ErrConsumerNotFound), errors.Is(err, jetstream.ErrStreamNotFound):
		default:
			return deleted, fmt.Errorf("delete the retired consumer %s on %s: %w", c.Name, c.Stream, err)
		}
	}
	return deleted, nil
}

// parseMaxStore reads --max-store; empty is the server's default (0).
func parseMaxStore(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := pipeline.ParseBytes(s)
	if err != nil || n < pipeline.MinStreamBytes {
		return 0, fmt.Errorf("--max-store %q: want a size of at least %s, like 20GiB", s, pipeline.FormatBytes(pipeline.MinStreamBytes))
	}
	return n, nil
}

// fitStore scales the topology's stream sizes down to what the embedded
// server's store holds, and says so once.
func fitStore(ctx context.Context, topo pipeline.Topology, js jetstream.JetStream, maxStore int64, log *slog.Logger) (pipeline.Topology, error) {
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	fitted, changed, err := topo.FitTo(tctx, js, maxStore)
	if err != nil {
		return topo, fmt.Errorf("%w (raise it with --max-store if the disk has room)", err)
	}
	if changed {
		log.Warn("JetStream's store (three quarters of the free disk under --data, or --max-store) holds less than the streams' built-in sizes; streams created now are scaled down to fit, existing ones keep their sizes (choose sizes with --retention STREAM=AGE:SIZE, or free disk)",
			"store", pipeline.FormatBytes(maxStore), "built_in", pipeline.FormatBytes(topo.Reserved()), "sizes", fitted.Sizes())
	}
	return fitted, nil
}

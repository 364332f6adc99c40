package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
	"github.com/toolyard/toolyard/workers/stages"
)

// sessionFlags are the settings of session tool sets and of the toolyard
// micro service, shared by up and worker.
type sessionFlags struct {
	on      bool
	ttl     time.Duration
	seedK   int
	seedMin float64
	service bool
	cmd     *cobra.Command
}

func (f *sessionFlags) register(cmd *cobra.Command) {
	f.cmd = cmd
	fl := cmd.Flags()
	fl.BoolVar(&f.on, "sessions", true, "keep each session's active tool set (KV bucket sessions): seeded from its first output, grown by find_tools and activate")
	fl.DurationVar(&f.ttl, "session-ttl", session.DefaultTTL, "how long an idle session's tool set lives (applies when the sessions bucket is created)")
	fl.IntVar(&f.seedK, "seed-k", session.DefaultSeedK, "tools a session's set is seeded with at most")
	fl.Float64Var(&f.seedMin, "seed-min-confidence", session.DefaultSeedMinConf, "confidence a tool needs to be seeded or added by find_tools")
	fl.BoolVar(&f.service, "service", cmd.Name() == "up", "answer the NATS micro service \"toolyard\" (toolyard.resolve_intent.SESSION, find_tools, activate, tools.list, tools.get, session.end, feedback)")
}

// config opens the session store when sessions are on.
func (f *sessionFlags) config(ctx context.Context, js jetstream.JetStream, log *slog.Logger) (*stages.SessionConfig, error) {
	if !f.on {
		return nil, nil
	}
	st, err := session.Open(ctx, js, session.WithTTL(f.ttl), session.WithLogger(log))
	if err != nil {
		return nil, err
	}
	return &stages.SessionConfig{Store: st, Seed: []session.SeedOption{
		session.WithSeedK(f.seedK), session.WithSeedMinConfidence(f.seedMin),
	}, RequireVectors: f.remoteEmbedder()}, nil
}

// remoteEmbedder reports whether the stage flags ask for a remote embedder
// (ollama, openai) with vectors in use: if it is down at start, discovery
// goes keyword-only and session sets must fail safe. The local embedder
// missing its vectors is a build choice, not a failure.
func (f *sessionFlags) remoteEmbedder() bool {
	if f.cmd == nil {
		return false
	}
	flag := func(name string) string {
		if fl := f.cmd.Flags().Lookup(name); fl != nil {
			return strings.ToLower(fl.Value.String())
		}
		return ""
	}
	p := flag("embedder")
	return (p == "ollama" || p == "openai") && flag("discovery") != "keyword"
}

// withStages adds the session stage to names when sessions are on.
func (f *sessionFlags) withStages(names []string) []string {
	if !f.on {
		return names
	}
	return append(append([]string(nil), names...), session.StageName)
}

// startService starts the agents' JetStream proxy, and the micro service
// when asked; stop both with the result.
func (f *sessionFlags) startService(js jetstream.JetStream, set *stages.Set, log *slog.Logger) (func(), error) {
	proxy, err := service.StartAPIProxy(js.Conn(), log)
	if err != nil {
		return nil, err
	}
	stop := func() { _ = proxy.Stop() }
	if f.service {
		svc, err := service.Start(js.Conn(), set, service.WithLogger(log))
		if err != nil {
			stop()
			return nil, err
		}
		stop = func() { _ = svc.Stop(); _ = proxy.Stop() }
	}
	// Flushed, so the server knows the subscriptions before anyone is
	// told the process is ready.
	if err := js.Conn().Flush(); err != nil {
		stop()
		return nil, fmt.Errorf("start service %s: %w", service.Name, err)
	}
	if f.service {
		log.Info("service started", "name", service.Name, "subjects", "toolyard.>")
	}
	return stop, nil
}

func newSession(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "session",
		Short: "Inspect or end a session's active tool set",
		Long: `A session's active tool set is what its agent is shown beside the meta-tools:
seeded from the session's first output (the best --seed-k tools above
--seed-min-confidence), grown by find_tools and activate, cleared when the
session ends (agent.end.<session>, or 'toolyard session end') or has been idle
for the sessions bucket's TTL.

With an agent's credential ('toolyard creds agent') these commands ask its
session's endpoints of the micro service (toolyard.tools.list.S,
toolyard.session.end.S); with the admin's they read the sessions bucket.`,
	}
	endpoint := map[string]string{"end": service.SubjectSessionEnd, "tools": service.SubjectToolsList}
	// run checks the session id, opens the store and prints what do returns.
	run := func(do func(ctx context.Context, st *session.Store, id string) (any, error)) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, args []string) error {
			if err := session.CheckID(args[0]); err != nil {
				return err
			}
			// An agent's credential may not open the sessions bucket, only
			// call its sessions' endpoints, which answer the same.
			if file := g.conn.credsFile(); file != "" {
				if inbox, err := auth.InboxPrefix(file); err == nil && inbox != "" {
					return sessionByService(cmd, g, endpoint[cmd.Name()], args[0])
				}
			}
			st, done, err := openClient(g, "toolyard-session", func(js jetstream.JetStream) (*session.Store, error) {
				return session.Open(cmd.Context(), js)
			})
			if err != nil {
				return err
			}
			defer done()
			v, err := do(cmd.Context(), st, args[0])
			if err != nil {
				return err
			}
			return printJSON(cmd, v)
		}
	}
	end := &cobra.Command{
		Use:   "end SESSION",
		Short: "Clear a session's active tool set now",
		Long: `Clears the session's active tool set, as an agent.end.<session> message does.
The next output of the session seeds a new set. Prints {"session_id", "ended", "cleared"}.`,
		Example: `  toolyard session end demo`,
		Args:    cobra.ExactArgs(1),
		RunE: run(func(ctx context.Context, st *session.Store, id string) (any, error) {
			n, err := st.End(ctx, id)
			if err != nil {
				return nil, err
			}
			return service.EndReply{SessionID: id, Ended: true, Cleared: n}, nil
		}),
	}
	tools := &cobra.Command{
		Use:     "tools SESSION",
		Short:   "Print a session's active tool set as JSON",
		Example: `  toolyard session tools demo`,
		Args:    cobra.ExactArgs(1),
		RunE: run(func(ctx context.Context, st *session.Store, id string) (any, error) {
			return st.Get(ctx, id)
		}),
	}
	cmd.AddCommand(end, tools)
	return cmd
}

// sessionByService asks the micro service's endpoint for the session and
// prints its reply.
func sessionByService(cmd *cobra.Command, g *globalFlags, endpoint, id string) error {
	nc, err := g.clientConnect("toolyard-session")
	if err != nil {
		return withUpHint(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
	defer cancel()
	data, err := requestService(ctx, nc, service.SessionSubject(endpoint, id), []byte("{}"))
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(cmd.OutOrStdout(), string(data))
	return err
}

func printJSON(cmd *cobra.Command, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(cmd.OutOrStdout(), string(data))
	return err
}

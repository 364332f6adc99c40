// Command toolyard runs the Toolyard pipeline: an embedded NATS server with
// every stage (up), single stages against a NATS cluster (worker), and the
// client commands agents and operators use (publish, tools).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// defaultNATS is where client commands look for the server `toolyard up` starts.
const defaultNATS = "nats://127.0.0.1:4222"

type globalFlags struct {
	nats     string
	conn     connFlags
	logLevel string
	logJSON  bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := newRoot().ExecuteContext(ctx)
	var ec exitCode
	switch {
	case errors.As(err, &ec):
		os.Exit(int(ec))
	case err != nil:
		fmt.Fprintln(os.Stderr, "toolyard:", withDeniedHint(err))
		os.Exit(1)
	}
}

// exitCode ends the process with a status and no further message.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func newRoot() *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:   "toolyard",
		Short: "Turn the tool intents agents write in plain words into executed tool calls",
		Long: `Toolyard lets an agent write what it wants in plain words — [TOOL: show disk usage
for /tmp] — and does the rest: a chain of NATS JetStream workers parses the intents,
discovers the right tool, routes by confidence, resolves arguments, executes, and
publishes the result back on result.<session>.

Start everything in one process with 'toolyard up', publish agent output with
'toolyard publish', and scale out with 'toolyard worker --stage S' processes
against the same NATS server or cluster.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			setupLogging(g)
		},
	}
	root.PersistentFlags().StringVar(&g.nats, "nats", envOr("TOOLYARD_NATS", envOr("NATS_URL", defaultNATS)), "NATS server or cluster URL (env TOOLYARD_NATS or NATS_URL)")
	g.conn.register(root.PersistentFlags())
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	root.PersistentFlags().BoolVar(&g.logJSON, "log-json", false, "log as JSON lines")
	root.AddCommand(newUp(g), newWorker(g), newPublish(g), newTools(g), newEval(g), newTrain(g), newReplay(g), newAudit(g), newFeedback(g), newModels(g), newDLQ(g), newStreams(g), newDocs(g), newSession(g), newOutputs(g), newMCP(g), newCreds(), newBench(g))
	return root
}

func setupLogging(g *globalFlags) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(g.logLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if g.logJSON {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	// No log line holds a secret of a message the process is handling.
	slog.SetDefault(slog.New(redactLogs(h)))
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

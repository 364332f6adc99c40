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
	"strings"
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
	// refusal ends a client command when the server refuses it.
	refusal *refusal
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := &globalFlags{}
	err := newRootFor(g).ExecuteContext(ctx)
	if refused := g.refusal.refused(); refused != nil && err != nil {
		if g.refusal.cancelled() {
			// Whatever the command was waiting for when the server
			// refused it, the refusal is the cause.
			err = refused
		} else {
			err = fmt.Errorf("%w; earlier, %v", err, refused)
		}
	}
	var ec exitCode
	switch {
	case errors.As(err, &ec):
		os.Exit(int(ec))
	case err != nil && ctx.Err() != nil:
		// Ctrl-C or SIGTERM ended the command: say so rather than
		// report the "context canceled" it caused, and exit as a shell
		// does for an interrupted command.
		fmt.Fprintln(os.Stderr, "toolyard: interrupted:", err)
		os.Exit(130)
	case err != nil:
		fmt.Fprintln(os.Stderr, "toolyard:", err)
		os.Exit(1)
	}
}

// exitCode ends the process with a status and no further message.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func newRoot() *cobra.Command { return newRootFor(&globalFlags{}) }

func newRootFor(g *globalFlags) *cobra.Command {
	if g.refusal == nil {
		g.refusal = &refusal{}
	}
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
		Version:       buildVersion(),
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := setupLogging(g); err != nil {
				return err
			}
			cmd.SetContext(g.refusal.withContext(cmd.Context()))
			return nil
		},
	}
	root.PersistentFlags().StringVar(&g.nats, "nats", envOr("TOOLYARD_NATS", envOr("NATS_URL", defaultNATS)), "NATS server or cluster URL (env TOOLYARD_NATS or NATS_URL)")
	g.conn.register(root.PersistentFlags())
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	root.PersistentFlags().BoolVar(&g.logJSON, "log-json", false, "log as JSON lines")
	root.AddCommand(newUp(g), newWorker(g), newPublish(g), newTools(g), newEval(g), newTrain(g), newReplay(g), newAudit(g), newFeedback(g), newModels(g), newDLQ(g), newStreams(g), newDocs(g), newSession(g), newOutputs(g), newMCP(g), newCreds(), newBench(g))
	refuseUnknownSubcommands(root)
	return root
}

// groupOnly marks a command that only groups others (its run refuses
// anything but --help), so the CLI reference shows no use line for it.
const groupOnly = "toolyard/group-only"

// refuseUnknownSubcommands makes every command that only groups others
// (dlq, tools, models, …) refuse a name that is none of them. Cobra checks
// that on the root only: below it, it printed the group's help and exited
// 0, so a misspelt 'toolyard dlq purg --yes' passed for done.
func refuseUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		if sub.HasSubCommands() && !sub.Runnable() {
			sub.Annotations = map[string]string{groupOnly: "true"}
			sub.SuggestionsMinimumDistance = 2
			sub.Args = cobra.ArbitraryArgs
			sub.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) == 0 {
					return cmd.Help()
				}
				hint := ""
				if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
					hint = " (did you mean " + strings.Join(s, " or ") + "?)"
				}
				return fmt.Errorf("unknown command %q for %q%s; see '%s --help'", args[0], cmd.CommandPath(), hint, cmd.CommandPath())
			}
		}
		refuseUnknownSubcommands(sub)
	}
}

func setupLogging(g *globalFlags) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(g.logLevel)); err != nil {
		return fmt.Errorf("--log-level %q: want debug, info, warn or error", g.logLevel)
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if g.logJSON {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	// No log line holds a secret of a message the process is handling.
	slog.SetDefault(slog.New(redactLogs(h)))
	return nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

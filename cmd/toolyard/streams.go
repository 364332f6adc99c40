package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
)

func newStreams(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "streams",
		Short: "Toolyard's JetStream streams: show how they differ from a configuration, apply it",
		Long: `toolyard up and toolyard worker create missing streams and never change existing
ones, so the limits and replicas an operator set survive restarts. They warn when
the streams differ from their configuration; 'streams apply' is the explicit update.
It also deletes the durable consumers an earlier version's stages created and this
one's no longer read ('up' does that at start; a cluster run by workers alone needs
'streams apply' after an upgrade).`,
	}
	var (
		replicas  int
		retention []string
		yes       bool
	)
	// differences connects and compares the streams with the configuration
	// the flags describe; close ends the connection.
	differences := func(cmd *cobra.Command) (topo pipeline.Topology, js jetstream.JetStream, diffs []string, close func(), err error) {
		topo = pipeline.DefaultTopology().WithReplicas(replicas)
		for _, r := range retention {
			if err := topo.ParseLimits(r); err != nil {
				return topo, nil, nil, nil, err
			}
		}
		js, close, err = openClient(g, "toolyard streams", func(js jetstream.JetStream) (jetstream.JetStream, error) { return js, nil })
		if err != nil {
			return topo, nil, nil, nil, err
		}
		if diffs, err = topo.Differences(cmd.Context(), js); err != nil {
			close()
			return topo, nil, nil, nil, err
		}
		return topo, js, diffs, close, nil
	}
	var exitOnDiff bool
	diff := &cobra.Command{
		Use: "diff", Short: "Show how the streams differ from the configuration (built-in defaults, --replicas, --retention)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			topo, js, diffs, closeNC, err := differences(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			missing, err := topo.Missing(cmd.Context(), js)
			if err != nil {
				return err
			}
			for _, name := range missing {
				fmt.Fprintf(cmd.OutOrStdout(), "%s does not exist yet: 'toolyard streams apply' creates it\n", name)
			}
			for _, d := range diffs {
				fmt.Fprintln(cmd.OutOrStdout(), d)
			}
			if len(diffs) == 0 && len(missing) == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), "the streams match the configuration")
				return nil
			}
			if exitOnDiff {
				// As 'git diff --exit-code': a check a script or a
				// deploy job can act on.
				return exitCode(1)
			}
			return nil
		},
	}
	diff.Flags().BoolVar(&exitOnDiff, "exit-code", false, "exit with status 1 when anything differs or is missing (0 when the streams match), for scripts and deploy checks")
	apply := &cobra.Command{
		Use: "apply", Short: "Update the streams to the configuration, after showing what changes", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			topo, js, diffs, closeNC, err := differences(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			retired, err := retireConsumers(cmd.Context(), js)
			for _, c := range retired {
				fmt.Fprintf(cmd.OutOrStdout(), "deleted the consumer %s on %s: %s\n", c.Name, c.Stream, c.Why)
			}
			if err != nil {
				return err
			}
			missing, err := topo.Missing(cmd.Context(), js)
			if err != nil {
				return err
			}
			if len(diffs) == 0 {
				if err := topo.Ensure(cmd.Context(), js); err != nil {
					return err
				}
				if len(missing) > 0 {
					// Say so: an operator creating a cluster's streams
					// wants to see them made, at the replicas asked for.
					fmt.Fprintf(cmd.OutOrStdout(), "created %s (%d replica(s))\n", strings.Join(missing, ", "), max(replicas, 1))
					return nil
				}
				fmt.Fprintln(cmd.OutOrStdout(), "the streams match the configuration: nothing to apply")
				return nil
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "changes:\n  %s\n", strings.Join(diffs, "\n  "))
			if !yes && !confirm(cmd, "apply them?") {
				return errors.New("nothing changed (confirm with --yes)")
			}
			if err := topo.Apply(cmd.Context(), js); err != nil {
				return err
			}
			if len(missing) > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "created %s (%d replica(s))\n", strings.Join(missing, ", "), max(replicas, 1))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d settings applied\n", len(diffs))
			return nil
		},
	}
	apply.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask")
	for _, c := range []*cobra.Command{diff, apply} {
		c.Flags().IntVar(&replicas, "replicas", 1, "stream replicas (3 on a cluster keeps data through the loss of a server)")
		c.Flags().StringArrayVar(&retention, "retention", nil, "stream limits STREAM=MAXAGE[:MAXBYTES] (DLQ: MAXAGE[:MAXBYTES[:PERSTAGE]]), repeatable, as for up")
	}
	cmd.AddCommand(diff, apply)
	return cmd
}

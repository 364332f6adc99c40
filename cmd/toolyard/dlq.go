package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/session"
	"github.com/toolyard/toolyard/workers/stages"
)

func newDLQ(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dlq",
		Short: "Dead letters: list, show, replay or purge what a stage gave up on",
		Long: `A message a stage could not process (bad input, or its workers kept dying) is kept in
the DLQ stream (dlq.<stage>) with its headers and why. list and show read it;
replay puts an entry back where it was given up (once: replaying the same entry
again does nothing, and the stages treat a replayed message like any redelivery);
purge removes entries.`,
	}
	open := func() (jetstream.JetStream, func(), error) {
		return openClient(g, "toolyard dlq", func(js jetstream.JetStream) (jetstream.JetStream, error) { return js, nil })
	}
	var stage, since string
	// openForStage is open for the subcommands that take --stage, which
	// they check first (checkDLQStage).
	openForStage := func(ctx context.Context) (jetstream.JetStream, func(), error) {
		js, closeNC, err := open()
		if err != nil {
			return nil, nil, err
		}
		if err := checkDLQStage(ctx, js, stage); err != nil {
			closeNC()
			return nil, nil, err
		}
		return js, closeNC, nil
	}
	var asJSON bool
	list := &cobra.Command{
		Use: "list [--stage S] [--since D]", Short: "List dead letters, oldest first", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			from, err := parseSince(since)
			if err != nil {
				return fmt.Errorf("--since: %w", err)
			}
			js, closeNC, err := openForStage(cmd.Context())
			if err != nil {
				return err
			}
			defer closeNC()
			enc := json.NewEncoder(cmd.OutOrStdout())
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			if !asJSON {
				fmt.Fprintln(tw, "ID\tSTAGE\tTIME\tSUBJECT\tDELIVERIES\tREASON")
			}
			n := 0
			err = pipeline.DeadLetters(cmd.Context(), js, stage, from, func(d pipeline.DeadLetter) error {
				n++
				if asJSON {
					return enc.Encode(d)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\n", d.ID, d.Stage, d.Time.Format("2006-01-02 15:04:05"), d.Subject, d.Deliveries, clipLine(d.Reason, 100))
				return nil
			})
			if err != nil {
				return err
			}
			if !asJSON {
				if n == 0 {
					fmt.Fprintln(tw, "(no dead letters)")
				}
				return tw.Flush()
			}
			return nil
		},
	}
	list.Flags().StringVar(&stage, "stage", "", "only this stage's dead letters")
	list.Flags().StringVar(&since, "since", "", "only those given up since (a duration back from now, or RFC 3339)")
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON lines")
	show := &cobra.Command{
		Use: "show ID", Short: "Print a dead letter: where it came from, why, and the message", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseID(args[0])
			if err != nil {
				return err
			}
			js, closeNC, err := open()
			if err != nil {
				return err
			}
			defer closeNC()
			d, err := pipeline.DeadLetterByID(cmd.Context(), js, id)
			if err != nil {
				return err
			}
			out := map[string]any{"dead_letter": d, "headers": d.Header}
			var payload any
			switch {
			case !utf8.Valid(d.Data):
				// Decoding would replace the bad bytes with U+FFFD and
				// hide what was wrong with the message: show them all.
				out["message_base64"] = base64.StdEncoding.EncodeToString(d.Data)
			case json.Unmarshal(d.Data, &payload) == nil:
				out["message"] = payload
			default:
				out["message_text"] = string(d.Data)
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(out)
		},
	}
	var all bool
	replay := &cobra.Command{
		Use: "replay ID… | --all [--stage S]", Short: "Put dead letters back where they were given up, and remove them from the DLQ",
		RunE: func(cmd *cobra.Command, args []string) error {
			if all == (len(args) > 0) {
				return errors.New("name the dead letters to replay (IDs from 'toolyard dlq list'), or --all")
			}
			js, closeNC, err := openForStage(cmd.Context())
			if err != nil {
				return err
			}
			defer closeNC()
			var ds []pipeline.DeadLetter
			if all {
				err = pipeline.DeadLetters(cmd.Context(), js, stage, time.Time{}, func(d pipeline.DeadLetter) error { ds = append(ds, d); return nil })
			} else {
				for _, a := range args {
					id, perr := parseID(a)
					if perr != nil {
						return perr
					}
					d, gerr := pipeline.DeadLetterByID(cmd.Context(), js, id)
					if gerr != nil {
						return gerr
					}
					ds = append(ds, d)
				}
			}
			if err != nil {
				return err
			}
			for _, d := range ds {
				if err := pipeline.Replay(cmd.Context(), js, d); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "replayed %d to %s\n", d.ID, d.Subject)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d replayed\n", len(ds))
			return nil
		},
	}
	replay.Flags().BoolVar(&all, "all", false, "replay every dead letter (of --stage)")
	replay.Flags().StringVar(&stage, "stage", "", "with --all: only this stage's")
	var yes bool
	purge := &cobra.Command{
		Use: "purge [--stage S]", Short: "Remove dead letters (all, or one stage's)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			js, closeNC, err := openForStage(cmd.Context())
			if err != nil {
				return err
			}
			defer closeNC()
			what := "every dead letter"
			if stage != "" {
				what = "the dead letters of stage " + stage
			}
			if !yes {
				if !confirm(cmd, "remove "+what+"?") {
					return errors.New("nothing removed (confirm with --yes)")
				}
			}
			n, err := pipeline.PurgeDeadLetters(cmd.Context(), js, stage)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d removed\n", n)
			return nil
		},
	}
	purge.Flags().StringVar(&stage, "stage", "", "only this stage's dead letters")
	purge.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask")
	cmd.AddCommand(list, show, replay, purge)
	return cmd
}

// checkDLQStage refuses a --stage that names no stage, so a misspelt one
// ("exectue") is an error rather than an empty list, a replay of nothing
// or a purge of nothing that looks like success. A name with entries in
// the DLQ (a stage of an earlier version) is accepted.
func checkDLQStage(ctx context.Context, js jetstream.JetStream, stage string) error {
	if stage == "" || stages.Valid(stage) {
		return nil
	}
	if !strings.ContainsAny(stage, ".*> \t") {
		if n, err := pipeline.DeadLetterCount(ctx, js, stage); err == nil && n > 0 {
			return nil
		}
	}
	return fmt.Errorf("--stage %q is not a stage (stages: %s, %s, %s)", stage, strings.Join(bind.Stages, ", "), predict.StageName, session.StageName)
}

func parseID(s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%q is not a dead letter id (a number from 'toolyard dlq list')", s)
	}
	return id, nil
}

// clipLine is s on one line, at most n runes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

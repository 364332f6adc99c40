package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

func newModels(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "models",
		Short: "Trained model versions: list, show, promote, roll back, prune",
		Long: `Model versions are written by 'toolyard train' (without --out) into the object store
bucket "models", with their record (manifest, metrics, eval guard verdict) in the KV
bucket "models". The version under model.current is in force on every discover
worker, which follows it and switches without a restart.`,
	}
	open := func(cmd *cobra.Command) (*models.Store, func(), error) {
		return openClient(g, "toolyard models", func(js jetstream.JetStream) (*models.Store, error) {
			return models.Open(cmd.Context(), js)
		})
	}
	list := &cobra.Command{
		Use: "list", Short: "List the stored versions, oldest first; * marks the one in force", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, closeNC, err := open(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			vs, err := st.Versions(cmd.Context())
			if err != nil {
				return err
			}
			cur, _, err := st.CurrentVersion(cmd.Context())
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "\tVERSION\tSTATUS\tSTORED\tEXAMPLES\tHIT@1 BEFORE→AFTER\tECE AFTER")
			for _, v := range vs {
				mark := ""
				if v.Manifest.Version == cur.Version {
					mark = "*"
				}
				m := v.Manifest.Metrics
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%.3f→%.3f\t%.3f\n", mark, v.Manifest.Version, v.Status, v.StoredAt.Format("2006-01-02 15:04"),
					v.Manifest.Trained.Examples, m["before_hit_at_1"], m["after_hit_at_1"], m["after_ece"])
			}
			if len(vs) == 0 {
				fmt.Fprintln(tw, "\t(no versions: run 'toolyard train')")
			}
			return tw.Flush()
		},
	}
	show := &cobra.Command{
		Use: "show VERSION|DIR", Short: "Print a version's record (manifest, metrics, guard verdict) as JSON; of a version directory ('train --out DIR'), its checked manifest", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			// As replay's and eval's --model take DIR|VERSION: a directory
			// written by 'train --out' is shown from its files, checked
			// against its manifest (it has no status or guard verdict).
			if fi, err := os.Stat(args[0]); err == nil && fi.IsDir() {
				b, err := bundle.ReadDir(args[0])
				if err != nil {
					return err
				}
				return enc.Encode(struct {
					Manifest bundle.Manifest `json:"manifest"`
				}{b.Manifest})
			}
			st, closeNC, err := open(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			info, err := st.Version(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			return enc.Encode(info)
		},
	}
	var force bool
	promote := &cobra.Command{
		Use: "promote VERSION", Short: "Put a version in force on every discover worker", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, closeNC, err := open(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			if err := st.Promote(cmd.Context(), args[0], force); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "model %s in force\n", args[0])
			return nil
		},
	}
	promote.Flags().BoolVar(&force, "force", false, "promote a version the eval guard refused")
	rollback := &cobra.Command{
		Use: "rollback", Short: "Put the version in force before the current one back in force", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, closeNC, err := open(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			v, err := st.Rollback(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "model %s in force\n", strings.TrimSpace(orNone(v)))
			return nil
		},
	}
	var keep int
	var dryRun bool
	prune := &cobra.Command{
		Use:   "prune [--keep N] [--dry-run]",
		Short: "Delete old versions: keep the one in force, the last N rollback reaches and the N newest",
		Long: `Every 'toolyard train' stores a version, and 'train' prunes after storing (its
--keep-versions). prune does the same on demand: it keeps the version in force, the
--keep versions 'models rollback' would go back to first, and the --keep newest
versions (candidates and refused ones included), and deletes every other version's
record and files. Rollback then reaches back --keep versions at most. Files of a
version with no record (a training stopped while storing it), older than an hour,
are deleted too. --dry-run prints what would go and changes nothing.`,
		Example: `  toolyard models prune --keep 5 --dry-run
  toolyard models prune --keep 5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, closeNC, err := open(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			rep, err := st.Prune(cmd.Context(), keep, dryRun)
			if err != nil {
				return err
			}
			printPrune(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	prune.Flags().IntVar(&keep, "keep", models.DefaultKeep, "newest versions to keep, and versions rollback may go back to (at least 1)")
	prune.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be deleted, delete nothing")
	cmd.AddCommand(list, show, promote, rollback, prune)
	return cmd
}

// printPrune reports what a prune deleted (or would).
func printPrune(w io.Writer, rep models.PruneReport) {
	verb := "deleted"
	if rep.DryRun {
		verb = "would delete"
	}
	fmt.Fprintf(w, "models: %s %d versions (%.1f MiB of files)", verb, len(rep.Deleted), float64(rep.FreedBytes)/(1<<20))
	if len(rep.Deleted) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(rep.Deleted, ", "))
	}
	fmt.Fprintln(w)
	if len(rep.Orphans) > 0 {
		fmt.Fprintf(w, "models: and the files of %d versions with no record: %s\n", len(rep.Orphans), strings.Join(rep.Orphans, ", "))
	}
	fmt.Fprintf(w, "models: kept %d versions; rollback reaches back %d\n", len(rep.Kept), len(rep.Rollback))
}

func orNone(v string) string {
	if v == "" {
		return "(none: discovery without a trained model)"
	}
	return v
}

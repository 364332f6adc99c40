package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/workers/models"
)

func newModels(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "models",
		Short: "Trained model versions: list, show, promote, roll back",
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
		Use: "show VERSION", Short: "Print a version's record (manifest, metrics, guard verdict) as JSON", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, closeNC, err := open(cmd)
			if err != nil {
				return err
			}
			defer closeNC()
			info, err := st.Version(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
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
	cmd.AddCommand(list, show, promote, rollback)
	return cmd
}

func orNone(v string) string {
	if v == "" {
		return "(none: discovery without a trained model)"
	}
	return v
}

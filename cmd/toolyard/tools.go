package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func newTools(_ *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List and search the tool registry",
	}
	var sf stageFlags
	var asJSON bool
	var k int
	list := &cobra.Command{
		Use:   "list",
		Short: "List the tools of the registry (with the builtin meta-tools)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			set, err := sf.stageSet(slog.New(slog.DiscardHandler))
			if err != nil {
				return err
			}
			tools := set.Registry().All()
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				for _, m := range tools {
					if err := enc.Encode(m); err != nil {
						return err
					}
				}
				return nil
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tRUNS\tDESCRIPTION")
			for _, m := range tools {
				runs := "-"
				if m.Executor != nil {
					runs = m.Executor.Kind
				}
				fmt.Fprintf(w, "%s\t%s\t%s\n", m.ID, runs, clip(m.Description, 80))
			}
			return w.Flush()
		},
	}
	search := &cobra.Command{
		Use:   "search QUERY…",
		Short: "Search the registry as the discover stage does and show confidence and tier",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := sf.stageSet(slog.New(slog.DiscardHandler))
			if err != nil {
				return err
			}
			query := strings.Join(args, " ")
			cands, err := set.Engine().Search(cmd.Context(), query, k, nil)
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(cands)
			}
			if len(cands) == 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "No tool matches %q.\n", query)
				return nil
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "CONFIDENCE\tID\tDESCRIPTION")
			for _, c := range cands {
				fmt.Fprintf(w, "%.2f\t%s\t%s\n", c.Confidence, c.ToolID, clip(c.Description, 70))
			}
			return w.Flush()
		},
	}
	for _, c := range []*cobra.Command{list, search} {
		c.Flags().StringVar(&sf.registry, "registry", "", "tool registry file (JSONL or JSON array); default: the built-in sample registry")
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	}
	search.Flags().IntVar(&k, "k", 10, "how many tools to show")
	cmd.AddCommand(list, search)
	return cmd
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

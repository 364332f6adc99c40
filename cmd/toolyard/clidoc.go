package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/pipeline"
)

//go:generate sh -c "go run . docs cli > ../../docs/cli.md"

// newDocs prints reference documentation generated from the command
// definitions, so the docs cannot drift from the binary (a test compares
// docs/cli.md with it).
func newDocs(_ *globalFlags) *cobra.Command {
	docs := &cobra.Command{Use: "docs", Short: "Print reference documentation generated from the commands", Hidden: true}
	docs.AddCommand(&cobra.Command{
		Use: "cli", Short: "The command-line reference as Markdown (docs/cli.md)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return writeCLIReference(cmd.OutOrStdout(), cmd.Root())
		},
	})
	return docs
}

// writeCLIReference writes every visible command: its use line, what it
// does, examples and flags, in command-tree order.
func writeCLIReference(w io.Writer, root *cobra.Command) error {
	stableDefaults(root)
	fmt.Fprintf(w, "# Command-line reference\n\nGenerated from the command definitions by `go generate ./cmd/toolyard` (`toolyard docs cli`); a test fails when this page is stale.\n\n")
	fmt.Fprintf(w, "Global flags:\n\n```\n%s```\n", root.PersistentFlags().FlagUsages())
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || !sub.IsAvailableCommand() && !sub.HasAvailableSubCommands() || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			fmt.Fprintf(w, "\n## %s\n\n%s\n", sub.CommandPath(), sub.Short)
			if sub.Runnable() && sub.Annotations[groupOnly] == "" {
				fmt.Fprintf(w, "\n```\n%s\n```\n", sub.UseLine())
			}
			if sub.Long != "" {
				fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(sub.Long))
			}
			if sub.Example != "" {
				fmt.Fprintf(w, "\nExamples:\n\n```sh\n%s\n```\n", strings.TrimRight(sub.Example, "\n"))
			}
			if fl := sub.LocalFlags().FlagUsages(); fl != "" {
				fmt.Fprintf(w, "\nFlags:\n\n```\n%s```\n", fl)
			}
			walk(sub)
		}
	}
	walk(root)
	return nil
}

// stableDefaults replaces defaults that come from this machine's
// environment (the data directory under the user's cache, TOOLYARD_NATS)
// with what they mean, so the page is the same wherever it is generated.
func stableDefaults(root *cobra.Command) {
	data := pipeline.DefaultDataDir()
	fix := func(f *pflag.Flag) {
		switch {
		case f.DefValue == data && data != "":
			f.DefValue = "$TOOLYARD_DATA, else toolyard in the user cache directory"
		case f.Name == "nats":
			f.DefValue = defaultNATS
		case f.Name == "creds" || f.Name == "tls-ca" || f.Name == "tls-cert" || f.Name == "tls-key":
			// Their defaults come from the environment (NATS_CREDS …),
			// which the page must not show a developer's values of.
			f.DefValue = ""
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(fix)
		c.PersistentFlags().VisitAll(fix)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/stages"
)

func newTools(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "Manage and search the tool registry",
		Long: `The registry lives in the JetStream KV bucket "tools" (one key per tool id) and
every worker follows it live: a tool imported here is searchable on every discover
worker within a second, a removed one disappears. list and search can also read a
registry file directly with --registry (no server needed).`,
	}
	cmd.AddCommand(newToolsImport(g), newToolsAdd(g), newToolsRemove(g), newToolsList(g), newToolsSearch(g))
	cmd.AddCommand(newToolsSign(g), newToolsKeygen(), newToolsVerify(g)) // signing: tools_sign.go
	return cmd
}

// openStore connects to NATS and opens the registry bucket.
func openStore(ctx context.Context, g *globalFlags) (*registry.Store, func(), error) {
	return openClient(g, "toolyard-tools", func(js jetstream.JetStream) (*registry.Store, error) {
		return registry.OpenStore(ctx, js)
	})
}

func newToolsImport(g *globalFlags) *cobra.Command {
	var namespace string
	var replace bool
	c := &cobra.Command{
		Use:   "import FILE…",
		Short: "Import manifests (JSONL or JSON array files) into the registry",
		Long: `Validates every manifest (id, description, a valid JSON Schema for parameters) and
imports them all or none. A tool identical to the registered one is left alone; a
different tool under a registered id is refused unless --replace.`,
		Example: `  toolyard tools import ops/sample/tools.jsonl
  toolyard tools import --namespace metatool ../shared/bench/metatool/tools.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var all []schemas.Manifest
			for _, f := range args {
				ms, err := registry.LoadFile(f)
				if err != nil {
					return err
				}
				all = append(all, ms...)
			}
			if namespace != "" {
				all = registry.Namespace(all, namespace)
			}
			return importManifests(cmd, g, all, replace)
		},
	}
	c.Flags().StringVar(&namespace, "namespace", "", "prefix every id with NAMESPACE/ (and set server to it where unset)")
	c.Flags().BoolVar(&replace, "replace", false, "overwrite registered tools that differ")
	c.AddCommand(newToolsImportMCP(g), newToolsImportKiwi(g)) // importers of other sources: tools_mcp.go, tools_kiwi.go
	c.AddCommand(newToolsImportNATS(g))
	return c
}

func newToolsAdd(g *globalFlags) *cobra.Command {
	var replace bool
	c := &cobra.Command{
		Use:     "add [MANIFEST.json | -]",
		Short:   "Add one tool from a manifest JSON object (a file, or standard input)",
		Example: `  echo '{"id": "ops/ping", "description": "Check that a host answers ping: is it up and reachable", "keywords": ["ping", "reachable", "is it up"], "parameters": {"type": "object", "required": ["host"], "properties": {"host": {"type": "string", "description": "Host name or IP address"}}}, "executor": {"kind": "subprocess", "argv": ["ping", "-c1", "{host}"], "timeout": "5s"}}' | toolyard tools add -`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var data []byte
			var err error
			if len(args) == 0 || args[0] == "-" {
				data, err = io.ReadAll(cmd.InOrStdin())
			} else {
				data, err = os.ReadFile(args[0])
			}
			if err != nil {
				return err
			}
			m, err := schemas.ValidateManifest(data)
			if err != nil {
				if manyManifests(data) {
					return fmt.Errorf("%w: tools add takes one manifest object; for a JSONL file or a JSON array use 'toolyard tools import FILE'", err)
				}
				return err
			}
			return importManifests(cmd, g, []schemas.Manifest{m}, replace)
		},
	}
	c.Flags().BoolVar(&replace, "replace", false, "overwrite the registered tool if it differs")
	return c
}

func importManifests(cmd *cobra.Command, g *globalFlags, ms []schemas.Manifest, replace bool) error {
	store, closeFn, err := openStore(cmd.Context(), g)
	if err != nil {
		return err
	}
	defer closeFn()
	rep, err := store.Import(cmd.Context(), ms, replace)
	if errors.Is(err, registry.ErrConflict) {
		return fmt.Errorf("%w; nothing imported (overwrite them with --replace, or give these tools other ids)", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d added, %d replaced, %d unchanged\n", len(rep.Added), len(rep.Replaced), len(rep.Unchanged))
	return nil
}

func newToolsRemove(g *globalFlags) *cobra.Command {
	var yes bool
	c := &cobra.Command{
		Use:   "remove ID|PREFIX/|GLOB…",
		Short: "Remove tools from the registry: by id, by prefix (ns/), or by glob ('github/*')",
		Long: `Removes tools from the registry; every worker drops them within a second.
An argument is a tool id, a prefix ending in / (everything an import put under a
namespace), or a glob (path.Match: *, ?, [...]). A prefix or glob lists what it
matches and asks before removing (--yes to skip the question); an argument that
matches nothing is an error, and nothing is removed then. The built-in tools
(toolyard/…, "builtin" in tools list) are part of every worker and cannot be
removed: naming one is an error, and a prefix or glob skips them.`,
		Example: `  toolyard tools remove ops/ping
  toolyard tools remove metatool/ --yes
  toolyard tools remove 'github/*issue*'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			store, closeFn, err := openStore(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer closeFn()
			all, err := store.List(cmd.Context())
			if err != nil {
				return err
			}
			ids, skipped, patterns, err := matchToolIDs(all, builtinIDs(), args)
			if err != nil {
				return fmt.Errorf("%w; nothing removed", err)
			}
			if len(skipped) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "skipping the built-in tools %s: they cannot be removed\n", strings.Join(skipped, ", "))
			}
			if patterns && !yes {
				what := "tools match"
				if len(ids) == 1 {
					what = "tool matches"
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "%d %s:\n  %s\n", len(ids), what, strings.Join(ids, "\n  "))
				if !confirm(cmd, "remove them?") {
					return errors.New("nothing removed (confirm with --yes)")
				}
			}
			missing, err := store.Remove(cmd.Context(), ids...)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d removed\n", len(ids)-len(missing))
			if len(missing) > 0 {
				return fmt.Errorf("not registered: %s", strings.Join(missing, ", "))
			}
			return nil
		},
	}
	c.Flags().BoolVarP(&yes, "yes", "y", false, "remove what a prefix or glob matches without asking")
	return c
}

// manyManifests says whether data is a JSON array or more than one JSON
// value (JSON lines): what tools import reads, not tools add.
func manyManifests(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var first json.RawMessage
	if dec.Decode(&first) != nil {
		return false
	}
	if t := bytes.TrimSpace(first); len(t) > 0 && t[0] == '[' {
		return true
	}
	var next json.RawMessage
	return dec.Decode(&next) == nil
}

// matchToolIDs expands the tool arguments of tools remove, sign and verify
// against the registry: ids as they are, prefixes ending in / and globs to
// the ids they match. patterns says whether any was a prefix or glob. An
// argument that matches nothing is an error before anything is done, as
// the help promises (a removal still reports a tool someone else removed
// meanwhile).
//
// builtin are the ids of the built-in tools (tools list shows them beside
// the registry's), which are part of every worker and cannot be removed: an
// argument naming one that the registry does not hold is an error saying
// so, and those a prefix or glob matches are left out, in skipped.
func matchToolIDs(all []schemas.Manifest, builtin []string, args []string) (ids, skipped []string, patterns bool, err error) {
	seen := map[string]bool{}
	registered := make(map[string]bool, len(all))
	for _, m := range all {
		registered[m.ID] = true
	}
	// A registry tool under a builtin's id is the registry's to remove.
	builtin = slices.DeleteFunc(slices.Clone(builtin), func(id string) bool { return registered[id] })
	for _, a := range args {
		prefix := strings.HasSuffix(a, "/")
		glob := strings.ContainsAny(a, "*?[")
		if !prefix && !glob {
			switch {
			case slices.Contains(builtin, a):
				return nil, nil, false, fmt.Errorf("%s is a built-in tool: built-in tools are part of every worker, not of the registry, and cannot be removed", a)
			case !registered[a]:
				return nil, nil, false, fmt.Errorf("not registered: %s", a)
			}
			if !seen[a] {
				seen[a] = true
				ids = append(ids, a)
			}
			continue
		}
		patterns = true
		if glob {
			if _, err := path.Match(a, ""); err != nil {
				return nil, nil, false, fmt.Errorf("%q: %w", a, err)
			}
		}
		matches := func(id string) bool {
			if glob {
				ok, _ := path.Match(a, id)
				return ok
			}
			return strings.HasPrefix(id, a)
		}
		n := 0
		for _, m := range all {
			if matches(m.ID) {
				n++
				if !seen[m.ID] {
					seen[m.ID] = true
					ids = append(ids, m.ID)
				}
			}
		}
		var builtins []string
		for _, id := range builtin {
			if matches(id) {
				builtins = append(builtins, id)
				if !seen[id] {
					seen[id] = true
					skipped = append(skipped, id)
				}
			}
		}
		switch {
		case n == 0 && len(builtins) > 0:
			return nil, nil, false, fmt.Errorf("%q matches only built-in tools (%s), which cannot be removed", a, strings.Join(builtins, ", "))
		case n == 0:
			return nil, nil, false, fmt.Errorf("%q matches no tool in the registry", a)
		}
	}
	return ids, skipped, patterns, nil
}

// builtinIDs are the ids of the built-in tools (matchToolIDs).
func builtinIDs() []string {
	var ids []string
	for _, m := range execute.BuiltinManifests() {
		ids = append(ids, m.ID)
	}
	return ids
}

// registryFlags select where list and search read the registry from.
type registryFlags struct {
	file   string
	asJSON bool
}

// register adds the flags; jsonHelp says what --json prints, which differs
// between list (JSON lines) and search (one JSON document).
func (r *registryFlags) register(c *cobra.Command, jsonHelp string) {
	c.Flags().StringVar(&r.file, "registry", "", "read this registry file instead of the server's registry")
	c.Flags().BoolVar(&r.asJSON, "json", false, jsonHelp)
}

// set builds a stage set over the file, or over a snapshot of the server's registry.
func (r *registryFlags) set(ctx context.Context, g *globalFlags) (*stages.Set, error) {
	var ms []schemas.Manifest
	var err error
	if r.file != "" {
		ms, err = registry.LoadFile(r.file)
	} else {
		var store *registry.Store
		var closeFn func()
		store, closeFn, err = openStore(ctx, g)
		if err != nil {
			return nil, err
		}
		defer closeFn()
		ms, err = store.List(ctx)
	}
	if err != nil {
		return nil, err
	}
	quiet := slog.New(slog.DiscardHandler)
	sf := stageFlags{mode: "auto", embedder: embed.Config{Provider: "local"}}
	dopts, err := sf.discoveryOptions(ctx, nil, quiet)
	if err != nil {
		return nil, err
	}
	set, err := stages.New(stages.Config{Tools: ms, Discover: dopts, Log: quiet})
	if err != nil || r.file != "" {
		return set, err
	}
	// Search and tier as the workers do: with the calibration, the
	// thresholds and the trained model in force.
	if err := loadModels(ctx, g, set); err != nil {
		return nil, fmt.Errorf("the models in force: %w", err)
	}
	return set, nil
}

// loadModels puts the server's models in force on a client-side set:
// the routing thresholds, the calibration and the trained model version.
func loadModels(ctx context.Context, g *globalFlags, set *stages.Set) error {
	st, closeNC, err := openClient(g, "toolyard tools", func(js jetstream.JetStream) (*models.Store, error) { return models.Open(ctx, js) })
	if err != nil {
		return err
	}
	defer closeNC()
	return set.LoadModels(ctx, st)
}

func newToolsList(g *globalFlags) *cobra.Command {
	var rf registryFlags
	c := &cobra.Command{
		Use:   "list",
		Short: "List the registered tools (with the builtin meta-tools)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			set, err := rf.set(cmd.Context(), g)
			if err != nil {
				return err
			}
			tools := set.Registry().All()
			if rf.asJSON {
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
	rf.register(c, "print the manifests as JSON lines, one tool a line (the builtin meta-tools included)")
	return c
}

func newToolsSearch(g *globalFlags) *cobra.Command {
	var rf registryFlags
	var k int
	var explain bool
	c := &cobra.Command{
		Use:   "search QUERY…",
		Short: "Search the registry as the discover stage does, with each tool's confidence",
		Long: `Search the registry as the discover stage does, with each tool's confidence
(with the calibration, the routing thresholds and the trained model the server's
models bucket holds, unless --registry reads a file).

--explain also says why the top tool got its confidence and which tier it routes
to (by default activated at 0.85 and above, multiple matches from 0.5, weak
matches from 0.3):
the confidence model's two parts, P(the request needs a tool) and P(this tool is
the right one | it does), each a logistic model over named signals, with every
signal's value, its weight and what it measures. With --json it prints the
candidates with all their signals, that breakdown, the tier and the thresholds.`,
		Example: `  toolyard tools search "how long has the machine been up"
  toolyard tools search --explain --registry ops/sample/tools.jsonl "sha256 of a file"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			query := strings.Join(args, " ")
			// Checked before the registry is read: an empty request
			// answered "No tool matches" and --k 0 showed 10.
			if strings.TrimSpace(query) == "" {
				return errors.New("the request is empty: say in words what the tool should do")
			}
			if k < 1 {
				return fmt.Errorf("--k %d: want at least 1", k)
			}
			set, err := rf.set(cmd.Context(), g)
			if err != nil {
				return err
			}
			if explain {
				return explainSearch(cmd, set, query, k, rf.asJSON)
			}
			cands, err := set.Engine().Search(cmd.Context(), query, k, nil)
			if err != nil {
				return err
			}
			if rf.asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(cands)
			}
			return printCandidates(cmd.OutOrStdout(), query, cands)
		},
	}
	rf.register(c, "print one JSON document: the ranked candidates as an array (with --explain, an object: the candidates with their signals, the top tool's terms, its tier and the thresholds)")
	c.Flags().IntVar(&k, "k", 10, "how many tools to show")
	c.Flags().BoolVar(&explain, "explain", false, "also say why the top tool got its confidence: the confidence model's terms, with each signal's value and weight")
	return c
}

func printCandidates(out io.Writer, query string, cands []schemas.Candidate) error {
	if len(cands) == 0 {
		fmt.Fprintf(out, "No tool matches %q.\n", query)
		return nil
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "CONFIDENCE\tID\tDESCRIPTION")
	for _, c := range cands {
		fmt.Fprintf(w, "%.2f\t%s\t%s\n", c.Confidence, c.ToolID, clip(c.Description, 70))
	}
	return w.Flush()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/kiwi"
)

func newToolsImportKiwi(g *globalFlags) *cobra.Command {
	var (
		opts        kiwi.Options
		replace     bool
		skipInvalid bool
		dryRun      bool
	)
	c := &cobra.Command{
		Use:   "kiwi DIR",
		Short: "Import the Python tools of a kiwi project (DIR/.ai/tools/**/*.py)",
		Long: `Reads every DIR/.ai/tools/**/*.py statically (nothing is run; no Python needed) and
imports each as NAMESPACE/<path without .py>:

  __version__      required, a semantic version (1.2.0)
  __tool_type__    required: python, script, api or runtime
  __executor_id__  required: the registry tool that runs this one (e.g. a python
                   runtime tool); the tool's file reaches it as the parameter
                   script_path
  __category__     optional, a discovery keyword
  __permissions__  optional, a list of permission names (api adds "net")

The module docstring is the description; its "Config Schema:" section gives the
parameters, as JSON or one "name (type, optional, default X): description" line per
parameter (see the kiwi package documentation for every form). A first line
"# kiwi-mcp:validated:<timestamp>:<sha256 of the rest of the file>" is verified:
a file that changed after signing is refused. Files and directories starting with
"_" or "." are skipped.

Every refused file is listed with its reason. The import is all or nothing unless
--skip-invalid.`,
		Example: `  toolyard tools import kiwi ~/projects/scrapers
  toolyard tools import kiwi --require-signed --namespace scrapers .
  toolyard tools import kiwi --dry-run .`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := kiwi.LoadDir(args[0], opts)
			if err != nil {
				return err
			}
			var ms []schemas.Manifest
			refused := 0
			out := cmd.OutOrStdout()
			for _, f := range files {
				if f.Err != nil {
					refused++
					fmt.Fprintf(out, "refused  %s: %v\n", f.Path, f.Err)
					continue
				}
				signed := "unsigned"
				if f.Tool.Signature != nil {
					signed = "signed " + f.Tool.Signature.Timestamp.Format("2006-01-02T15:04:05Z07:00")
				}
				fmt.Fprintf(out, "ok       %s → %s (%s, %s, runs on %s)\n", f.Path, f.Manifest.ID, f.Tool.Version, signed, f.Tool.ExecutorID)
				ms = append(ms, f.Manifest)
			}
			if refused > 0 && !skipInvalid {
				return fmt.Errorf("%d of %d tool files refused; nothing imported (fix them, or import the rest with --skip-invalid)", refused, len(files))
			}
			if len(ms) == 0 {
				return fmt.Errorf("no tool to import under %s", args[0])
			}
			if dryRun {
				fmt.Fprintf(out, "%d tools would be imported (dry run)\n", len(ms))
				return nil
			}
			if err := importManifests(cmd, g, ms, replace); err != nil {
				return err
			}
			if refused > 0 {
				return exitCode(1)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&opts.Namespace, "namespace", "kiwi", "prefix of the tool ids: NAMESPACE/<path>")
	fl.BoolVar(&opts.RequireSigned, "require-signed", false, "refuse files without a signature line")
	fl.BoolVar(&skipInvalid, "skip-invalid", false, "import the valid files even if others are refused (the exit status is then 1)")
	fl.BoolVar(&replace, "replace", false, "overwrite registered tools that differ")
	fl.BoolVar(&dryRun, "dry-run", false, "check the files and print what would be imported, without a server")
	return c
}

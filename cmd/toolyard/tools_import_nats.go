package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/natsimport"
	"github.com/toolyard/toolyard/workers/registry"
)

func newToolsImportNATS(g *globalFlags) *cobra.Command {
	var (
		name    string
		settle  time.Duration
		timeout time.Duration
		replace bool
		prune   bool
	)
	c := &cobra.Command{
		Use:   "nats [--name NAME] SERVICE",
		Short: "Import the endpoints of a NATS micro service as tools",
		Long: `Asks every running instance of the micro service SERVICE for its info
($SRV.INFO.SERVICE) and stores each endpoint as the tool NAME/<endpoint> (NAME defaults
to SERVICE) of kind nats: a call sends the parameters as a JSON request to the
endpoint's subject, through the execute worker's NATS connection. When instances
disagree (during an upgrade), the newest version's endpoints win.

Endpoint metadata describes the tools:
  description  what the tool does, in plain words (else the service's description)
  schema       JSON Schema (an object schema) of the request parameters
  keywords     comma-separated search keywords
  examples     JSON array of example requests in plain words
  permissions  comma-separated permissions the tool needs (see --allow-permissions)
  timeout      call timeout as a Go duration ("5s")

Endpoints with wildcard subjects are skipped with the reason. Tools imported from the
service before (nats tools under NAME/) are replaced when it changed them; another tool
under an id the import needs is refused unless --replace. With --prune, nats tools
under NAME/ that the service no longer has are removed. A signature added to an
imported tool ('toolyard tools sign --registry NAME/') survives re-imports that leave
the tool unchanged.`,
		Example: `  toolyard tools import nats weather
  toolyard tools import nats --name wx --prune weather`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			service := args[0]
			nc, err := g.clientConnect("toolyard-tools-import-nats")
			if err != nil {
				return withUpHint(err)
			}
			defer nc.Close()
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			infos, err := natsimport.Discover(ctx, nc, service, settle)
			cancel()
			if err != nil {
				return err
			}
			if name == "" {
				name = service
			}
			ms, skipped, err := natsimport.Manifests(name, infos)
			if err != nil {
				return err
			}
			for _, s := range skipped {
				fmt.Fprintf(cmd.ErrOrStderr(), "skipped endpoint %s: %s\n", s.Endpoint, s.Reason)
			}
			store, closeFn, err := openStore(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer closeFn()
			all, err := store.List(cmd.Context())
			if err != nil {
				return err
			}
			keep := map[string]bool{}
			for _, m := range ms {
				keep[m.ID] = true
			}
			// Tools this import owns (nats tools of the same namespace) are
			// its to replace; any other tool under an id it needs is not.
			var foreign, gone []string
			for _, m := range all {
				owned := m.Server == name && m.Executor != nil && m.Executor.Kind == schemas.ExecNATS
				switch {
				case keep[m.ID] && !owned:
					foreign = append(foreign, m.ID)
				case !keep[m.ID] && owned:
					gone = append(gone, m.ID)
				}
			}
			if len(foreign) > 0 && !replace {
				return fmt.Errorf("%w: %s are registered but are not nats tools of %s/ (use --replace, or another --name)", registry.ErrConflict, strings.Join(foreign, ", "), name)
			}
			rep, err := store.Import(cmd.Context(), ms, true)
			if err != nil {
				return err
			}
			removed := 0
			if prune {
				if len(gone) > 0 {
					missing, err := store.Remove(cmd.Context(), gone...)
					if err != nil {
						return err
					}
					removed = len(gone) - len(missing)
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "service %s (%d instance(s)): %d added, %d replaced, %d unchanged, %d removed, %d skipped\n",
				service, len(infos), len(rep.Added), len(rep.Replaced), len(rep.Unchanged), removed, len(skipped))
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&name, "name", "", "namespace of the imported tools: NAME/<endpoint> (default: the service name)")
	fl.DurationVar(&settle, "settle", 500*time.Millisecond, "after the first instance answers, how long to wait for the others")
	fl.DurationVar(&timeout, "timeout", 5*time.Second, "how long to wait for the first instance")
	fl.BoolVar(&replace, "replace", false, "let the service's endpoints overwrite tools under the same ids that are not its nats tools")
	fl.BoolVar(&prune, "prune", false, "remove nats tools under NAME/ that the service no longer has")
	return c
}

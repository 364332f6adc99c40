package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/mcpclient"
	"github.com/toolyard/toolyard/workers/mcpimport"
)

func newToolsImportMCP(g *globalFlags) *cobra.Command {
	var (
		src     mcpimport.Source
		replace bool
		watch   bool
		headers []string
	)
	c := &cobra.Command{
		Use:   "mcp --name NAME (--url URL | -- COMMAND [ARG…])",
		Short: "Import the tools of an MCP server (stdio command or streamable HTTP URL)",
		Long: `Connects to the MCP server — started as COMMAND over stdio, or reached at --url over
streamable HTTP — lists all its tools (every page) and stores each as NAME/<tool> in the
registry: its description, its input schema as the tool's parameters, and an mcp executor
that calls it on that server. Execute workers keep one session per server and open a new
one when the server dies.

The import keeps NAME/ in step with the server: new tools are added, changed ones
replaced, and tools the server no longer lists are removed. Only tools imported from this
same server are ever replaced or removed; a tool under NAME/ from elsewhere is refused
unless --replace. A tool whose schema is not a valid JSON Schema object is skipped with
the reason.

With --watch the command keeps the session open and imports again on every
notifications/tools/list_changed (and after reconnecting, should the server restart)
until interrupted: run it next to the workers for servers whose tools change.

The stdio command runs on the execute workers as written (a relative program path is made
absolute here), with PATH, HOME, LANG and the --env names of the worker's
environment only.`,
		Example: `  toolyard tools import mcp --name everything -- node_modules/.bin/mcp-server-everything
  toolyard tools import mcp --name files -- npx @modelcontextprotocol/server-filesystem /srv/docs
  toolyard tools import mcp --name remote --url http://127.0.0.1:3001/mcp --watch
  toolyard tools import mcp --name gh --url https://mcp.example.com/mcp --env GH_TOKEN --header "Authorization: Bearer {env.GH_TOKEN}"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() < 0 && len(args) > 0 || cmd.ArgsLenAtDash() > 0 {
				return fmt.Errorf("put the server command after --: toolyard tools import mcp --name NAME -- COMMAND ARGS…")
			}
			if len(args) > 0 && src.Server.URL != "" {
				return fmt.Errorf("give either --url or a command after --, not both")
			}
			if len(args) > 0 {
				src.Server.Command = absProgram(args)
			}
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok || strings.TrimSpace(k) == "" {
					return fmt.Errorf("--header %q: want \"Name: value\"", h)
				}
				if src.Headers == nil {
					src.Headers = map[string]string{}
				}
				src.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			if err := src.Check(); err != nil {
				return err
			}
			return importMCP(cmd, g, src, mcpimport.Options{Replace: replace}, watch)
		},
	}
	fl := c.Flags()
	fl.StringVar(&src.Name, "name", "", "namespace of the imported tools: NAME/<tool> (required)")
	fl.StringVar(&src.Server.URL, "url", "", "streamable HTTP endpoint of the server (instead of a command)")
	fl.StringArrayVar(&src.Server.Env, "env", nil, "environment variable the stdio server gets from the worker (NAME) or fixed (NAME=value), or that --header may name as {env.NAME}; repeatable")
	fl.StringArrayVar(&headers, "header", nil, "HTTP header for a --url server, \"Name: value\"; {env.NAME} is filled in from each worker's environment (list NAME with --env), so secrets stay out of the registry; repeatable")
	fl.DurationVar(&src.Timeout, "timeout", 0, fmt.Sprintf("call timeout of the imported tools (default %s)", execute.DefaultMCPTimeout))
	fl.BoolVar(&replace, "replace", false, "let the server's tools overwrite tools under NAME/ that were not imported from it")
	fl.BoolVar(&watch, "watch", false, "keep following the server: import again on every tools/list_changed until interrupted")
	_ = c.MarkFlagRequired("name")
	return c
}

// absProgram makes a relative program path absolute: workers run the
// command from their own directory.
func absProgram(argv []string) []string {
	out := append([]string(nil), argv...)
	if strings.ContainsRune(out[0], '/') && !filepath.IsAbs(out[0]) {
		if abs, err := filepath.Abs(out[0]); err == nil {
			out[0] = abs
		}
	}
	return out
}

func importMCP(cmd *cobra.Command, g *globalFlags, src mcpimport.Source, opts mcpimport.Options, watch bool) error {
	ctx := cmd.Context()
	store, closeFn, err := openStore(ctx, g)
	if err != nil {
		return err
	}
	defer closeFn()
	log := slog.Default()
	sync := func(ctx context.Context, tools []*mcp.Tool) error {
		rep, err := mcpimport.Sync(ctx, store, src, tools, opts)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "%s: %d tools: %s\n", src.Name, len(tools), rep)
		return nil
	}
	if !watch {
		lctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		srv, err := src.Connect()
		if err != nil {
			return err
		}
		tools, err := mcpclient.ListTools(lctx, srv, mcpclient.WithLogger(log))
		if err != nil {
			return err
		}
		return sync(ctx, tools)
	}
	// The first import failing (a conflict, say) is the command's failure;
	// later ones are logged and the watch goes on.
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var firstErr error
	done := false
	srv, err := src.Connect()
	if err != nil {
		return err
	}
	err = mcpclient.Watch(wctx, srv, func(ctx context.Context, tools []*mcp.Tool) error {
		err := sync(ctx, tools)
		if !done {
			done, firstErr = true, err
			if err != nil {
				stop()
				return nil
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "watching %s for tool changes; Ctrl-C stops\n", src.Server)
		}
		return err
	}, mcpclient.WithLogger(log))
	if err != nil {
		return err
	}
	return firstErr
}

// mcpPool is the MCP session pool of a worker process: closed (its stdio
// servers stopped) when ctx ends.
func mcpPool(ctx context.Context, log *slog.Logger, opts ...mcpclient.Option) *mcpclient.Pool {
	pool := mcpclient.NewPool(append([]mcpclient.Option{mcpclient.WithLogger(log)}, opts...)...)
	context.AfterFunc(ctx, func() { _ = pool.Close() })
	return pool
}

// executeOptions are the execute stage's settings of a worker process: the
// MCP executor's session pool, stopped with ctx; opts configure the pool
// (the --run-as user of stdio servers).
func executeOptions(ctx context.Context, log *slog.Logger, opts ...mcpclient.Option) []execute.Option {
	return []execute.Option{execute.WithMCP(mcpPool(ctx, log, opts...))}
}

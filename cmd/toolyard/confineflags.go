package main

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/mcpclient"
)

// confineFlags set what tools may do on this machine: the risk classes
// sessions are granted, where path arguments may point, and how
// subprocess tools are started (limits, user).
type confineFlags struct {
	allow     []string
	roots     []string
	runAs     string
	cpu       time.Duration
	memoryMiB int64
	resolved  *execute.RunAs // --run-as, looked up by options
}

func (f *confineFlags) register(fl *pflag.FlagSet) {
	fl.StringSliceVar(&f.allow, "allow", nil, "risk classes every session's tools may use, comma-separated: write, delete, network, or all. Default none: sessions get read-only and meta tools only; a tool whose permissions (fs.write, crm:delete, net:internet, …) or executor (http) need more is answered permission_denied. Per session: \"grant\" in --permissions-file")
	fl.StringSliceVar(&f.roots, "path-root", nil, "directories path arguments of local tools (subprocess, MCP command) may point into, after following symlinks (relative path arguments start at the working directory, or the tool's executor dir); repeat or comma-separate (default: the working directory and /tmp; / lifts the confinement)")
	fl.StringVar(&f.runAs, "run-as", "", "user (name or uid) subprocess tools and stdio MCP servers run as; needs a root worker. Without it they run as the worker's user, and a root worker says so loudly at start-up")
	fl.DurationVar(&f.cpu, "tool-cpu", execute.DefaultCPULimit, "CPU time limit of each subprocess tool (RLIMIT_CPU); 0 = default, negative = none")
	fl.Int64Var(&f.memoryMiB, "tool-memory", execute.DefaultMemoryLimit>>20, "memory limit of each subprocess tool in MiB (data segment, RLIMIT_DATA); negative = none")
}

// options are the executor options the flags set.
func (f *confineFlags) options(log *slog.Logger) ([]execute.Option, error) {
	grants, err := execute.ParseGrants(f.allow)
	if err != nil {
		return nil, fmt.Errorf("--allow: %w", err)
	}
	opts := []execute.Option{execute.WithGrants(grants...)}
	roots := execute.DefaultPathRoots()
	if len(f.roots) > 0 {
		roots = nil
		for _, r := range f.roots {
			if r = strings.TrimSpace(r); r != "" {
				roots = append(roots, r)
			}
		}
		opts = append(opts, execute.WithPathRoots(roots...))
	}
	mem := f.memoryMiB << 20
	if f.memoryMiB < 0 {
		mem = -1
	}
	opts = append(opts, execute.WithLimits(execute.Limits{CPU: f.cpu, Memory: mem}))
	var runAs *execute.RunAs
	if f.runAs != "" {
		r, err := execute.LookupRunAs(f.runAs)
		if err != nil {
			return nil, err
		}
		if os.Geteuid() != 0 && uint32(os.Geteuid()) != r.UID {
			return nil, fmt.Errorf("--run-as %s: only a root worker can run tools as another user (this one runs as uid %d)", f.runAs, os.Geteuid())
		}
		runAs = &r
		f.resolved = runAs
		opts = append(opts, execute.WithRunAs(r))
	}
	if resolved, err := execute.ResolvePathRoots(roots); err == nil {
		roots = resolved // as refusals name them: after symlinks
	}
	log.Info("tools confined", "granted", listOrNone(grants), "path_roots", strings.Join(roots, ","),
		"run_as", runAsName(runAs), "tool_cpu", f.cpu, "tool_memory_mib", f.memoryMiB)
	if execute.RunningAsRoot(runAs) {
		// Loud on purpose: the operator must choose this, not inherit it.
		msg := "subprocess tools and stdio MCP servers will run as root: this worker is root and no --run-as USER was given; start it with --run-as nobody (or another unprivileged user) to drop privileges"
		log.Warn(msg)
		fmt.Fprintln(os.Stderr, "WARNING: "+msg)
	}
	return opts, nil
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none (read-only and meta tools)"
	}
	return strings.Join(l, ",")
}

func runAsName(r *execute.RunAs) string {
	if r == nil {
		return fmt.Sprintf("worker's user (uid %d)", os.Geteuid())
	}
	return r.Name
}

// mcpOptions start stdio MCP servers as the --run-as user too; options
// must have run first.
func (f *confineFlags) mcpOptions() []mcpclient.Option {
	if f.resolved == nil {
		return nil
	}
	return []mcpclient.Option{mcpclient.WithRunAs(f.resolved.UID, f.resolved.GID)}
}

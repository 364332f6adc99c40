package execute

import (
	"fmt"
	"os"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults of the subprocess limits.
const (
	// DefaultCPULimit bounds the CPU time of one subprocess tool (the
	// kernel sends SIGXCPU, then SIGKILL). The wall-clock timeout is
	// separate (WithDefaultTimeout, the manifest's timeout).
	DefaultCPULimit = 60 * time.Second
	// DefaultMemoryLimit bounds a subprocess tool's data segment (heap and
	// private writable mappings, RLIMIT_DATA): allocation beyond it fails.
	DefaultMemoryLimit = 2 << 30
)

// Limits are the resource limits of each subprocess tool; zero fields
// take the defaults, negative ones lift that limit.
type Limits struct {
	CPU    time.Duration
	Memory int64
}

// WithLimits sets the CPU and memory limits of subprocess tools.
func WithLimits(l Limits) Option {
	return func(c *config) { c.proc.limits = l }
}

func (l Limits) cpu() time.Duration {
	if l.CPU == 0 {
		return DefaultCPULimit
	}
	return l.CPU
}

func (l Limits) memory() int64 {
	if l.Memory == 0 {
		return DefaultMemoryLimit
	}
	return l.Memory
}

// RunAs is the user subprocess tools run as.
type RunAs struct {
	Name     string
	UID, GID uint32
	Home     string
}

// LookupRunAs finds a user by name or numeric id.
func LookupRunAs(name string) (RunAs, error) {
	u, err := user.Lookup(name)
	if err != nil {
		var err2 error
		if u, err2 = user.LookupId(name); err2 != nil {
			return RunAs{}, fmt.Errorf("--run-as %s: %w", name, err)
		}
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return RunAs{}, fmt.Errorf("--run-as %s: uid %q: %w", name, u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return RunAs{}, fmt.Errorf("--run-as %s: gid %q: %w", name, u.Gid, err)
	}
	return RunAs{Name: u.Username, UID: uint32(uid), GID: uint32(gid), Home: u.HomeDir}, nil
}

// WithRunAs runs subprocess tools as another user (the worker must be
// root to switch). Their HOME becomes the user's home directory and their
// scratch directory is given to the user.
func WithRunAs(r RunAs) Option {
	return func(c *config) { c.proc.runAs = &r }
}

// procConfig is how subprocess tools are started.
type procConfig struct {
	limits Limits
	runAs  *RunAs
}

// RunningAsRoot reports whether subprocess tools of an executor with
// these options would run as root: the worker is root and no WithRunAs
// names another user. Callers warn about it at start-up.
func RunningAsRoot(r *RunAs) bool {
	if r != nil {
		return r.UID == 0
	}
	return os.Geteuid() == 0
}

// limitShell is the shell that sets a tool's limits before it runs.
const limitShell = "/bin/sh"

// limitedArgv runs bin with args under l: /bin/sh sets the limits with
// ulimit and then execs the tool in its own place (same pid, same process
// group), so the limits hold from the tool's first instruction. Go cannot
// set limits between fork and exec, and setting them from outside after
// the start (prlimit) races the tool and is refused for a tool already
// running as another user. A limit the shell cannot set stops the call
// (exit 126) rather than running the tool unlimited. Core files are off: a
// core would hold whatever secrets the tool had. The shell's own PWD is
// dropped again unless the tool's environment sets one.
func limitedArgv(l Limits, env []string, bin string, args []string) []string {
	var sets []string
	if cpu := l.cpu(); cpu > 0 {
		sets = append(sets, fmt.Sprintf("ulimit -t %d", int64((cpu+time.Second-1)/time.Second)))
	}
	if mem := l.memory(); mem > 0 {
		sets = append(sets, fmt.Sprintf("ulimit -d %d", (mem+1023)>>10))
	}
	sets = append(sets, "ulimit -c 0")
	script := "{ " + strings.Join(sets, " && ") + "; } || { echo 'toolyard: cannot set the tool limits (--tool-cpu, --tool-memory)' >&2; exit 126; }; "
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "PWD=") }) {
		script += "unset PWD; "
	}
	script += "exec \"$0\" \"$@\""
	return append([]string{limitShell, "-c", script, bin}, args...)
}

package execute

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// toolProcAttr puts a tool in its own process group (so a timeout kills
// everything it started) and has the kernel kill it if the worker dies: a
// worker killed mid-call must not leave its tool running on, since the
// call's next delivery will run it again (see package effects). With
// runAs, the tool runs as that user, with no supplementary groups.
func toolProcAttr(runAs *RunAs) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if runAs != nil {
		a.Credential = &syscall.Credential{Uid: runAs.UID, Gid: runAs.GID, Groups: []uint32{}}
	}
	return a
}

// applyLimits sets the tool's CPU and memory limits and turns off core
// dumps (a core file would hold whatever secrets the tool had). It runs
// right after the process started: Go cannot set limits between fork and
// exec, and the few instructions before this call cannot use a
// meaningful share of either.
func applyLimits(pid int, l Limits) error {
	set := func(res int, v uint64, what string) error {
		lim := unix.Rlimit{Cur: v, Max: v}
		if err := unix.Prlimit(pid, res, &lim, nil); err != nil {
			return fmt.Errorf("set the %s limit of process %d: %w", what, pid, err)
		}
		return nil
	}
	if cpu := l.cpu(); cpu > 0 {
		secs := uint64((cpu + 999_999_999) / 1_000_000_000)
		// The soft limit sends SIGXCPU; one more second then SIGKILL.
		lim := unix.Rlimit{Cur: secs, Max: secs + 1}
		if err := unix.Prlimit(pid, unix.RLIMIT_CPU, &lim, nil); err != nil {
			return fmt.Errorf("set the cpu limit of process %d: %w", pid, err)
		}
	}
	if mem := l.memory(); mem > 0 {
		if err := set(unix.RLIMIT_DATA, uint64(mem), "memory"); err != nil {
			return err
		}
	}
	return set(unix.RLIMIT_CORE, 0, "core file")
}

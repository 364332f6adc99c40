package execute

import "syscall"

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

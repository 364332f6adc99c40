//go:build !linux

package execute

import "syscall"

// toolProcAttr puts a tool in its own process group, so a timeout kills
// everything it started. Only Linux can also have the kernel kill the tool
// when the worker dies.
func toolProcAttr(runAs *RunAs) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if runAs != nil {
		a.Credential = &syscall.Credential{Uid: runAs.UID, Gid: runAs.GID, Groups: []uint32{}}
	}
	return a
}

//go:build !linux

package execute

import "syscall"

// toolProcAttr puts a tool in its own process group, so a timeout kills
// everything it started. Only Linux can also have the kernel kill the tool
// when the worker dies.
func toolProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

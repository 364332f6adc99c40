package execute

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// runSubprocess runs m's command for call. params are validated and carry
// the schema defaults; info is the schema of the tool that was called.
func (e *Executor) runSubprocess(ctx context.Context, m schemas.Manifest, call schemas.ToolCall, params map[string]any, info *paramInfo) (schemas.ToolOutput, error) {
	x := m.Executor
	argv, err := expandArgv(m.ID, x.Argv, params, info)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	env := buildEnv(x.Env, e.cfg.env, call.IntentID, IdempotencyKey(ctx, call))
	runAs := e.cfg.proc.runAs
	if runAs != nil && runAs.Home != "" {
		env = setEnv(env, "HOME", runAs.Home)
	}
	bin, err := lookPath(argv[0], env)
	if err != nil {
		return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: command %q is not installed on this worker", m.ID, argv[0])
	}
	dir := x.Dir
	switch {
	case dir == "":
		tmp, err := scratchDir(m.ID)
		if err != nil {
			return schemas.ToolOutput{}, transient(err)
		}
		defer os.RemoveAll(tmp)
		if runAs != nil {
			// The tool's own scratch directory is the one place it may
			// write to by default.
			if err := os.Chown(tmp, int(runAs.UID), int(runAs.GID)); err != nil {
				return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: give its scratch directory to --run-as %s: %w", m.ID, runAs.Name, err)
			}
		}
		dir = tmp
	case !filepath.IsAbs(dir):
		return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: executor dir %q must be an absolute path", m.ID, dir)
	}
	timeout := time.Duration(x.Timeout)
	if timeout <= 0 {
		timeout = e.cfg.timeout
	}
	maxOut := x.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = e.cfg.maxOutput
	}

	// The pipes are plain files handed to the child, not io.Writers, so
	// exec starts no copying goroutines and Wait returns when the child
	// exits even if a grandchild still holds the pipe; we then kill the
	// group, which ends the pipe, and the readers finish.
	outR, outW, err := os.Pipe()
	if err != nil {
		return schemas.ToolOutput{}, transient(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return schemas.ToolOutput{}, transient(err)
	}
	stdout := &headBuffer{max: maxOut}
	stderr := &tailBuffer{max: StderrTailBytes}

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, limitShell)
	cmd.Args = limitedArgv(e.cfg.proc.limits, env, bin, argv[1:])
	cmd.Env = env
	cmd.Dir = dir
	cmd.Stdout = outW
	cmd.Stderr = errW
	cmd.SysProcAttr = toolProcAttr(runAs)
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }

	start := time.Now()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		if startFailureIsTransient(err) {
			return schemas.ToolOutput{}, transient(err)
		}
		return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: start %s: %w", m.ID, argv[0], err)
	}
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go drain(outR, stdout, outDone)
	go drain(errR, stderr, errDone)

	waitErr := cmd.Wait()
	_ = killGroup(cmd.Process.Pid) // leftovers of a tool that exited
	awaitDrains(outR, errR, outDone, errDone)
	elapsed := time.Since(start)

	out := schemas.ToolOutput{
		Content:    stdout.text(),
		Stderr:     stderr.text(),
		Truncated:  stdout.truncated,
		DurationMS: float64(elapsed.Microseconds()) / 1000,
	}
	code := exitCode(cmd.ProcessState)
	out.ExitCode = &code
	e.cfg.log.Debug("tool ran", "tool", m.ID, "intent_id", call.IntentID, "exit_code", code,
		"duration", elapsed, "stdout_bytes", len(stdout.buf), "truncated", stdout.truncated)

	switch {
	case code == 0:
		// Success even if the deadline passed as it exited (Wait then
		// reports the context): the tool did finish.
		return out, nil
	case ctx.Err() != nil:
		// The worker is stopping or gave up on this message, not the tool:
		// another attempt deserves a chance.
		return out, transient(ctx.Err())
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		return out, &ToolError{ToolID: m.ID, Output: out, TimedOut: true, Timeout: timeout}
	}
	e.cfg.log.Debug("tool failed", "tool", m.ID, "wait", waitErr)
	if code == ExitTempFail {
		// The tool asks to be tried again (EX_TEMPFAIL).
		return out, transient(&ToolError{ToolID: m.ID, Output: out})
	}
	return out, &ToolError{ToolID: m.ID, Output: out}
}

// drainGrace is how long output may keep flowing after the process group
// is dead. Only a process that left the group (setsid, a daemon) can hold
// the pipes open that long; it must not hold the call open with them.
const drainGrace = 500 * time.Millisecond

func awaitDrains(outR, errR *os.File, outDone, errDone <-chan struct{}) {
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
	for outDone != nil || errDone != nil {
		select {
		case <-outDone:
			outDone = nil
		case <-errDone:
			errDone = nil
		case <-timer.C:
			// Closing the read ends ends the blocked reads.
			outR.Close()
			errR.Close()
		}
	}
}

// killGroup kills a process group: the tool and everything it started.
func killGroup(pgid int) error {
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// exitCode follows the shell: a process killed by a signal reports 128+n.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

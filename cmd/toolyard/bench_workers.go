package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/bind"
)

// benchWorkers runs every stage in n worker processes of this binary,
// connected over TCP to the bench's server with the worker credential, as
// an operator's workers would be: how the pipeline scales with processes.
type benchWorkers struct {
	procs []*exec.Cmd
	done  []chan error
	// tail keeps each process's last lines of output, for an error.
	mu   sync.Mutex
	tail [][]string
}

// workerStartWait bounds how long the worker processes may take to start.
const workerStartWait = 60 * time.Second

func startBenchWorkers(ctx context.Context, srv *pipeline.Server, js jetstream.JetStream, n, concurrency int, localHandOff bool) (*benchWorkers, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("bench: find this binary to start workers: %w", err)
	}
	if err := writeRoleCreds(srv.DataDir(), srv.Keys()); err != nil {
		return nil, err
	}
	w := &benchWorkers{tail: make([][]string, n)}
	args := []string{"worker", "--stage", strings.Join(bind.Stages, ","), "--nats", srv.ClientURL(),
		"--creds", filepath.Join(srv.DataDir(), credsDir, "worker.creds"),
		"--concurrency", strconv.Itoa(concurrency), "--local-handoff=" + strconv.FormatBool(localHandOff),
		// As the in-process stages: an agent's limits are not what is measured.
		"--session-rate", "0", "--session-executions", "0", "--http", ""}
	for i := range n {
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "TOOLYARD_DATA=")
		out, err := cmd.StderrPipe()
		if err != nil {
			w.stop()
			return nil, err
		}
		cmd.Stdout = io.Discard
		if err := cmd.Start(); err != nil {
			w.stop()
			return nil, fmt.Errorf("bench: start worker %d: %w", i+1, err)
		}
		done := make(chan error, 1)
		w.procs, w.done = append(w.procs, cmd), append(w.done, done)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				w.mu.Lock()
				w.tail[i] = append(w.tail[i], sc.Text())
				if len(w.tail[i]) > 20 {
					w.tail[i] = w.tail[i][1:]
				}
				w.mu.Unlock()
			}
			done <- cmd.Wait()
		}()
	}
	// Ready when every process has a pull waiting on the parse consumer,
	// the head of every intent's way.
	deadline := time.Now().Add(workerStartWait)
	for {
		if err := w.exited(); err != nil {
			w.stop()
			return nil, err
		}
		if c, err := js.Consumer(ctx, pipeline.StreamAgent, bind.StageParse); err == nil {
			if info, err := c.Info(ctx); err == nil && info.NumWaiting >= n {
				return w, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			w.stop()
			return nil, fmt.Errorf("bench: %d worker processes not ready after %s:\n%s", n, workerStartWait, w.lastLines())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exited is the error of a worker process that has already ended.
func (w *benchWorkers) exited() error {
	for i, d := range w.done {
		select {
		case err := <-d:
			d <- err
			return fmt.Errorf("bench: worker %d exited: %v\n%s", i+1, err, w.lastLines())
		default:
		}
	}
	return nil
}

func (w *benchWorkers) lastLines() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	for i, lines := range w.tail {
		for _, l := range lines {
			fmt.Fprintf(&b, "  worker %d: %s\n", i+1, l)
		}
	}
	return b.String()
}

// stop ends the processes as an operator would (SIGTERM: they drain), and
// kills what is left after the drain.
func (w *benchWorkers) stop() {
	for _, p := range w.procs {
		_ = p.Process.Signal(syscall.SIGTERM)
	}
	for i, d := range w.done {
		select {
		case <-d:
		case <-time.After(20 * time.Second):
			_ = w.procs[i].Process.Kill()
			<-d
		}
	}
}

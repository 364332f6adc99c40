package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// flaky is a subprocess tool that exits with status code the first fail
// times it runs (counting in a file), then succeeds.
func flaky(t *testing.T, fail, code int) (schemas.Manifest, func() int) {
	t.Helper()
	dir := t.TempDir()
	counter := filepath.Join(dir, "runs")
	script := filepath.Join(dir, "flaky.sh")
	// The count is renamed into place: a run the context kills halfway
	// must not leave the file empty (CI once read "0 runs" after 29).
	body := fmt.Sprintf(`#!/bin/sh
n=$(cat %[1]q 2>/dev/null || echo 0)
n=$((n+1))
echo $n > %[1]q.tmp && mv %[1]q.tmp %[1]q
if [ $n -le %[2]d ]; then echo "busy (run $n)" >&2; exit %[3]d; fi
echo "ok after $n runs, key $TOOLYARD_IDEMPOTENCY_KEY"
`, counter, fail, code)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	runs := func() int {
		b, _ := os.ReadFile(counter)
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return n
	}
	return tool("t/flaky", "", script), runs
}

var fastRetries = WithRetryBackoff(20*time.Millisecond, 100*time.Millisecond)

func TestRetrySubprocess(t *testing.T) {
	tests := []struct {
		name      string
		fail      int
		code      int
		budget    time.Duration
		wantRuns  func(int) bool
		wantErr   func(error) bool
		wantRunsS string
	}{
		{"temporary failures retried until success", 3, ExitTempFail, 10 * time.Second,
			func(n int) bool { return n == 4 }, func(err error) bool { return err == nil }, "4"},
		{"tool's own failure not retried", 3, 1, 10 * time.Second,
			func(n int) bool { return n == 1 }, func(err error) bool {
				var te *ToolError
				return errors.As(err, &te) && !IsTransient(err)
			}, "1"},
		{"budget runs out: answered, not transient", 1000, ExitTempFail, 700 * time.Millisecond,
			func(n int) bool { return n >= 3 }, func(err error) bool {
				var x *RetriesExhaustedError
				var te *ToolError
				return errors.As(err, &x) && errors.As(err, &te) && !IsTransient(err) && x.Attempts >= 3
			}, ">= 3"},
		{"retries off", 3, ExitTempFail, 0,
			func(n int) bool { return n == 1 }, func(err error) bool { return IsTransient(err) }, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, runs := flaky(t, tt.fail, tt.code)
			e := newExecutor(t, []schemas.Manifest{m}, WithRetryBudget(tt.budget), fastRetries)
			out, err := run(t, e, call("t/flaky", nil))
			if !tt.wantErr(err) {
				t.Fatalf("error %v (%T)", err, err)
			}
			if n := runs(); !tt.wantRuns(n) {
				t.Fatalf("tool ran %d times, want %s", n, tt.wantRunsS)
			}
			if err == nil && !strings.Contains(out.Content.(string), CallIdempotencyKey(call("t/flaky", nil))) {
				t.Errorf("output %q lacks the idempotency key", out.Content)
			}
		})
	}
}

// A stopping worker stops retrying, and the failure stays transient: the
// message is redelivered, not answered.
func TestRetryStopsWithContext(t *testing.T) {
	m, runs := flaky(t, 1000, ExitTempFail)
	e := newExecutor(t, []schemas.Manifest{m}, WithRetryBudget(time.Minute), fastRetries)
	// Long enough for a few runs of a subprocess on a loaded machine (at
	// 500 ms a busy CI machine once started none), far below the budget.
	const deadline = 3 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	_, err := e.Execute(ctx, call("t/flaky", nil))
	if !IsTransient(err) {
		t.Fatalf("%v, want transient", err)
	}
	if d := time.Since(start); d > deadline+5*time.Second {
		t.Errorf("took %s after the context ended at %s", d, deadline)
	}
	if runs() < 2 {
		t.Errorf("ran %d times before the context ended", runs())
	}
}

// httpGet is a minimal http runner for these tests: GET the executor's URL
// with the call's idempotency key; 408/429/5xx are transient.
func httpGet(ctx context.Context, m schemas.Manifest, c schemas.ToolCall) (schemas.ToolOutput, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.Executor.URL, nil)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	req.Header.Set("Idempotency-Key", IdempotencyKey(ctx, c))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := schemas.ToolOutput{Content: string(body), StatusCode: resp.StatusCode}
	switch {
	case TransientStatus(resp.StatusCode):
		return out, Transient(fmt.Errorf("%s answered %s", m.Executor.URL, resp.Status))
	case resp.StatusCode >= 400:
		return out, &ToolError{ToolID: m.ID, Output: out}
	}
	return out, nil
}

func TestRetryHTTP(t *testing.T) {
	tests := []struct {
		name      string
		statuses  []int // answers before 200
		wantCalls int
		wantOK    bool
	}{
		{"503 twice then ok", []int{503, 503}, 3, true},
		{"429 then 502 then ok", []int{429, 502}, 3, true},
		{"404 is an answer", []int{404}, 1, false},
		{"400 is an answer", []int{400, 503}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var keys []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				keys = append(keys, r.Header.Get("Idempotency-Key"))
				n := len(keys)
				mu.Unlock()
				if n <= len(tt.statuses) {
					w.WriteHeader(tt.statuses[n-1])
					return
				}
				fmt.Fprint(w, "done")
			}))
			defer srv.Close()
			m := schemas.Manifest{ID: "t/web", Name: "web", Description: "test", Executor: &schemas.Executor{Kind: "testhttp", URL: srv.URL}}
			e := newExecutor(t, []schemas.Manifest{m}, WithRunner("testhttp", httpGet), WithRetryBudget(10*time.Second), fastRetries)
			c := call("t/web", nil)
			out, err := run(t, e, c)
			if (err == nil) != tt.wantOK {
				t.Fatalf("err %v, want ok=%v", err, tt.wantOK)
			}
			if tt.wantOK && out.Content != "done" {
				t.Errorf("content %q", out.Content)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(keys) != tt.wantCalls {
				t.Errorf("server called %d times, want %d", len(keys), tt.wantCalls)
			}
			for i, k := range keys {
				if k != CallIdempotencyKey(c) {
					t.Errorf("request %d: Idempotency-Key %q, want %q on every attempt", i, k, CallIdempotencyKey(c))
				}
			}
		})
	}
}

// A refused connection is transient by itself (no runner marking needed)
// and retried until the budget ends.
func TestRetryConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/"
	l.Close()
	m := schemas.Manifest{ID: "t/down", Name: "down", Description: "test", Executor: &schemas.Executor{Kind: "testhttp", URL: url}}
	attempts := 0
	counting := func(ctx context.Context, m schemas.Manifest, c schemas.ToolCall) (schemas.ToolOutput, error) {
		attempts++
		return httpGet(ctx, m, c)
	}
	e := newExecutor(t, []schemas.Manifest{m}, WithRunner("testhttp", counting), WithRetryBudget(600*time.Millisecond), fastRetries)
	_, err = run(t, e, call("t/down", nil))
	var x *RetriesExhaustedError
	if !errors.As(err, &x) || IsTransient(err) {
		t.Fatalf("%v, want RetriesExhaustedError", err)
	}
	if attempts < 3 || x.Attempts != attempts {
		t.Errorf("%d attempts (error says %d)", attempts, x.Attempts)
	}
}

func TestIsTransientClassifies(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", fmt.Errorf("call: %w", refused), true},
		{"marked transient", Transient(errors.New("503")), true},
		{"exit 75", transient(&ToolError{ToolID: "x"}), true},
		{"tool error", &ToolError{ToolID: "x"}, false},
		{"bad call wrapping a refused connection", badCall(ErrUnsupported, "start: %w", refused), false},
		{"retries exhausted", &RetriesExhaustedError{Err: Transient(errors.New("503"))}, false},
		{"plain", errors.New("x"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := IsTransient(tt.err); got != tt.want {
			t.Errorf("%s: IsTransient = %v, want %v", tt.name, got, tt.want)
		}
	}
	for code, want := range map[int]bool{200: false, 400: false, 404: false, 408: true, 429: true, 500: true, 503: true, 599: true} {
		if TransientStatus(code) != want {
			t.Errorf("TransientStatus(%d) = %v", code, !want)
		}
	}
}

// The caller's key wins over the derived one.
func TestIdempotencyKeyFromContext(t *testing.T) {
	e := newExecutor(t, []schemas.Manifest{tool("t/key", "", "sh", "-c", "printf %s \"$TOOLYARD_IDEMPOTENCY_KEY\"")})
	ctx := ContextWithIdempotencyKey(context.Background(), "caller-key")
	out, err := e.Execute(ctx, call("t/key", nil))
	if err != nil || out.Content != "caller-key" {
		t.Fatalf("%q %v", out.Content, err)
	}
	c := call("t/key", nil)
	c.SessionID = "other-session"
	out, err = run(t, e, c)
	if err != nil || out.Content != CallIdempotencyKey(c) || out.Content == CallIdempotencyKey(call("t/key", nil)) {
		t.Fatalf("key %q %v: want one per session", out.Content, err)
	}
}

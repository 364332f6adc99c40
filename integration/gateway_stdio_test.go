package integration

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A line that is not a JSON-RPC message on 'mcp serve --stdio' is answered
// with a JSON-RPC error (-32700 parse error, -32600 invalid request) and the
// server goes on answering the requests after it; it once ended the server.
func TestMCPStdioAnswersLinesThatAreNotRequests(t *testing.T) {
	_, url := startUp(t, "")
	cmd := exec.Command(binary, "mcp", "serve", "--stdio", "--nats", url, "--session", "stdio-bad")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr pipelinetest.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()

	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`hello, not JSON`,
		`{"id":7,"method":"tools/list"}`,
		"   ",
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	}
	// One reply per request and per bad line, by id and error code.
	want := map[string]bool{"1/": true, "null/-32700": true, "7/-32600": true, "2/": true}
	got := map[string]bool{}
	replies := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			replies <- sc.Text()
		}
		close(replies)
	}()
	if _, err := io.WriteString(stdin, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(30 * time.Second)
	for len(got) < len(want) {
		select {
		case line, ok := <-replies:
			if !ok {
				t.Fatalf("the server ended after %v; stderr:\n%s", got, stderr.String())
			}
			var r struct {
				ID    json.RawMessage `json:"id"`
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("reply is not JSON: %q", line)
			}
			key := string(r.ID) + "/"
			if r.Error != nil {
				key += strconv.Itoa(r.Error.Code)
			}
			if len(r.ID) == 0 {
				continue // a notification
			}
			if !want[key] {
				t.Fatalf("unexpected reply %s (%s); want %v", line, key, want)
			}
			got[key] = true
		case <-timeout:
			t.Fatalf("replies %v after 30 s, want %v; stderr:\n%s", got, want, stderr.String())
		}
	}
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the server ended with %v at the end of its input; stderr:\n%s", err, stderr.String())
	}
}

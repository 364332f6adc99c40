package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/mcpclient/mcptest"
)

// upEmpty starts `toolyard up` with an empty registry (no sample tools, so
// only what a test imports competes in discovery) and returns its NATS URL.
func upEmpty(t *testing.T, extra ...string) (*process, string) {
	t.Helper()
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	up := startProcess(t, append([]string{"up", "--data", useData(t, t.TempDir()), "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "", "--registry", empty}, extra...)...)
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	return up, fmt.Sprintf("nats://127.0.0.1:%d", port)
}

// cli runs the toolyard binary and returns its output; it fails the test
// unless the exit status is want.
func cli(t *testing.T, want int, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != want {
		t.Fatalf("toolyard %s: exit %d (%v), want %d\n%s", strings.Join(args, " "), code, err, want, out)
	}
	return string(out)
}

// publishWait publishes text on a session and returns the result of each
// intent, by intent text.
func publishWait(t *testing.T, url, session, text string) map[string]schemas.Result {
	t.Helper()
	out := cli(t, 0, "publish", "--nats", url, "--session", session, "--wait", "--timeout", "60s", text)
	got := map[string]schemas.Result{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, sc.Bytes())
		if err != nil {
			t.Fatalf("publish printed a line that is not a result: %v\n%s", err, sc.Text())
		}
		if r.Status != schemas.StatusAccepted {
			got[r.Intent] = r
		}
	}
	return got
}

func outputText(r schemas.Result) string {
	if r.Output == nil {
		return ""
	}
	return fmt.Sprint(r.Output.Content)
}

// importedCount checks an import's summary line and returns the tool count.
var importLine = regexp.MustCompile(`(\w+): (\d+) tools: (\d+) added, 0 replaced, 0 unchanged, 0 removed`)

func TestMCPServersThroughThePipeline(t *testing.T) {
	everything := mcptest.Bin(t, mcptest.Everything)
	filesystem := mcptest.Bin(t, mcptest.Filesystem)
	root := t.TempDir()
	greeting := filepath.Join(root, "greeting.txt")
	if err := os.WriteFile(greeting, []byte("hello from a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The filesystem server's annotations say which tools write and
	// delete (create_directory, move_file): this test grants both.
	up, url := upEmpty(t, "--allow", "write,delete")

	for _, imp := range [][]string{{"everything", everything}, {"fs", filesystem, root}} {
		out := cli(t, 0, append([]string{"tools", "import", "mcp", "--nats", url, "--name", imp[0], "--"}, imp[1:]...)...)
		m := importLine.FindStringSubmatch(out)
		if m == nil || m[1] != imp[0] || m[2] != m[3] || m[2] == "0" {
			t.Fatalf("import %s: %s", imp[0], out)
		}
	}
	if js := cli(t, 0, "tools", "list", "--nats", url, "--json"); !regexp.MustCompile(`"id":"fs/move_file"[^\n]*"permissions":\["mcp.write","mcp.delete"\]`).MatchString(js) {
		t.Errorf("fs/move_file lacks the permissions its annotations declare:\n%s", js)
	}
	list := cli(t, 0, "tools", "list", "--nats", url)
	for _, want := range []string{"everything/echo", "everything/get-sum", "fs/list_directory", "fs/read_text_file"} {
		if !regexp.MustCompile(regexp.QuoteMeta(want) + `\s+mcp\s`).MatchString(list) {
			t.Fatalf("tools list lacks %s as an mcp tool:\n%s", want, list)
		}
	}

	// Plain words in, the real servers' answers out.
	newDir := filepath.Join(root, "reports")
	echo := "echo hello world"
	mkdir := "create directory " + newDir
	info := "get file info for " + greeting
	sum := "get the sum of a=2 and b=3"
	denied := "get file info for /etc/passwd"
	// Without key=value: the numbers in order fill a and b ("First
	// number", "Second number"), and the parameter's name cues the words
	// after it.
	plainSum := "get the sum of 2 and 3"
	plainEcho := "echo the message hello world"
	// Paths from before to, though move_file declares destination first;
	// the only number to the only numeric parameter, optional as it is.
	draft, final := filepath.Join(root, "draft.md"), filepath.Join(root, "final.md")
	if err := os.WriteFile(draft, []byte("draft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	move := "move file " + draft + " to " + final
	links := "get resource links 4"
	rs := publishWait(t, url, "mcp-agent", fmt.Sprintf("Sure. [TOOL: %s] Next [TOOL: %s] and [TOOL: %s], then [TOOL: %s]. Also [TOOL: %s]. And [TOOL: %s] [TOOL: %s] [TOOL: %s] [TOOL: %s]",
		echo, mkdir, info, sum, denied, plainSum, plainEcho, move, links))
	check := func(intent, tool, want string) {
		t.Helper()
		r, ok := rs[intent]
		if !ok || r.Status != schemas.StatusExecuted || r.ToolID != tool || !strings.Contains(outputText(r), want) {
			t.Errorf("%q: %+v (content %q), want %s executed with %q", intent, r, outputText(r), tool, want)
		}
	}
	check(echo, "everything/echo", "Echo: hello world")
	check(mkdir, "fs/create_directory", "Successfully created directory "+newDir)
	check(info, "fs/get_file_info", "size: 18")
	check(sum, "everything/get-sum", "The sum of 2 and 3 is 5")
	check(plainSum, "everything/get-sum", "The sum of 2 and 3 is 5")
	check(plainEcho, "everything/echo", "Echo: hello world")
	check(move, "fs/move_file", "Successfully moved "+draft+" to "+final)
	check(links, "everything/get-resource-links", "4 resource links")
	if _, err := os.Stat(final); err != nil {
		t.Errorf("the server did not move %s to %s: %v", draft, final, err)
	}
	if fi, err := os.Stat(newDir); err != nil || !fi.IsDir() {
		t.Errorf("the server did not create %s: %v", newDir, err)
	}
	// Outside the worker's path roots: refused before the server sees it.
	if r := rs[denied]; r.Status != schemas.StatusError || r.Error == nil || r.Error.Code != "path_not_allowed" || !strings.Contains(r.Error.Message, "path=/etc/passwd is outside the allowed path roots") {
		t.Errorf("%q: %+v, want a path_not_allowed error", denied, r)
	}

	// The worker's stdio server dies: the next call starts a new one.
	pid := childProcess(t, up.Cmd.Process.Pid, "mcp-server-everything")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	rs = publishWait(t, url, "mcp-agent", "[TOOL: echo back the message: still here]")
	if r := rs["echo back the message: still here"]; r.Status != schemas.StatusExecuted || !strings.Contains(outputText(r), "Echo: still here") {
		t.Fatalf("after the server was killed: %+v", r)
	}
	if again := childProcess(t, up.Cmd.Process.Pid, "mcp-server-everything"); again == pid {
		t.Fatalf("still the killed process %d", pid)
	}
}

// childProcess finds the process of parent whose command line contains
// name.
func childProcess(t *testing.T, parent int, name string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil {
				continue
			}
			// pid (comm) state ppid …: comm may hold spaces, so read after ")".
			f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
			if len(f) < 2 || f[1] != strconv.Itoa(parent) {
				continue
			}
			cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if bytes.Contains(cmdline, []byte(name)) {
				return pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no child process of %d runs %s", parent, name)
	return 0
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		// Gone, or a zombie its parent has not reaped yet.
		if err != nil || bytes.Contains(stat, []byte(") Z ")) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not die", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A streamable HTTP MCP server whose tools change: the import with --watch
// follows it, and a call through the pipeline reaches it.
func TestMCPImportWatchesHTTPServer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "words", Version: "1"}, nil)
	word := map[string]any{"type": "object", "required": []any{"word"}, "properties": map[string]any{"word": map[string]any{"type": "string", "description": "the word"}}}
	addTool := func(name, desc string, f func(string) string) {
		srv.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: word}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Word string }
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: f(args.Word)}}}, nil
		})
	}
	addTool("reverse", "Reverse the letters of a word", func(w string) string {
		r := []rune(w)
		slices.Reverse(r)
		return string(r)
	})
	addTool("shout", "Write a word in capital letters", strings.ToUpper)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	// Registered first, so it runs last: the worker's session (a hanging
	// GET) is gone by then, and Close does not wait for it.
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })

	_, url := upEmpty(t, "--allow", "network") // an MCP server reached by URL is the network
	// A tool of the namespace that is not the server's: never touched.
	cli(t, 0, "tools", "add", "--nats", url, writeTemp(t, `{"id": "words/manual", "description": "Hand-written dictionary lookup"}`))
	watch := startProcess(t, "tools", "import", "mcp", "--nats", url, "--name", "words", "--url", hs.URL, "--watch")
	watch.WaitOutput(t, "watching", 30*time.Second)
	waitTools(t, url, "words/", []string{"words/manual", "words/reverse", "words/shout"})

	// Quoted, and in plain words: the parameter's name cues the word after it.
	quoted, plain := "reverse the letters of the word \"stressed\"", "reverse the letters of the word drawer"
	rs := publishWait(t, url, "words-agent", "[TOOL: "+quoted+"] and [TOOL: "+plain+"]")
	for intent, want := range map[string]string{quoted: "desserts", plain: "reward"} {
		if r := rs[intent]; r.Status != schemas.StatusExecuted || r.ToolID != "words/reverse" || outputText(r) != want {
			t.Fatalf("%q over streamable HTTP: %+v", intent, r)
		}
	}

	addTool("count", "Count the letters of a word", func(w string) string { return strconv.Itoa(len([]rune(w))) })
	waitTools(t, url, "words/", []string{"words/count", "words/manual", "words/reverse", "words/shout"})
	srv.RemoveTools("shout", "reverse")
	waitTools(t, url, "words/", []string{"words/count", "words/manual"})

	watch.Kill(syscall.SIGINT)
	if code := watch.Cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("watch exited %d after SIGINT:\n%s", code, watch.Output.String())
	}
}

func writeTemp(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitTools waits until the registry's ids under prefix are want.
func waitTools(t *testing.T, url, prefix string, want []string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var got []string
	for time.Now().Before(deadline) {
		got = nil
		out := cli(t, 0, "tools", "list", "--json", "--nats", url)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var m schemas.Manifest
			if json.Unmarshal([]byte(line), &m) == nil && strings.HasPrefix(m.ID, prefix) {
				got = append(got, m.ID)
			}
		}
		slices.Sort(got)
		if slices.Equal(got, want) {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("registry under %s: %v, want %v", prefix, got, want)
}

func TestKiwiImportCLI(t *testing.T) {
	_, url := upEmpty(t)
	project := filepath.Join("..", "workers", "kiwi", "testdata", "project")
	out := cli(t, 1, "tools", "import", "kiwi", "--nats", url, project)
	if !strings.Contains(out, "bad signature: the file changed after it was signed") || !strings.Contains(out, "nothing imported") {
		t.Fatalf("all-or-nothing import: %s", out)
	}
	if list := cli(t, 0, "tools", "list", "--nats", url); strings.Contains(list, "kiwi/") {
		t.Fatalf("a refused import wrote tools:\n%s", list)
	}
	out = cli(t, 1, "tools", "import", "kiwi", "--nats", url, "--skip-invalid", project)
	if !strings.Contains(out, "4 added") {
		t.Fatalf("--skip-invalid: %s", out)
	}
	list := cli(t, 0, "tools", "list", "--nats", url)
	for _, want := range []string{"kiwi/search/web_search", "kiwi/scraping/google_maps", "kiwi/util/word_count", "kiwi/util/stats"} {
		if !regexp.MustCompile(regexp.QuoteMeta(want) + `\s+tool\s`).MatchString(list) {
			t.Errorf("tools list lacks %s:\n%s", want, list)
		}
	}
}

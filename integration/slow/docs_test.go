package slow

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/integration/itest"
)

// docPages are the pages whose shell examples TestDocsCommandsRun runs, in
// the order a reader meets them (the README's first session registers the
// tool the registry page later removes).
var docPages = []string{"README.md", "docs/*.md", "ops/*.md", "training/*.md"}

// notRunHere are toolyard commands shown in the docs that this test checks
// only for their flags (`--help` appended: unknown flags and commands fail),
// because running them needs something a test machine does not have or
// serves forever. Each says why; anything not matched here is run.
var notRunHere = []struct{ pattern, why string }{
	{`^bin/toolyard (up|worker)\b`, "serves until stopped; the test runs its own up"},
	{`^bin/toolyard mcp serve\b`, "serves until stopped (the gateway tests run it)"},
	{`^bin/toolyard train calibration\b`, "ranks every benchmark dev query, a minute or more (training/fit's tests run the same fit on small rows)"},
	{`^bin/toolyard bench replay --records [0-9]{6,}`, "replays hundreds of thousands of records: minutes (the same command with fewer records runs here)"},
	{`/tmp/usage-enc-model`, "the sentence encoder on the usage side embeds every learned intent once per fold: over a minute of training and as long again to load the model, too long for CI (TestTrainWithUsageEncoder trains and evaluates the same way on a small history)"},
	{`^bin/toolyard replay --workers\b`, "needs replay workers (TestShardedReplaySurvivesAKilledWorker runs them)"},
	{`^bin/toolyard tools import nats\b`, "needs a NATS micro service of that name"},
	{`--url https?://`, "needs an MCP server at that address"},
	{`/srv/`, "needs a directory the example assumes"},
	{`\.example\.com|…`, "a placeholder the reader fills in"},
	{`dlq (show|replay) [0-9]`, "names a dead letter of the reader's"},
	{`INTENT_ID`, "names an intent of the reader's"},
}

// docCommand is one shell command of a page's ```sh block, continuation
// lines joined.
type docCommand struct {
	page string
	line int
	text string
}

func docCommands(t *testing.T, root string) []docCommand {
	t.Helper()
	var out []docCommand
	seen := map[string]bool{}
	for _, pattern := range docPages {
		files, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			// cli.md is generated from the commands' own help (kept
			// current by a test in cmd/toolyard), not written by hand.
			if seen[f] || filepath.Base(f) == "cli.md" {
				continue
			}
			seen[f] = true
			out = append(out, shellBlocks(t, root, f)...)
		}
	}
	return out
}

func shellBlocks(t *testing.T, root, file string) []docCommand {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rel, _ := filepath.Rel(root, file)
	var out []docCommand
	var in bool
	var cur *docCommand
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		case !in:
			continue
		}
		if cur != nil {
			cur.text += " " + strings.TrimSpace(strings.TrimSuffix(line, `\`))
		} else if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, docCommand{page: rel, line: n, text: strings.TrimSuffix(s, `\`)})
			cur = &out[len(out)-1]
		}
		if !strings.HasSuffix(line, `\`) {
			cur = nil
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// toolyardCommand is the `bin/toolyard …` part of a shell line (after any
// `echo … |`), or "" when the line runs another program (make, nats, npx…).
func toolyardCommand(line string) string {
	for _, part := range strings.Split(line, "|") {
		part = strings.TrimSpace(part)
		// The example agents of docs/examples talk to Toolyard as well.
		if strings.HasPrefix(part, "bin/toolyard ") || strings.HasPrefix(part, "node docs/examples/") {
			return part
		}
	}
	return ""
}

// Every command the README and the docs show is run: a new user copies them,
// so each must work as written. Toolyard commands run from a checkout-shaped
// directory against a real `toolyard up`; those that need what a test
// machine lacks (notRunHere) have their flags checked, the example agents
// of docs/examples run too; other programs (make, npx, nats, ollama) are
// listed, not run.
func TestDocsCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every documented command against a real server")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmds := docCommands(t, root)
	if len(cmds) < 10 {
		t.Fatalf("found only %d documented commands; is the page layout different?", len(cmds))
	}

	// A directory shaped like a checkout: bin/toolyard, node_modules, and the
	// benchmark data beside it, plus the example files the docs name.
	top := t.TempDir()
	work := filepath.Join(top, "toolyard")
	for _, d := range []string{filepath.Join(work, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(work, "bin", "toolyard"): itest.Binary,
		filepath.Join(work, "node_modules"):    filepath.Join(root, "node_modules"),
		filepath.Join(work, "ops"):             filepath.Join(root, "ops"),
		filepath.Join(work, "training"):        filepath.Join(root, "training"),
		filepath.Join(work, "docs"):            filepath.Join(root, "docs"),
		filepath.Join(top, "shared"):           filepath.Join(root, "..", "shared"),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	sample, err := os.ReadFile(filepath.Join(root, "ops", "sample", "tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The registry page imports my-tools.jsonl and signs tools.jsonl: one
	// tool of the sample each, under ids of their own.
	first, _, _ := strings.Cut(string(sample), "\n")
	for name, id := range map[string]string{"my-tools.jsonl": "mine/", "tools.jsonl": "signed/"} {
		line := strings.Replace(first, `"id": "`, `"id": "`+id, 1)
		if err := os.WriteFile(filepath.Join(work, name), []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// ops/OPERATING.md's large-output example reads /usr, which it says
	// needs --path-root /usr on top of the default roots.
	wd, _ := os.Getwd()
	_, url := itest.StartUp(t, "",
		"--path-root", wd+",/tmp,/usr")

	env := append(os.Environ(), "TOOLYARD_NATS="+url)
	var keys string
	// Offline training writes the same model directory whichever page shows
	// it: an identical command runs once (half a minute each).
	ranOnce := regexp.MustCompile(`^bin/toolyard train --tools\b`)
	ran := map[string]string{}
	for _, c := range cmds {
		name := fmt.Sprintf("%s:%d", c.page, c.line)
		ty := toolyardCommand(c.text)
		if ty == "" {
			t.Logf("%s: not a toolyard command, not run: %s", name, c.text)
			continue
		}
		line := stripComment(c.text)
		if keys != "" {
			// The signing examples name the public key as A…: the key
			// keygen printed stands in for it.
			line = strings.ReplaceAll(line, "A…", keys)
		}
		why := ""
		for _, n := range notRunHere {
			if regexp.MustCompile(n.pattern).MatchString(line) {
				why = n.why
				break
			}
		}
		if why != "" {
			// Flags only: strip a trailing comment and anything after `--`
			// (the server command an import would start).
			args := stripComment(ty)
			if i := strings.Index(args, " -- "); i >= 0 {
				args = args[:i]
			}
			t.Logf("%s: flags checked, not run (%s): %s", name, why, c.text)
			out, err := runShell(work, env, args+" --help")
			if err != nil {
				t.Errorf("%s: %s\nits flags do not parse: %v\n%s", name, c.text, err, out)
			}
			continue
		}
		if ranOnce.MatchString(line) {
			if first, ok := ran[line]; ok {
				t.Logf("%s: the same command ran at %s: %s", name, first, c.text)
				continue
			}
			ran[line] = name
		}
		start := time.Now()
		out, err := runShell(work, env, line)
		if err != nil {
			t.Errorf("%s: %s\nfailed: %v\n%s", name, c.text, err, out)
			continue
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("%s: %.1f s: %s", name, d.Seconds(), c.text)
		}
		if strings.Contains(ty, "tools keygen") {
			keys = regexp.MustCompile(`\bA[A-Z2-7]{55}\b`).FindString(out)
		}
	}
}

// stripComment drops a trailing shell comment ("  # …") outside quotes.
func stripComment(s string) string {
	var quote rune
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && i > 0 && s[i-1] == ' ':
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

func runShell(dir string, env []string, line string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", line)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// readmeMaxLines is what a newcomer reads before the first session: what
// Toolyard does, the prerequisites, the two commands and a first session.
// Everything else belongs in docs/, linked from the README's last table.
const readmeMaxLines = 250

func TestReadmeStaysShort(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to a page of docs/ and link it", n, readmeMaxLines)
	}
}

package integration

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// replayTools is our own registry: four everyday tools and a garden tool
// whose subprocess would leave a file behind if it ever ran.
func replayTools(t *testing.T, dir, marker string) string {
	t.Helper()
	tools := []map[string]any{
		{"id": "weather", "name": "weather", "description": "Current weather and forecast for a city: temperature, rain and wind.", "keywords": []string{"weather", "forecast", "temperature"}},
		{"id": "currency", "name": "currency", "description": "Convert an amount of money from one currency to another at today's exchange rate.", "keywords": []string{"currency", "exchange", "convert", "money"}},
		{"id": "translate", "name": "translate", "description": "Translate text from one language into another language.", "keywords": []string{"translate", "language", "translation"}},
		{"id": "stocks", "name": "stocks", "description": "Stock market quotes: the share price of a listed company.", "keywords": []string{"stock", "share", "price", "quote"}},
		{"id": "garden/sprinkler", "name": "sprinkler", "description": "Turn on the garden sprinkler to water the lawn and the flower beds.", "keywords": []string{"sprinkler", "water", "garden", "lawn"},
			"executor": map[string]any{"kind": "subprocess", "argv": []string{"/bin/sh", "-c", "echo ran >> " + marker}, "timeout": "5s"}},
	}
	path := filepath.Join(dir, "tools.jsonl")
	writeJSONL(t, path, anys(tools)...)
	return path
}

// replayAudit writes an audit file of our own: imported history (the
// contract's seven fields) and one session as the stages audit it.
func replayAudit(t *testing.T, dir string) (path string, texts []string) {
	t.Helper()
	at := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	var recs []schemas.AuditRecord
	hist := []struct{ text, tool string }{
		{"what is the weather forecast for Lisbon tomorrow", "weather"},
		{"convert 250 dollars into euros", "currency"},
		{"translate thank you very much into Japanese", "translate"},
		{"share price of ACME corporation today", "stocks"},
		{"water the lawn with the garden sprinkler", "garden/sprinkler"},
		{"turn on the sprinkler for the flower beds", "garden/sprinkler"},
	}
	for i, h := range hist {
		recs = append(recs, schemas.AuditRecord{Timestamp: at.Add(time.Duration(i) * time.Minute), SessionID: "hist-1",
			IntentExpressed: "[TOOL: " + h.text + "]", ToolID: h.tool, Parameters: map[string]any{}, Result: "success"})
		texts = append(texts, h.text)
	}
	// A pipeline session: the intent was routed multiple_matches, then the
	// agent activated the sprinkler (a correction); a direct call follows.
	at = at.Add(time.Hour)
	const text = "give the garden some water"
	texts = append(texts, text)
	for _, r := range []schemas.AuditRecord{
		{Stage: "parse", IntentID: "m1.0", IntentExpressed: text, Decision: "intent", Result: "parsed"},
		{Stage: "discover", IntentID: "m1.0", IntentExpressed: text, Decision: "candidates", Result: "discovered", ToolID: "garden/sprinkler", Confidence: 0.62, Candidates: []string{"garden/sprinkler", "weather"}, DurationMS: 0.8},
		{Stage: "route", IntentID: "m1.0", IntentExpressed: text, Decision: schemas.TierMultiple, Result: schemas.TierMultiple, ToolID: "garden/sprinkler", Confidence: 0.62, Candidates: []string{"garden/sprinkler", "weather"}},
		{Stage: "parse", IntentID: "m2.0", IntentExpressed: "activate garden/sprinkler", Decision: "intent", Result: "parsed"},
		{Stage: "execute", IntentID: "m2.0", ToolID: "toolyard/activate", Parameters: map[string]any{"id": "garden/sprinkler"}, Result: "success"},
		{Stage: "parse", IntentID: "m3.0", Decision: "direct_call", ToolID: "weather", Result: "parsed"},
	} {
		r.Timestamp, r.SessionID = at, "live-1"
		if r.Parameters == nil {
			r.Parameters = map[string]any{}
		}
		at = at.Add(10 * time.Second)
		recs = append(recs, r)
	}
	path = filepath.Join(dir, "audit.jsonl")
	writeJSONL(t, path, anys(recs)...)
	// A line that is no audit record is reported and skipped, not fatal.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("{not json\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path, texts
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

type replaySummary struct {
	Intents     int            `json:"intents"`
	Skipped     map[string]int `json:"skipped"`
	Labelled    int            `json:"labelled"`
	ChangedTier int            `json:"changed_tier"`
	ChangedTool int            `json:"changed_tool"`
	Gained      int            `json:"gained"`
	Lost        int            `json:"lost"`
	Baseline    replaySide     `json:"baseline"`
	Candidate   replaySide     `json:"candidate"`
	Changes     []struct {
		Text      string        `json:"text"`
		Label     string        `json:"label"`
		Baseline  replayOutcome `json:"baseline"`
		Candidate replayOutcome `json:"candidate"`
	} `json:"changes"`
}

type replaySide struct {
	Source  string `json:"source"`
	Metrics struct {
		Tiers    map[string]int `json:"tiers"`
		Ran      int            `json:"ran"`
		Labelled int            `json:"labelled"`
		Accuracy *float64       `json:"accuracy"`
		ECE      *float64       `json:"ece"`
	} `json:"metrics"`
}

type replayOutcome struct {
	Tier       string   `json:"tier"`
	Tool       string   `json:"tool"`
	Top        string   `json:"top"`
	Confidence *float64 `json:"confidence"`
	Ran        bool     `json:"ran"`
}

func runReplay(t *testing.T, args ...string) (replaySummary, string) {
	t.Helper()
	out, err := exec.Command(binary, append([]string{"replay"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("toolyard replay %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var report string
	for i, a := range args {
		if a == "--report" {
			report = args[i+1]
		}
	}
	data, err := os.ReadFile(filepath.Join(report, "summary.json"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var s replaySummary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s, string(out)
}

func writeConfig(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// evalLines runs `toolyard eval discovery` on texts, an independent way to
// the same rankings: id → its line ({ranked, confidence, tier}).
func evalLines(t *testing.T, dir, tools string, texts []string, activate string) map[string]struct {
	Ranked     []string  `json:"ranked"`
	Confidence []float64 `json:"confidence"`
	Tier       string    `json:"tier"`
} {
	t.Helper()
	var qs []map[string]any
	for i, text := range texts {
		qs = append(qs, map[string]any{"id": text, "query": text, "gold_tool_ids": []string{"q" + string(rune('a'+i))}})
	}
	queries, outFile := filepath.Join(dir, "queries.jsonl"), filepath.Join(dir, "eval.jsonl")
	writeJSONL(t, queries, anys(qs)...)
	if out, err := exec.Command(binary, "eval", "discovery", "--tools", tools, "--queries", queries, "--out", outFile, "--activate-threshold", activate).CombinedOutput(); err != nil {
		t.Fatalf("eval discovery: %v\n%s", err, out)
	}
	f, err := os.Open(outFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := map[string]struct {
		Ranked     []string  `json:"ranked"`
		Confidence []float64 `json:"confidence"`
		Tier       string    `json:"tier"`
	}{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			ID         string    `json:"id"`
			Ranked     []string  `json:"ranked"`
			Confidence []float64 `json:"confidence"`
			Tier       string    `json:"tier"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines[l.ID] = struct {
			Ranked     []string  `json:"ranked"`
			Confidence []float64 `json:"confidence"`
			Tier       string    `json:"tier"`
		}{l.Ranked, l.Confidence, l.Tier}
	}
	return lines
}

// toolyard replay on an audit file of our own: the recorded baseline
// against a stricter activation threshold, checked against the recorded
// tiers and an independent ranking of the same texts by `eval discovery`.
func TestReplayReportsWhatAStricterThresholdChanges(t *testing.T) {
	dir := t.TempDir()
	tools := replayTools(t, dir, filepath.Join(dir, "ran.txt"))
	audit, texts := replayAudit(t, dir)
	// Replay searches the registry with the builtin meta-tools beside it,
	// as the stages do, and eval discovery without them: their confidences
	// differ by a few hundredths, so the threshold stays clear of both.
	strict := writeConfig(t, dir, "strict.json", `{"activate-threshold": 0.995}`)
	report := filepath.Join(dir, "report")
	s, out := runReplay(t, "--audit", audit, "--tools", tools, "--candidate", strict, "--report", report)
	if !strings.Contains(out, "no tool was run") || !strings.Contains(out, "1 bad lines skipped") {
		t.Errorf("output:\n%s", out)
	}
	if s.Intents != len(texts) || s.Skipped["direct call (no discovery)"] != 1 {
		t.Fatalf("intents %d (want %d), skipped %v", s.Intents, len(texts), s.Skipped)
	}
	// Labels: six history records, and the correction of m1.0.
	if s.Labelled != 7 || s.Baseline.Metrics.Labelled != 7 {
		t.Fatalf("labelled %d", s.Labelled)
	}
	// The recorded side: six history intents ran (activated), m1.0 was multiple_matches.
	if s.Baseline.Metrics.Tiers["activated"] != 6 || s.Baseline.Metrics.Tiers["multiple_matches"] != 1 || s.Baseline.Metrics.Ran != 6 {
		t.Fatalf("recorded tiers %v, ran %d", s.Baseline.Metrics.Tiers, s.Baseline.Metrics.Ran)
	}
	lines := evalLines(t, dir, tools, texts, "0.995")
	recorded := map[string]struct{ tier, top string }{texts[len(texts)-1]: {"multiple_matches", "garden/sprinkler"}}
	for i := range 6 {
		recorded[texts[i]] = struct{ tier, top string }{"activated", []string{"weather", "currency", "translate", "stocks", "garden/sprinkler", "garden/sprinkler"}[i]}
	}
	wantTier, wantTool := 0, 0
	candTiers := map[string]int{}
	for _, text := range texts {
		l, ok := lines[text]
		if !ok || len(l.Ranked) == 0 {
			t.Fatalf("eval discovery ranked nothing for %q", text)
		}
		candTiers[l.Tier]++
		if l.Tier != recorded[text].tier {
			wantTier++
		}
		if l.Ranked[0] != recorded[text].top {
			wantTool++
		}
	}
	if s.ChangedTier != wantTier || s.ChangedTool != wantTool {
		for _, c := range s.Changes {
			t.Logf("replay: %q %s %s %v; eval: %+v", c.Text, c.Candidate.Tier, c.Candidate.Top, *c.Candidate.Confidence, lines[c.Text])
		}
		t.Fatalf("changed tier %d tool %d; eval discovery says %d and %d", s.ChangedTier, s.ChangedTool, wantTier, wantTool)
	}
	for tier, n := range candTiers {
		if s.Candidate.Metrics.Tiers[tier] != n {
			t.Fatalf("candidate tiers %v, eval discovery's %v", s.Candidate.Metrics.Tiers, candTiers)
		}
	}
	if wantTier == 0 {
		t.Fatal("the stricter threshold changed no tier: the test data does not exercise it")
	}
	// Every activation the strict threshold drops on a labelled intent
	// that ran its tool is a loss.
	if s.Lost == 0 || len(s.Changes) < s.ChangedTier {
		t.Fatalf("lost %d, changes %d", s.Lost, len(s.Changes))
	}
	if s.Candidate.Metrics.ECE == nil || s.Baseline.Metrics.ECE == nil {
		t.Fatal("ECE missing: the candidate has confidences, and so does the recorded m1.0")
	}
	page, err := os.ReadFile(filepath.Join(report, "index.html"))
	if err != nil || strings.Count(string(page), "<svg") != 6 {
		t.Fatalf("index.html: %v, %d plots", err, strings.Count(string(page), "<svg"))
	}

	// A history replayed a group of sessions at a time (a tiny group size
	// forces several) reports the same, and leaves no spilled file.
	spill := filepath.Join(dir, "spill")
	if err := os.Mkdir(spill, 0o700); err != nil {
		t.Fatal(err)
	}
	grouped, gout := runReplay(t, "--audit", audit, "--tools", tools, "--candidate", strict, "--report", filepath.Join(dir, "grouped"),
		"--group-size", "1KB", "--spill-dir", spill)
	if strings.Count(gout, " of sessions: ") < 2 {
		t.Errorf("fewer than two groups in the output:\n%s", gout)
	}
	if grouped.Intents != s.Intents || grouped.Labelled != s.Labelled || grouped.ChangedTier != s.ChangedTier || grouped.ChangedTool != s.ChangedTool ||
		grouped.Gained != s.Gained || grouped.Lost != s.Lost || len(grouped.Changes) != len(s.Changes) {
		t.Fatalf("in groups: %+v\nwhole: %+v", grouped, s)
	}
	if left, _ := os.ReadDir(spill); len(left) != 0 {
		t.Fatalf("spilled groups left behind: %v", left)
	}

	// The same configuration on both sides changes nothing.
	same, _ := runReplay(t, "--audit", audit, "--tools", tools, "--baseline", strict, "--candidate", strict, "--report", filepath.Join(dir, "same"))
	if same.ChangedTier != 0 || same.ChangedTool != 0 || same.Gained != 0 || same.Lost != 0 || same.Intents != len(texts) {
		t.Fatalf("identical sides: %+v", same)
	}
}

// A replay never runs a tool: the sprinkler's subprocess would leave a
// file, and intents that activate it and resolve are replayed.
func TestReplayRunsNoTool(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran.txt")
	tools := replayTools(t, dir, marker)
	audit, _ := replayAudit(t, dir)
	// The tool works: run as its manifest says, it writes the file.
	proof := filepath.Join(dir, "proof.txt")
	if out, err := exec.Command("/bin/sh", "-c", "echo ran >> "+proof).CombinedOutput(); err != nil {
		t.Fatalf("the tool's command does not run: %v %s", err, out)
	}
	if _, err := os.Stat(proof); err != nil {
		t.Fatal("the tool's command wrote nothing: the test would prove nothing")
	}
	loose := writeConfig(t, dir, "loose.yaml", "activate-threshold: 0.05\nmultiple-threshold: 0.04\nweak-threshold: 0.03\n")
	s, _ := runReplay(t, "--audit", audit, "--tools", tools, "--candidate", loose, "--report", filepath.Join(dir, "report"))
	sprinkled := 0
	for _, c := range s.Changes {
		if c.Candidate.Ran && c.Candidate.Tool == "garden/sprinkler" {
			sprinkled++
		}
	}
	// m1.0 was multiple_matches; activated now, its tool would run.
	if sprinkled == 0 || s.Candidate.Metrics.Ran < 3 {
		t.Fatalf("no replayed intent would run the sprinkler (ran %d): the test proves nothing\n%+v", s.Candidate.Metrics.Ran, s.Changes)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatalf("a replay ran the tool: %s exists (%v)", marker, err)
	}
}

// A configuration is read as the command line: an unknown key or a bad
// value is refused with the flag's own words, and nothing is written.
func TestReplayRefusesBadConfig(t *testing.T) {
	dir := t.TempDir()
	tools := replayTools(t, dir, filepath.Join(dir, "ran.txt"))
	audit, _ := replayAudit(t, dir)
	for _, c := range []struct{ name, body, want string }{
		{"unknown.json", `{"activate-treshold": 0.9}`, `unknown key "activate-treshold"`},
		{"badvalue.json", `{"activate-threshold": "high"}`, `activate-threshold: invalid argument "high"`},
		{"order.json", `{"activate-threshold": 0.2}`, "threshold"},
		{"notobject.json", `[1, 2]`, "JSON object"},
	} {
		report := filepath.Join(dir, "r-"+c.name)
		out, err := exec.Command(binary, "replay", "--audit", audit, "--tools", tools, "--candidate", writeConfig(t, dir, c.name, c.body), "--report", report).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: err %v, output %s; want an error with %q", c.name, err, out, c.want)
		}
		if _, err := os.Stat(report); !os.IsNotExist(err) {
			t.Errorf("%s: a report was written for a refused config", c.name)
		}
	}
}

// Without --audit, replay reads the running Toolyard's AUDIT stream, in the
// window and sessions asked for.
func TestReplayReadsTheAuditStream(t *testing.T) {
	_, url := startUp(t, "")
	for _, sess := range []string{"rs-1", "rs-2", "other"} {
		toolyard(t, "publish", "--nats", url, "--session", sess, "--wait", "--timeout", "30s", "[TOOL: how long has the system been up] and [TOOL: kernel version]")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	strict := writeConfig(t, dir, "strict.json", `{"activate-threshold": 0.99}`)
	s, out := runReplay(t, "--nats", url, "--since", "1h", "--session", "rs-*", "--tools", filepath.Join(root, "ops", "sample", "tools.jsonl"),
		"--candidate", strict, "--report", filepath.Join(dir, "report"))
	if s.Intents != 4 {
		t.Fatalf("replayed %d intents from the stream, want the 4 of sessions rs-*:\n%s", s.Intents, out)
	}
	if !strings.Contains(out, "from the AUDIT stream") {
		t.Errorf("no word of where the records came from:\n%s", out)
	}
	if _, err := exec.Command(binary, "replay", "--nats", url, "--audit", "x.jsonl", "--since", "1h", "--tools", "t", "--candidate", strict, "--report", dir).CombinedOutput(); err == nil {
		t.Error("--since with --audit files was accepted")
	}
}

// A sharded replay: two replay worker processes take the shards, one is
// killed in the middle of the job; its shard is redone by the other, and
// the report is exactly the one-process replay's (each intent counted once).
func TestShardedReplaySurvivesAKilledWorker(t *testing.T) {
	audit := evaltest.Path(t, "metatool", "learn", "audit.jsonl")
	tools := evaltest.Path(t, "metatool", "tools.jsonl")
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	data := useData(t, t.TempDir())
	up := startProcess(t, "up", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "")
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	var workers []*process
	for range 2 {
		w := startProcess(t, "worker", "--nats", url, "--creds", filepath.Join(data, "creds", "worker.creds"), "--stage", "replay", "--http", "", "--ack-wait", "3s")
		w.WaitOutput(t, "worker started", 60*time.Second)
		workers = append(workers, w)
	}
	dir := t.TempDir()
	strict := writeConfig(t, dir, "strict.json", `{"activate-threshold": 0.9}`)
	local, _ := runReplay(t, "--audit", audit, "--tools", tools, "--candidate", strict, "--report", filepath.Join(dir, "local"))

	cmd := exec.Command(binary, "replay", "--nats", url, "--workers", "--shard-size", "250", "--audit", audit, "--tools", tools,
		"--candidate", strict, "--report", filepath.Join(dir, "sharded"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	killed := false
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if !killed && strings.Contains(sc.Text(), " done: ") {
			workers[0].Kill(syscall.SIGKILL) // mid-job: it holds a shard it will never finish
			killed = true
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sharded replay: %v\n%s", err, strings.Join(lines, "\n"))
	}
	if !killed {
		t.Fatalf("no shard finished, no worker killed:\n%s", strings.Join(lines, "\n"))
	}
	data2, err := os.ReadFile(filepath.Join(dir, "sharded", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sharded replaySummary
	if err := json.Unmarshal(data2, &sharded); err != nil {
		t.Fatal(err)
	}
	if sharded.Intents != local.Intents || sharded.ChangedTier != local.ChangedTier || sharded.ChangedTool != local.ChangedTool ||
		sharded.Gained != local.Gained || sharded.Lost != local.Lost {
		t.Fatalf("sharded replay with a killed worker differs from the one-process replay:\nsharded %+v\nlocal   %+v", sharded, local)
	}
	t.Logf("%d intents, changed tier %d, changed tool %d: as one process; a worker was killed mid-job", sharded.Intents, sharded.ChangedTier, sharded.ChangedTool)
}

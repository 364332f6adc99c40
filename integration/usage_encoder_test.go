package integration

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/training/prefetch"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// homeHistory writes our own history for three of the home tools (people
// asking in their own words, one record per session) and two later
// queries; it returns the tools, audit and queries files.
func homeHistory(t *testing.T, dir string) (tools, audit, queries string) {
	t.Helper()
	tools = filepath.Join("..", "training", "eval", "testdata", "home_tools.jsonl")
	// Our own history: people asking for three of the home tools in their
	// own words, one record per session.
	asks := map[string][]string{
		"home/robot_vacuum":      {"get the floors cleaned while I'm out", "the carpet needs hoovering", "tidy up the dust in the hallway", "run the little cleaner bot", "crumbs all over the kitchen floor"},
		"home/track_package":     {"where is my delivery", "has my parcel shipped yet", "when does the box from the shop arrive", "is the courier close", "status of the thing I ordered"},
		"home/exchange_currency": {"how many euros for fifty dollars", "what are my pounds worth in yen", "swap rates for the trip", "price in my own money please", "dollars into francs today"},
	}
	t0 := time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)
	var recs []any
	n := 0
	for round := range 8 {
		for _, tool := range []string{"home/robot_vacuum", "home/track_package", "home/exchange_currency"} {
			for _, a := range asks[tool] {
				recs = append(recs, schemas.AuditRecord{Timestamp: t0.Add(time.Duration(n) * time.Minute), SessionID: fmt.Sprintf("s%d-%d", round, n),
					IntentExpressed: "[TOOL: " + a + "]", ToolID: tool, Result: "success"})
				n++
			}
		}
	}
	audit = filepath.Join(dir, "audit.jsonl")
	writeJSONL(t, audit, recs...)
	queries = filepath.Join(dir, "queries.jsonl")
	writeJSONL(t, queries,
		map[string]any{"id": "q1", "query": "the kitchen floor is a mess of crumbs again", "gold_tool_ids": []string{"home/robot_vacuum"}},
		map[string]any{"id": "q2", "query": "when will the courier bring my box", "gold_tool_ids": []string{"home/track_package"}})

	return tools, audit, queries
}

// A model trained with the sentence encoder on the usage side alone
// records it, is evaluated with it without a flag, and is refused, with an
// error naming the embedder, by a build that cannot run that embedder; a
// model from before the field still loads.
func TestTrainWithUsageEncoder(t *testing.T) {
	dir := t.TempDir()
	tools, audit, queries := homeHistory(t, dir)
	model := filepath.Join(dir, "model")
	out := toolyard(t, "train", "--tools", tools, "--audit", audit, "--out", model, "--usage-encoder", "use-lite")
	if !strings.Contains(out, "embedded by use-lite:") {
		t.Fatalf("train report should name the usage encoder:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(model, "usage_vectors.bin")); err != nil {
		t.Errorf("the usage-encoder model carries no vectors of its learned intents: %v", err)
	}
	usage := readUsage(t, model)
	if enc, _ := usage["encoder"].(string); !strings.HasPrefix(enc, "use-lite:") {
		t.Fatalf("usage.json records encoder %q, want the use-lite encoder's id", enc)
	}
	if ev := toolyard(t, "eval", "discovery", "--tools", tools, "--queries", queries, "--model", model); !strings.Contains(ev, "hit@1 1.000") {
		t.Errorf("eval with the usage-encoder model:\n%s", ev)
	}

	// A build whose encoder is another: refused, naming the embedder.
	other := copyModel(t, model, filepath.Join(dir, "other"), func(u map[string]any) { u["encoder"] = "use-lite:another-build:00000000:text=description" })
	cmd := exec.Command(binary, "eval", "discovery", "--tools", tools, "--queries", queries, "--model", other)
	failed, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(failed), "use-lite:another-build") || !strings.Contains(string(failed), "cannot embed with") {
		t.Errorf("a model embedded by an encoder this build lacks: err %v\n%s", err, failed)
	}

	// A model from before the field (and before the vector classifier,
	// which came later): loaded, read as before.
	old := copyModel(t, model, filepath.Join(dir, "old"), func(u map[string]any) {
		delete(u, "encoder")
		delete(u, "vector_classifier")
		delete(u["weights"].(map[string]any), "vector_class")
	})
	if ev := toolyard(t, "eval", "discovery", "--tools", tools, "--queries", queries, "--model", old); !strings.Contains(ev, "2 queries") {
		t.Errorf("a model without the encoder field:\n%s", ev)
	}
}

func readUsage(t *testing.T, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var u map[string]any
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	return u
}

// copyModel copies a model directory with its usage.json changed by edit
// and the manifest's checksum of it updated, as a model written so would be.
func copyModel(t *testing.T, from, to string, edit func(map[string]any)) string {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	u := readUsage(t, from)
	edit(u)
	data, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	raw, err := os.ReadFile(filepath.Join(from, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m["files"].(map[string]any)["usage.json"] = hex.EncodeToString(sum[:])
	manifest, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"usage.json": data, "manifest.json": manifest}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries { // the other files as they are
		if _, edited := files[e.Name()]; !edited {
			if files[e.Name()], err = os.ReadFile(filepath.Join(from, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(to, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// Training with the workers' remote embedder (here a local server speaking
// Ollama's protocol, backed by the word vectors: a real HTTP embedder, no
// network) records it as the usage side's embedder, so an engine searching
// with it (eval discovery and eval prefetch with that embedder) takes the
// model as its own; a model trained on the build's word vectors is taken
// by that engine too, its usage side embedding with them.
func TestTrainWithTheWorkersRemoteEmbedder(t *testing.T) {
	dir := t.TempDir()
	tools, audit, queries := homeHistory(t, dir)
	local, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	srv, err := prefetch.StartDelayedOllamaServer(local, "toolyard-local-delayed")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	remote := filepath.Join(dir, "remote-model")
	out := toolyard(t, "train", "--tools", tools, "--audit", audit, "--out", remote,
		"--embedder", "ollama", "--embedder-model", "toolyard-local-delayed", "--embedder-url", srv.URL())
	if enc, _ := readUsage(t, remote)["encoder"].(string); !strings.HasPrefix(enc, "ollama:toolyard-local-delayed") || !strings.Contains(out, "embedded by "+enc) {
		t.Fatalf("usage.json records encoder %q, want the remote embedder's id:\n%s", enc, out)
	}
	if ev := toolyard(t, "eval", "discovery", "--tools", tools, "--queries", queries, "--model", remote,
		"--embedder", "ollama", "--embedder-model", "toolyard-local-delayed", "--embedder-url", srv.URL()); !strings.Contains(ev, "2 queries") {
		t.Errorf("eval discovery with the workers' embedder:\n%s", ev)
	}
	words := filepath.Join(dir, "word-model")
	toolyard(t, "train", "--tools", tools, "--audit", audit, "--out", words)
	for _, model := range []string{remote, words} {
		ev := toolyard(t, "eval", "prefetch", "--json", "--tools", tools, "--queries", queries, "--model", model,
			"--tokens-per-second", "400", "--search-latency", "0ms")
		var rep struct {
			Intents int     `json:"intents"`
			HitRate float64 `json:"hit_rate"`
		}
		if err := json.Unmarshal([]byte(ev[strings.LastIndex(ev, "{"):]), &rep); err != nil || rep.Intents != 2 {
			t.Errorf("eval prefetch with %s: %v\n%s", filepath.Base(model), err, ev)
		}
	}
	if out, err := exec.Command(binary, "train", "--tools", tools, "--audit", audit, "--out", filepath.Join(dir, "x"), "--embedder", "none").CombinedOutput(); err == nil || !strings.Contains(string(out), "training needs an embedder") {
		t.Errorf("train --embedder none: %v\n%s", err, out)
	}
}

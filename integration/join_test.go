package integration

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/join"
)

// publishCLI runs `toolyard publish --wait` and returns the receipt and the
// results by intent id, in the order they arrived.
func publishCLI(t *testing.T, url, session, text string) (schemas.Result, map[string]schemas.Result, []string) {
	t.Helper()
	out, err := exec.Command(binary, "publish", "--nats", url, "--session", session, "--wait", "--timeout", "60s", text).CombinedOutput()
	if err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	var receipt schemas.Result
	got := map[string]schemas.Result{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, sc.Bytes())
		if err != nil {
			t.Fatalf("publish printed a line that is not a result: %v\n%s", err, sc.Text())
		}
		if r.Status == schemas.StatusAccepted {
			receipt = r
			continue
		}
		if _, dup := got[r.IntentID]; dup {
			t.Errorf("intent %s answered twice", r.IntentID)
		}
		got[r.IntentID] = r
		order = append(order, r.IntentID)
	}
	if len(receipt.IntentIDs) != len(got) {
		t.Fatalf("receipt announced %v, got results for %d intents:\n%s", receipt.IntentIDs, len(got), out)
	}
	return receipt, got, order
}

func content(r schemas.Result) string {
	if r.Output == nil {
		return ""
	}
	return strings.TrimSpace(fmt.Sprint(r.Output.Content))
}

// Nested intents through the real binary and the sample tools, which really
// run (named by id where natural words sit near a routing threshold: this
// is about running them in order, not about discovery): each outer intent is discovered and run with its inner intent's
// output in place of the inner marker, after it; an inner failure keeps the
// outer tool from running and says why.
func TestNestedIntentsRunOnInnerResults(t *testing.T) {
	_, url := startUp(t, "")

	dir := t.TempDir()
	words := filepath.Join(dir, "words.txt")
	if err := os.WriteFile(words, []byte("alpha beta gamma delta\nsecond line, not read\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	the := filepath.Join(dir, "the.txt")
	if err := os.WriteFile(the, []byte("the words in a text\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("inner output substituted", func(t *testing.T) {
		text := fmt.Sprintf(`Counting. [TOOL: word count of text="[TOOL: files/head path=%s lines=1]"] Done.`, words)
		receipt, got, order := publishCLI(t, url, "nested", text)
		inner, outer := receipt.IntentIDs[0], receipt.IntentIDs[1]
		if r := got[inner]; r.Status != schemas.StatusExecuted || r.ToolID != "files/head" || content(r) != "alpha beta gamma delta" {
			t.Fatalf("inner: %+v", r)
		}
		r := got[outer]
		if r.Status != schemas.StatusExecuted || r.ToolID != "text/word_count" || content(r) != "4" {
			t.Fatalf("outer: %s %s %q %s, want text/word_count to count 4 words", r.Status, r.ToolID, content(r), r.Message)
		}
		if r.Intent != `word count of text="alpha beta gamma delta"` {
			t.Errorf("outer intent ran as %q", r.Intent)
		}
		if slices.Index(order, inner) > slices.Index(order, outer) {
			t.Errorf("outer answered before inner: %v", order)
		}
	})

	t.Run("inner output as the text after the frame", func(t *testing.T) {
		// Unquoted, the inner output is what follows the outer request's
		// frame ("count the words in"): every word of it is counted, its
		// articles included.
		text := fmt.Sprintf(`[TOOL: count the words in [TOOL: files/head path=%s lines=1]]`, the)
		receipt, got, _ := publishCLI(t, url, "nested-frame", text)
		r := got[receipt.IntentIDs[1]]
		if r.Status != schemas.StatusExecuted || r.ToolID != "text/word_count" || content(r) != "5" {
			t.Fatalf("outer: %s %s %q (%s) %s, want text/word_count to count 5 words", r.Status, r.ToolID, content(r), r.Intent, r.Message)
		}
	})

	t.Run("three levels", func(t *testing.T) {
		// c finds the file, b reads its first line, a counts the words.
		text := fmt.Sprintf(`[TOOL: word count of text="[TOOL: files/head path=[TOOL: files/find path=%s name=words.txt max_depth=1] lines=1]"]`, dir)
		receipt, got, order := publishCLI(t, url, "deep", text)
		if len(receipt.IntentIDs) != 3 {
			t.Fatalf("receipt %+v", receipt)
		}
		c, b, a := got[receipt.IntentIDs[0]], got[receipt.IntentIDs[1]], got[receipt.IntentIDs[2]]
		if c.Status != schemas.StatusExecuted || c.ToolID != "files/find" || content(c) != words {
			t.Fatalf("c: %s %s %q %s", c.Status, c.ToolID, content(c), c.Message)
		}
		if b.Status != schemas.StatusExecuted || b.ToolID != "files/head" || !strings.Contains(b.Intent, words) || content(b) != "alpha beta gamma delta" {
			t.Fatalf("b: %s %s %q (%s) %s", b.Status, b.ToolID, content(b), b.Intent, b.Message)
		}
		if a.Status != schemas.StatusExecuted || a.ToolID != "text/word_count" || content(a) != "4" {
			t.Fatalf("a: %s %s %q (%s) %s", a.Status, a.ToolID, content(a), a.Intent, a.Message)
		}
		if !slices.Equal(order, receipt.IntentIDs) {
			t.Errorf("answered in order %v, want %v", order, receipt.IntentIDs)
		}
	})

	t.Run("inner answered without running", func(t *testing.T) {
		// The routing stages answer it (not found, or alternatives): that
		// answer reaches the join stage as an executed result would.
		receipt, got, _ := publishCLI(t, url, "nested-unsure", `[TOOL: word count of text="[TOOL: recalibrate the flux of a quasar]"]`)
		inner, outer := got[receipt.IntentIDs[0]], got[receipt.IntentIDs[1]]
		if inner.Status == schemas.StatusExecuted || inner.Status == schemas.StatusError || inner.Outer != receipt.IntentIDs[1] {
			t.Fatalf("inner: %s (outer %q) %s, want an answer of the routing stages naming its outer intent", inner.Status, inner.Outer, inner.Message)
		}
		if outer.Status != schemas.StatusError || outer.Error == nil || outer.Error.Code != join.CodeInputFailed {
			t.Fatalf("outer: %+v, want an input_failed error from join", outer)
		}
	})

	t.Run("inner fails", func(t *testing.T) {
		missing := filepath.Join(dir, "no-such-file.txt")
		text := fmt.Sprintf(`[TOOL: word count of text="[TOOL: files/head path=%s lines=1]"]`, missing)
		receipt, got, _ := publishCLI(t, url, "nested-fail", text)
		inner, outer := got[receipt.IntentIDs[0]], got[receipt.IntentIDs[1]]
		if inner.Status != schemas.StatusError || inner.Error == nil || inner.Error.Code != bind.CodeToolFailed {
			t.Fatalf("inner: %+v", inner)
		}
		if outer.Status != schemas.StatusError || outer.Error == nil || outer.Error.Code != join.CodeInputFailed ||
			outer.Stage != bind.StageJoin || outer.ToolID != "" || outer.Output != nil {
			t.Fatalf("outer: %+v, want an input_failed error from join, nothing run", outer)
		}
		for _, want := range []string{receipt.IntentIDs[0], "tool_failed", "files/head path=" + missing} {
			if !strings.Contains(outer.Message, want) {
				t.Errorf("outer error %q does not say %q", outer.Message, want)
			}
		}
	})
}

// The join stage keeps nothing in memory: with no join worker running the
// outer intent waits in the pending bucket; a join worker started later
// (after a crash, say) finds the inner result on pipe.join and
// finishes it — once, however many join workers there are.
func TestNestedIntentSurvivesJoinWorkerOutage(t *testing.T) {
	env := startEnv(t)
	sample, err := filepath.Abs("../ops/sample/tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	others := stagesExcept(bind.StageJoin)
	startWorkers(t, env, 1, strings.Join(others, ","), sample)
	// A join worker that dies (SIGKILL) before the output is published.
	startWorkers(t, env, 1, bind.StageJoin, sample)[0].Kill(9)

	dir := t.TempDir()
	words := filepath.Join(dir, "words.txt")
	if err := os.WriteFile(words, []byte("one two three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "outage", MessageID: "m1",
		Text: fmt.Sprintf(`[TOOL: word count of text="[TOOL: files/head path=%s lines=1]"]`, words)})
	rs := results(t, env.JS, "outage", 30*time.Second, countAnswered(1))
	if got := byIntent(rs); len(got["m1.0"]) != 1 || got["m1.0"][0].Status != schemas.StatusExecuted {
		t.Fatalf("inner: %+v", rs)
	}
	if got := byIntent(results(t, env.JS, "outage", 2*time.Second, countAnswered(2))); len(got["m1.1"]) != 0 {
		t.Fatalf("outer answered with no join worker: %+v", got["m1.1"])
	}

	startWorkers(t, env, 2, bind.StageJoin, sample)
	got := byIntent(results(t, env.JS, "outage", 30*time.Second, countAnswered(2)))
	outer := got["m1.1"]
	if len(outer) != 1 || outer[0].Status != schemas.StatusExecuted || content(outer[0]) != "3" {
		t.Fatalf("outer: %+v", outer)
	}
	time.Sleep(500 * time.Millisecond)
	if got := byIntent(results(t, env.JS, "outage", time.Second, nil)); len(got["m1.1"]) != 1 {
		t.Errorf("outer answered %d times", len(got["m1.1"]))
	}
}

// Two join worker processes share the nested intents of many outputs; one
// is killed (SIGKILL) while they work. Every intent is still answered
// exactly once and every tool runs once, inner before outer.
func TestJoinWorkerKilledMidway(t *testing.T) {
	env := startEnv(t)
	reg, recordFile := testRegistry(t)
	others := stagesExcept(bind.StageJoin)
	runStagesInProcess(t, env, reg, others...)
	joins := startWorkers(t, env, 2, bind.StageJoin, reg, "--ack-wait", "2s", "--concurrency", "1")

	const n = 20
	for i := range n {
		publishOutput(t, env.JS, schemas.AgentOutput{SessionID: "killjoin", MessageID: fmt.Sprintf("k%02d", i),
			Text: fmt.Sprintf("[TOOL: test/record label=outer%02d after [TOOL: test/record label=inner%02d]]", i, i)})
	}
	time.Sleep(300 * time.Millisecond)
	joins[0].Kill(9)

	rs := results(t, env.JS, "killjoin", 90*time.Second, countAnswered(2*n))
	got := byIntent(rs)
	if len(got) != 2*n {
		t.Fatalf("%d of %d intents answered", len(got), 2*n)
	}
	for id, r := range got {
		if len(r) != 1 || r[0].Status != schemas.StatusExecuted {
			t.Errorf("intent %s: %d results, first %+v", id, len(r), r[0])
		}
	}
	time.Sleep(300 * time.Millisecond)
	rec := records(t, recordFile)
	order := recordOrder(t, recordFile)
	for i := range n {
		in, out := fmt.Sprintf("inner%02d", i), fmt.Sprintf("outer%02d", i)
		if len(rec[in]) != 1 || len(rec[out]) != 1 {
			t.Errorf("%s ran %d times, %s %d times; want once each", in, len(rec[in]), out, len(rec[out]))
		}
		if slices.Index(order, out) < slices.Index(order, in) {
			t.Errorf("%s ran before %s", out, in)
		}
	}
}

package predict

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/synth"
)

// The stage follows the whole AGENT stream but feeds the predictor only
// the chunks: a whole output on agent.output.<session> (which decodes as a
// chunk of seq 0 with no delta) is not read as one: it ends its message,
// and agent.end.<session> the session.
func TestRunReadsOnlyChunks(t *testing.T) {
	env := pipelinetest.Start(t)
	e, err := discover.New(synth.Tools(20, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() {
		stopped <- Run(ctx, env.JS, e, WithStageLogger(slog.New(slog.NewTextHandler(io.Discard, nil))), func(c *stageConfig) { c.fromSeq = 1 })
	}()
	defer func() {
		cancel()
		if err := <-stopped; err != nil {
			t.Error(err)
		}
	}()
	start := testutil.ToFloat64(Chunks)
	publish := func(subject string, v any) {
		t.Helper()
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.JS.Publish(ctx, subject, data); err != nil {
			t.Fatal(err)
		}
	}
	for i, tok := range Tokens("Checking. [TOOL: how full is the disk?]") {
		publish(schemas.AgentStreamSubject("run"), schemas.StreamChunk{SessionID: "run", MessageID: "m1", Seq: uint64(i), Delta: tok})
	}
	publish(schemas.AgentOutputSubject("run"), schemas.AgentOutput{SessionID: "run", MessageID: "m1", Text: "Checking. [TOOL: how full is the disk?]"})
	want := float64(len(Tokens("Checking. [TOOL: how full is the disk?]")))
	deadline := time.Now().Add(10 * time.Second)
	for testutil.ToFloat64(Chunks)-start < want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the output, were it read, would be by now
	if got := testutil.ToFloat64(Chunks) - start; got != want {
		t.Fatalf("the stage read %.0f messages as chunks, want the %.0f chunks", got, want)
	}

	// The whole output ended its message: a late chunk of it is stale.
	stale := testutil.ToFloat64(droppedStale)
	publish(schemas.AgentStreamSubject("run"), schemas.StreamChunk{SessionID: "run", MessageID: "m1", Seq: 99, Delta: " [TOOL: one more"})
	for testutil.ToFloat64(droppedStale) == stale && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if testutil.ToFloat64(droppedStale) != stale+1 {
		t.Fatal("a chunk of a message whose output came was not dropped as stale")
	}
	// The session's end forgets it.
	if testutil.ToFloat64(Sessions) != 1 {
		t.Fatalf("following %v sessions, want 1", testutil.ToFloat64(Sessions))
	}
	publish(schemas.AgentEndPrefix+"run", map[string]string{"session_id": "run"})
	for testutil.ToFloat64(Sessions) != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if testutil.ToFloat64(Sessions) != 0 {
		t.Fatal("the session's end did not forget it")
	}
}

package gateway

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/session"
)

// WatchSet tells the set each write stored, read from the write itself:
// no service answers here, so a watch that asked the service for the set
// when a write arrived would fail, and one that raced the stream's store
// could tell the set from before the write (a client then missed
// notifications/tools/list_changed under load). Ending the session tells
// the empty set.
func TestWatchSetTellsTheWrittenSet(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := session.Open(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNATS(env.NC, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	type told struct {
		set schemas.ToolSet
		err error
	}
	sets := make(chan told, 16)
	watchCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- n.WatchSet(watchCtx, "w1", func(s schemas.ToolSet, err error) { sets <- told{s, err} })
	}()
	next := func() told {
		t.Helper()
		select {
		case got := <-sets:
			return got
		case <-time.After(10 * time.Second):
			t.Fatal("no set told within 10 s of a write")
		}
		return told{}
	}
	// The subscription is in place once a write is told; add a tool
	// more until one is (adding one already there writes nothing).
	var got told
	for i := 0; got.set.SessionID == ""; i++ {
		if i == 100 {
			t.Fatal("no write told within 10 s")
		}
		if _, _, err := st.Add(ctx, "w1", schemas.ActiveTool{ID: fmt.Sprintf("t/early%d", i), Description: "d"}); err != nil {
			t.Fatal(err)
		}
		select {
		case got = <-sets:
		case <-time.After(100 * time.Millisecond):
		}
	}
	if got.err != nil || len(got.set.Tools) == 0 || got.set.SessionID != "w1" {
		t.Fatalf("told %+v, %v; want the set written", got.set, got.err)
	}
	if _, _, err := st.Add(ctx, "w1", schemas.ActiveTool{ID: "files/checksum", Description: "d"}); err != nil {
		t.Fatal(err)
	}
	for got = next(); !slices.ContainsFunc(got.set.Tools, isChecksum); got = next() {
		// a write from before may still be on its way
	}
	if got.err != nil {
		t.Fatalf("told %+v, %v after files/checksum was added", got.set, got.err)
	}
	if _, err := st.End(ctx, "w1"); err != nil {
		t.Fatal(err)
	}
	if got = next(); got.err != nil || len(got.set.Tools) != 0 || got.set.SessionID != "w1" {
		t.Fatalf("told %+v, %v after the session ended; want its empty set", got.set, got.err)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("WatchSet ended with %v when its context was cancelled", err)
	}
}

func isChecksum(t schemas.ActiveTool) bool { return t.ID == "files/checksum" }

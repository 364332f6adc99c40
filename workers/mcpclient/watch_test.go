package mcpclient_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolyard/toolyard/workers/mcpclient"
)

func TestWatchFollowsListChanged(t *testing.T) {
	s := testServer(2)
	srv := httpServer(t, s)
	var mu sync.Mutex
	var lists [][]string
	seen := func() [][]string { mu.Lock(); defer mu.Unlock(); return slices.Clone(lists) }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // on failure too: the server's cleanup waits for the watch's stream
	done := make(chan error, 1)
	go func() {
		done <- mcpclient.Watch(ctx, srv, func(_ context.Context, tools []*mcp.Tool) error {
			var names []string
			for _, tl := range tools {
				names = append(names, tl.Name)
			}
			slices.Sort(names)
			mu.Lock()
			lists = append(lists, names)
			mu.Unlock()
			return nil
		})
	}()
	waitFor := func(what string, ok func([]string) bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if l := seen(); len(l) > 0 && ok(l[len(l)-1]) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("watch never saw %s; lists: %v", what, seen())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("the first list", func(l []string) bool { return len(l) == 6 })
	s.AddTool(&mcp.Tool{Name: "late", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	waitFor("the added tool", func(l []string) bool { return slices.Contains(l, "late") && len(l) == 7 })
	s.RemoveTools("fail", "late")
	waitFor("the removals", func(l []string) bool {
		return !slices.Contains(l, "fail") && !slices.Contains(l, "late") && len(l) == 5
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("watch ended with %v", err)
	}
}

func TestWatchUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := mcpclient.Watch(ctx, mcpclient.Server{URL: "http://127.0.0.1:1/mcp"}, func(context.Context, []*mcp.Tool) error { return nil })
	if !mcpclient.IsTransport(err) {
		t.Fatalf("watch of an unreachable server: %v, want a transport error at once", err)
	}
}

package session_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/session"
)

func openStore(t *testing.T, opts ...session.Option) *session.Store {
	t.Helper()
	env := pipelinetest.Start(t)
	st, err := session.Open(context.Background(), env.JS, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func tool(id string) schemas.ActiveTool {
	return schemas.ActiveTool{ID: id, Confidence: 0.5, Source: schemas.SourceFindTools}
}

func TestStoreAddGetEnd(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	set, err := st.Get(ctx, "s1")
	if err != nil || len(set.Tools) != 0 || set.Seeded {
		t.Fatalf("new session: %+v, %v", set, err)
	}
	set, added, err := st.Add(ctx, "s1", tool("a/x"), tool("a/y"))
	if err != nil || !slices.Equal(added, []string{"a/x", "a/y"}) || !slices.Equal(set.IDs(), []string{"a/x", "a/y"}) {
		t.Fatalf("add: %v %v %v", set.IDs(), added, err)
	}
	// Adding again adds nothing; an explicit activation upgrades the source.
	act := tool("a/x")
	act.Source, act.Confidence = schemas.SourceActivate, 1
	set, added, err = st.Add(ctx, "s1", act)
	if err != nil || len(added) != 0 || set.Tools[0].Source != schemas.SourceActivate {
		t.Fatalf("re-add: %+v %v %v", set.Tools, added, err)
	}
	// Another session sees none of it.
	if other, _ := st.Get(ctx, "s2"); len(other.Tools) != 0 {
		t.Fatalf("s2 sees %v", other.IDs())
	}
	n, err := st.End(ctx, "s1")
	if err != nil || n != 2 {
		t.Fatalf("end: %d, %v", n, err)
	}
	if set, _ := st.Get(ctx, "s1"); len(set.Tools) != 0 || set.Seeded {
		t.Fatalf("after end: %+v", set)
	}
	if n, err := st.End(ctx, "s1"); n != 0 || err != nil {
		t.Fatalf("second end: %d, %v", n, err)
	}
	// A session id reused after its end starts from nothing.
	if set, _, err := st.Add(ctx, "s1", tool("b/z")); err != nil || !slices.Equal(set.IDs(), []string{"b/z"}) {
		t.Fatalf("reuse: %v %v", set.IDs(), err)
	}
}

func TestStoreRejectsBadSessionIDs(t *testing.T) {
	st := openStore(t)
	for _, id := range []string{"", "a.b", "a b", "*", ">", string(make([]byte, 129))} {
		if _, err := st.Get(context.Background(), id); !errors.Is(err, session.ErrBadSession) {
			t.Errorf("%q: %v", id, err)
		}
		if _, _, err := st.Add(context.Background(), id, tool("a/x")); !errors.Is(err, session.ErrBadSession) {
			t.Errorf("add %q: %v", id, err)
		}
	}
}

func TestStoreTTLExpiry(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, session.WithTTL(time.Second))
	if _, _, err := st.Add(ctx, "brief", tool("a/x")); err != nil {
		t.Fatal(err)
	}
	if set, _ := st.Get(ctx, "brief"); len(set.Tools) != 1 {
		t.Fatalf("before TTL: %v", set.IDs())
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		set, err := st.Get(ctx, "brief")
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Tools) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("set still there after 10s with a 1s TTL: %v", set.IDs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Concurrent writers to one session lose nothing: every write is a
// compare-and-set on the key's revision.
func TestStoreConcurrentAdd(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, session.WithMaxTools(1000))
	const writers, each = 12, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if _, _, err := st.Add(ctx, "busy", tool(fmt.Sprintf("w%d/t%d", w, i))); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	set, err := st.Get(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Tools) != writers*each {
		t.Fatalf("%d tools after %d concurrent adds", len(set.Tools), writers*each)
	}
}

func TestStoreCapKeepsActivated(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, session.WithMaxTools(3))
	act := tool("keep/me")
	act.Source = schemas.SourceActivate
	if _, _, err := st.Add(ctx, "c", act, tool("a/1"), tool("a/2")); err != nil {
		t.Fatal(err)
	}
	set, _, err := st.Add(ctx, "c", tool("a/3"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(set.IDs(), []string{"keep/me", "a/2", "a/3"}) {
		t.Fatalf("capped set %v: the oldest found tool should make room", set.IDs())
	}
}

package predict

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
)

// The prefetch bucket on a real embedded server: one claim per prediction,
// a lookup that waits for a search still running (or not, when it may not
// wait), and a miss for anything else.
func TestStoreClaimsAndLookup(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	st, err := OpenStore(ctx, env.JS, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	const text = "archive last year's invoices?"
	sum, n := Sum(text)
	pending := Entry{TextSum: sum, Words: n, Source: SourceEnd, Registry: "r", Model: "m", Pending: true}
	first, err := st.Claim(ctx, "s-1", pending)
	if err != nil {
		t.Fatal(err)
	}
	second, err := st.Claim(ctx, "s-1", pending)
	if err != nil {
		t.Fatal(err)
	}
	if !first || second {
		t.Fatalf("claims: first %v, second %v; want true, false", first, second)
	}
	if ok, err := st.Claim(ctx, "s-2", pending); err != nil || !ok {
		t.Fatalf("another session's claim: %v %v", ok, err)
	}
	done := pending
	done.Pending, done.Candidates = false, []schemas.Candidate{{ToolID: "files/archive", Confidence: 0.9}}
	go func() {
		time.Sleep(200 * time.Millisecond)
		if err := st.Add(context.Background(), "s-1", done); err != nil {
			t.Error(err)
		}
	}()
	exactOnly := func(string) []float32 { return nil }
	th := route.DefaultThresholds
	waits := NewLookup(st, exactOnly, DefaultRule(), th, 5*time.Second, nil)
	noWait := NewLookup(st, exactOnly, DefaultRule(), th, 0, nil)
	in := schemas.Intent{ID: "i1", SessionID: "s-2", Text: text}
	if _, ok := noWait.Lookup(ctx, in, "r", "m"); ok {
		t.Error("a pending entry answered a lookup that may not wait")
	}
	in.SessionID = "s-1"
	cs, ok := waits.Lookup(ctx, in, "r", "m")
	if !ok || len(cs) != 1 || cs[0].ToolID != "files/archive" {
		t.Fatalf("lookup waiting for the search: %v %v", cs, ok)
	}
	for _, c := range []struct {
		name, session, text, registry string
	}{
		{"other words", "s-1", strings.TrimSuffix(text, "?"), "r"},
		{"other registry", "s-1", text, "r2"},
		{"unknown session", "s-9", text, "r"},
	} {
		if _, ok := noWait.Lookup(ctx, schemas.Intent{ID: "i", SessionID: c.session, Text: c.text}, c.registry, "m"); ok {
			t.Errorf("%s: a hit", c.name)
		}
	}
	raw, err := st.kv.Get(ctx, key("s-1"))
	if err != nil || strings.Contains(string(raw.Value()), "invoices") {
		t.Errorf("the bucket holds the predicted text: %s (err %v)", raw.Value(), err)
	}
	slot, _, err := st.Get(ctx, "s-1")
	if err != nil || len(slot.Entries) != 1 || slot.Entries[0].Pending {
		t.Errorf("slot %+v, err %v: want the one finished entry", slot, err)
	}
}

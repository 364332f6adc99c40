package discover

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestNewRejects(t *testing.T) {
	ok := fixtureTools()
	tests := []struct {
		name  string
		tools []schemas.Manifest
		opts  []Option
		want  string
	}{
		{"duplicate id", append(ok, ok[0]), nil, `id "system/disk_usage" already given`},
		{"empty id", []schemas.Manifest{{Name: "x"}}, nil, "tool id is empty"},
		{"parameters not an object", []schemas.Manifest{{ID: "a", Parameters: json.RawMessage(`[1,2]`)}}, nil, "tool a: parameters"},
		{"top-K", ok, []Option{WithTopK(0)}, "top-K must be at least 1, got 0"},
		{"boost", ok, []Option{WithFieldBoosts(FieldBoosts{Name: -1})}, "boost of field name"},
		{"query terms", ok, []Option{WithMaxQueryTerms(0)}, "max query terms"},
		{"compact", ok, []Option{WithCompactAfter(-3)}, "compact-after must be at least 1, got -3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(tt.tools, tt.opts...)
			if err == nil {
				_ = e.Close()
				t.Fatal("New succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func TestEmptyRegistry(t *testing.T) {
	e, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cs, err := e.Search(context.Background(), "check disk usage", 5, nil)
	if err != nil || len(cs) != 0 {
		t.Fatalf("Search on empty registry = %v, %v; want no candidates", ids(cs), err)
	}
}

func TestPutRemoveVisibleInNextSearch(t *testing.T) {
	e := newFixture(t)
	ctx := context.Background()
	const q = "scale the kubernetes deployment to 5 replicas"
	top := func() string {
		t.Helper()
		cs, err := e.Search(ctx, q, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			return ""
		}
		return cs[0].ToolID
	}
	if got := top(); got == "k8s/scale_deployment" {
		t.Fatal("tool found before it was added")
	}
	n := e.Len()
	if err := e.Put(schemas.Manifest{ID: "k8s/scale_deployment", Name: "scaleDeployment",
		Description: "Scale a Kubernetes deployment to a number of replicas."}); err != nil {
		t.Fatal(err)
	}
	if got := top(); got != "k8s/scale_deployment" || e.Len() != n+1 {
		t.Fatalf("after Put: top %q, Len %d; want k8s/scale_deployment, %d", got, e.Len(), n+1)
	}

	// Replacing the tool re-indexes it: the old words no longer find it.
	if err := e.Put(schemas.Manifest{ID: "k8s/scale_deployment", Name: "scaleDeployment",
		Description: "Resize a node pool."}); err != nil {
		t.Fatal(err)
	}
	cs, _ := e.Search(ctx, "replicas kubernetes", 5, nil)
	if slices.Contains(ids(cs), "k8s/scale_deployment") || e.Len() != n+1 {
		t.Fatalf("replaced tool still found by its old description: %v (Len %d)", ids(cs), e.Len())
	}

	if err := e.Remove("k8s/scale_deployment"); err != nil {
		t.Fatal(err)
	}
	cs, _ = e.Search(ctx, "scale deployment node pool", 5, nil)
	if slices.Contains(ids(cs), "k8s/scale_deployment") || e.Len() != n {
		t.Fatalf("removed tool still found: %v (Len %d)", ids(cs), e.Len())
	}
	if err := e.Remove("no/such_tool"); err != nil {
		t.Errorf("Remove of an unknown id: %v", err)
	}
	if err := e.Put(schemas.Manifest{Name: "nameless"}); err == nil {
		t.Error("Put accepted a manifest without id")
	}
}

func TestCompactionKeepsResults(t *testing.T) {
	ctx := context.Background()
	ref := newFixture(t)
	e := newFixture(t, WithCompactAfter(4))
	// Churn: remove and re-add every tool, 20 updates, crossing the
	// compaction threshold while searching. Once compacted, the engine must
	// answer exactly as a freshly built one.
	for _, m := range fixtureTools() {
		if err := e.Remove(m.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Search(ctx, "send an email", 3, nil); err != nil {
			t.Fatal(err)
		}
		if err := e.Put(m); err != nil {
			t.Fatal(err)
		}
	}
	e.comp.running.Wait()
	e.mu.RLock()
	pending := e.comp.pending
	e.mu.RUnlock()
	if pending >= 20 {
		t.Fatalf("%d updates pending: no compaction ran", pending)
	}
	e.compactNow()
	if e.Len() != len(fixtureTools()) {
		t.Fatalf("Len %d after churn", e.Len())
	}
	for _, q := range []string{"send an email to the team", "weather in Paris tomorrow", "open a github issue"} {
		a, _ := ref.Search(ctx, q, 5, nil)
		b, _ := e.Search(ctx, q, 5, nil)
		if !slices.Equal(ids(a), ids(b)) {
			t.Errorf("%q: after churn %v, fresh %v", q, ids(b), ids(a))
		}
		for i := range a {
			if a[i].Confidence != b[i].Confidence || a[i].Score != b[i].Score {
				t.Errorf("%q: %s scored %v/%v after churn, %v/%v fresh", q, a[i].ToolID, b[i].Score, b[i].Confidence, a[i].Score, a[i].Confidence)
			}
		}
	}
}

func TestConcurrentSearchAndPut(t *testing.T) {
	e := newFixture(t, WithCompactAfter(5))
	ctx := context.Background()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 20; i++ {
			m := fixtureTools()[i%10]
			m.Description += " (revised)"
			if err := e.Put(m); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := 0; i < 50; i++ {
		if _, err := e.Search(ctx, "list open pull requests", 3, nil); err != nil {
			t.Fatal(err)
		}
	}
	<-done
}

func TestCloseDuringCompaction(t *testing.T) {
	tools := syntheticTools(1500)
	e, err := New(tools, WithCompactAfter(1))
	if err != nil {
		t.Fatal(err)
	}
	m := tools[0]
	m.Description = "changed"
	if err := e.Put(m); err != nil { // starts a rebuild of 1500 tools
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e.comp.active {
		t.Error("compaction still running after Close")
	}
}

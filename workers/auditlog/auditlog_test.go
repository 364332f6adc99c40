package auditlog

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
)

func TestImportOnceAndExportFilters(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	if err := pipeline.DefaultTopology().Ensure(ctx, env.JS); err != nil {
		t.Fatal(err)
	}
	im, err := NewImporter(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	var recs []schemas.AuditRecord
	for i := range 10 {
		recs = append(recs, schemas.AuditRecord{Timestamp: t0.Add(time.Duration(i) * time.Hour), SessionID: fmt.Sprintf("s%d-%d", i%2, i),
			IntentExpressed: fmt.Sprintf("[TOOL: ask %d]", i), ToolID: "t/x", Result: "success"})
	}
	for round, want := range []bool{true, false} {
		for _, r := range recs {
			added, err := im.Import(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			if added != want {
				t.Fatalf("round %d: added %v", round, added)
			}
		}
	}
	// A new importer (a later run) remembers too.
	im2, err := NewImporter(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	if added, err := im2.Import(ctx, recs[0]); err != nil || added {
		t.Fatalf("a later import added a known record: %v %v", added, err)
	}
	bad := recs[0]
	bad.SessionID = "a.b"
	if _, err := im.Import(ctx, bad); err == nil {
		t.Error("a session id with a dot was imported")
	}

	export := func(f Filter) []schemas.AuditRecord {
		t.Helper()
		var out []schemas.AuditRecord
		if err := Export(ctx, env.JS, f, func(r schemas.AuditRecord) error { out = append(out, r); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if all := export(Filter{}); len(all) != 10 || !all[0].Timestamp.Equal(t0) {
		t.Fatalf("export all: %d records", len(all))
	}
	if got := export(Filter{Since: t0.Add(5 * time.Hour)}); len(got) != 5 {
		t.Errorf("since: %d records, want 5 (filtered on the records' own time)", len(got))
	}
	if got := export(Filter{Until: t0.Add(2 * time.Hour)}); len(got) != 3 {
		t.Errorf("until: %d records, want 3", len(got))
	}
	if got := export(Filter{Session: "s1-*"}); len(got) != 5 {
		t.Errorf("session glob: %d records, want 5", len(got))
	}
	if got := export(Filter{Stage: "execute"}); len(got) != 0 {
		t.Errorf("stage execute: %d records, want 0 (all were imported)", len(got))
	}
	if got := export(Filter{Stage: ImportStage}); len(got) != 10 {
		t.Errorf("stage import: %d records", len(got))
	}
	if err := Export(ctx, env.JS, Filter{Session: "["}, func(schemas.AuditRecord) error { return nil }); err == nil {
		t.Error("a bad glob was accepted")
	}
}

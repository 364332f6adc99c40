package models

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// Prune keeps the version in force, what rollback reaches back to (cut to
// keep) and the newest, deletes the rest's records and files, dry runs
// change nothing, a second prune finds nothing, and files without a record
// go once they are old enough.
func TestPrune(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	st, err := Open(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"v1", "v2", "v3", "v4", "v5", "v6"} {
		if _, err := st.PutVersion(ctx, writeVersion(t, v)); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []string{"v1", "v2", "v3", "v4"} {
		if err := st.Promote(ctx, v, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetGuard(ctx, "v6", GuardVerdict{Reasons: []string{"worse"}}); err != nil {
		t.Fatal(err)
	}
	obj, err := st.objects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// a training that stopped after storing a file and before the record
	if _, err := obj.PutString(ctx, "v0/usage.json", "{}"); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		t.Helper()
		vs, err := st.Versions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, v := range vs {
			out = append(out, v.Manifest.Version)
		}
		return out
	}
	filesOf := func(v string) int {
		t.Helper()
		fs, err := obj.List(ctx)
		if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
			t.Fatal(err)
		}
		n := 0
		for _, f := range fs {
			if strings.HasPrefix(f.Name, v+"/") {
				n++
			}
		}
		return n
	}

	if _, err := st.Prune(ctx, 0, false); err == nil {
		t.Error("keep 0 was accepted")
	}
	cases := []struct {
		name                    string
		dryRun                  bool
		deleted, kept, rollback []string
		versionsAfter           []string
		orphans                 []string
	}{
		{name: "dry run", dryRun: true, deleted: []string{"v1"}, kept: []string{"v2", "v3", "v4", "v5", "v6"}, rollback: []string{"v2", "v3"},
			versionsAfter: []string{"v1", "v2", "v3", "v4", "v5", "v6"}},
		{name: "prune", deleted: []string{"v1"}, kept: []string{"v2", "v3", "v4", "v5", "v6"}, rollback: []string{"v2", "v3"},
			versionsAfter: []string{"v2", "v3", "v4", "v5", "v6"}},
		{name: "again", deleted: []string{}, kept: []string{"v2", "v3", "v4", "v5", "v6"}, rollback: []string{"v2", "v3"},
			versionsAfter: []string{"v2", "v3", "v4", "v5", "v6"}},
	}
	for _, c := range cases {
		rep, err := st.Prune(ctx, 2, c.dryRun)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(rep.Deleted, c.deleted) || !slices.Equal(rep.Kept, c.kept) || !slices.Equal(rep.Rollback, c.rollback) || len(rep.Orphans) != 0 {
			t.Errorf("%s: report %+v, want deleted %v kept %v rollback %v", c.name, rep, c.deleted, c.kept, c.rollback)
		}
		if got := names(); !slices.Equal(got, c.versionsAfter) {
			t.Errorf("%s: versions after %v, want %v", c.name, got, c.versionsAfter)
		}
		if c.name == "prune" && rep.FreedBytes == 0 {
			t.Errorf("%s: freed no bytes", c.name)
		}
	}
	if n := filesOf("v1"); n != 0 {
		t.Errorf("%d files of the pruned version are left", n)
	}
	if filesOf("v2") == 0 || filesOf("v0") == 0 {
		t.Error("files of a kept version, or of a young unrecorded one, were deleted")
	}
	if err := st.Promote(ctx, "v1", false); err == nil {
		t.Error("a pruned version was promoted")
	}
	if _, err := st.Download(ctx, "v1", filepath.Join(t.TempDir(), "dl")); err == nil {
		t.Error("a pruned version was downloaded")
	}
	if _, err := st.Download(ctx, "v2", filepath.Join(t.TempDir(), "dl")); err != nil {
		t.Errorf("a kept version: %v", err)
	}

	st.orphanAge = 0
	rep, err := st.Prune(ctx, 2, false)
	if err != nil || !slices.Equal(rep.Orphans, []string{"v0"}) || len(rep.Deleted) != 0 {
		t.Errorf("orphans: %+v %v", rep, err)
	}
	if filesOf("v0") != 0 {
		t.Error("the unrecorded version's files are left")
	}

	// Rollback reaches back as far as the prune said, and no further.
	for _, want := range []string{"v3", "v2", ""} {
		if v, err := st.Rollback(ctx); err != nil || v != want {
			t.Fatalf("rollback: %q %v, want %q", v, err, want)
		}
	}
}

package evaltest

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test would end.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                       {}
func (r *recorder) Skipf(format string, a ...any) { r.skipped = fmt.Sprintf(format, a...) }
func (r *recorder) Fatalf(format string, a ...any) {
	r.failed = fmt.Sprintf(format, a...)
}

// Missing data fails a test in CI and skips it elsewhere, saying what is
// missing either way.
func TestUnavailableFailsInCIAndSkipsElsewhere(t *testing.T) {
	for _, tt := range []struct {
		ci   string
		fail bool
	}{{"", false}, {"0", false}, {"false", false}, {"1", true}, {"true", true}} {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := &recorder{TB: t}
			Unavailable(r, "word vectors (make embeddings)", errors.New("no vectors.bin"))
			got := r.skipped
			if tt.fail {
				got = r.failed
			}
			if (r.failed != "") != tt.fail || (r.skipped != "") == tt.fail {
				t.Fatalf("failed %q, skipped %q; want fail=%v", r.failed, r.skipped, tt.fail)
			}
			if !strings.Contains(got, "word vectors (make embeddings)") || !strings.Contains(got, "no vectors.bin") {
				t.Errorf("message %q does not say what is missing and why", got)
			}
		})
	}
	t.Run("Path", func(t *testing.T) {
		t.Setenv("CI", "true")
		t.Setenv("TOOLYARD_BENCH", filepath.Join(t.TempDir(), "none"))
		r := &recorder{TB: t}
		Path(r, "metatool", "tools.jsonl")
		if !strings.Contains(r.failed, "benchmark data") {
			t.Errorf("missing benchmark data in CI: failed %q, skipped %q", r.failed, r.skipped)
		}
	})
}

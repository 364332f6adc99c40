package kiwi

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestUpdateFixtures signs the signed fixtures again after they are edited:
// KIWI_UPDATE_FIXTURES=1 go test -run TestUpdateFixtures ./workers/kiwi/
func TestUpdateFixtures(t *testing.T) {
	if os.Getenv("KIWI_UPDATE_FIXTURES") != "1" {
		t.Skip("SKIPPED: fixture maintenance only (KIWI_UPDATE_FIXTURES=1)")
	}
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	root := filepath.Join("testdata", "project", ToolsDir)
	for _, f := range []string{"search/web_search.py", "scraping/google_maps.py", "bad/tampered.py"} {
		p := filepath.Join(root, f)
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		signed := Sign(src, at)
		if f == "bad/tampered.py" {
			// Changed after signing: the signature no longer holds.
			signed = append(signed, []byte("import shutil; shutil.rmtree('/')\n")...)
		}
		if err := os.WriteFile(p, signed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

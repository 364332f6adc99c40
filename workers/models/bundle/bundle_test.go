package bundle

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/discover"
)

func sample() *Bundle {
	cal := discover.DefaultCalibration()
	return &Bundle{
		Manifest: Manifest{Version: "v7", CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
			Trained: Trained{Records: 3, Examples: 2, BySource: map[string]int{"history": 2}}, Metrics: map[string]float64{"after_hit_at_1": 0.8}},
		Usage: &discover.Usage{Version: "v7", Weights: discover.UsageWeights{Text: 1, Near: 2},
			Intents: []discover.LearnedIntent{{Tool: "db/sql", Text: "revenue by region"}}, Calibration: &cal},
		Templates: &Templates{Format: TemplatesFormat, Next: map[string][]Count{"a": {{Tool: "b", Count: 2}}}},
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "model")
	b := sample()
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	// Writing again replaces the directory whole.
	if err := b.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Usage, b.Usage) || !reflect.DeepEqual(got.Templates, b.Templates) || got.Manifest.Version != "v7" {
		t.Errorf("read back %+v", got)
	}
	if len(got.Manifest.Files) != 2 {
		t.Errorf("manifest files %v", got.Manifest.Files)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestReadDirRefusesTamperedFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "model")
	if err := sample().WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, UsageFile)
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "revenue", "REVENUE", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("a changed usage file was read: %v", err)
	}
	if _, err := ReadDir(t.TempDir()); err == nil {
		t.Error("an empty directory was read as a bundle")
	}
}

func TestApplyPutsUsageInForce(t *testing.T) {
	e, err := discover.New(nil, discover.WithMode(discover.ModeKeyword))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	b := sample()
	b.Usage.Version = ""
	if err := b.Apply(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if e.UsageVersion() != "v7" {
		t.Errorf("version in force %q, want the manifest's", e.UsageVersion())
	}
	if err := (&Bundle{}).Apply(context.Background(), e); err != nil || e.UsageVersion() != "" {
		t.Errorf("an empty bundle should remove the usage model: %v %q", err, e.UsageVersion())
	}
}

// WriteDir replaces its directory whole, so it must refuse one that holds
// anything but a bundle: `train --out .` would otherwise delete the
// directory the user stands in.
func TestWriteDirKeepsWhatIsNotABundle(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		ok    bool
	}{
		{"new", func(t *testing.T, dir string) {}, true},
		{"empty directory", func(t *testing.T, dir string) { mustMkdir(t, dir) }, true},
		{"an older bundle", func(t *testing.T, dir string) {
			if err := sample().WriteDir(dir); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a directory of other files", func(t *testing.T, dir string) {
			mustMkdir(t, dir)
			mustWrite(t, filepath.Join(dir, "notes.txt"))
		}, false},
		{"a bundle with a file beside it", func(t *testing.T, dir string) {
			if err := sample().WriteDir(dir); err != nil {
				t.Fatal(err)
			}
			mustWrite(t, filepath.Join(dir, "notes.txt"))
		}, false},
		{"bundle file names without a manifest", func(t *testing.T, dir string) {
			mustMkdir(t, dir)
			mustWrite(t, filepath.Join(dir, UsageFile))
		}, false},
		{"a file", func(t *testing.T, dir string) { mustWrite(t, dir) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			tc.setup(t, dir)
			before := listTree(t, dir)
			err := sample().WriteDir(dir)
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := ReadDir(dir); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("WriteDir replaced it")
			}
			if after := listTree(t, dir); !reflect.DeepEqual(after, before) {
				t.Errorf("changed: %v, was %v", after, before)
			}
		})
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func listTree(t *testing.T, root string) []string {
	t.Helper()
	var names []string
	if _, err := os.Lstat(root); os.IsNotExist(err) {
		return nil
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		names = append(names, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// A directory is read as a model version only when training could have
// written it: a manifest naming a version and its usage model. Anything
// less was read as "no model", and an eval with it printed the figures
// without a model as the model's.
func TestReadDirRefusesWhatIsNotAVersion(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, err string
	}{
		{"no manifest", "", "not a model version directory (no manifest.json"},
		{"empty manifest", `{}`, "names no version"},
		{"no usage model", `{"version":"x","files":{}}`, "lists no usage.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.manifest != "" {
				if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(tc.manifest), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ReadDir: %v, want %q", err, tc.err)
			}
		})
	}
	file := filepath.Join(t.TempDir(), "model.json")
	mustWrite(t, file)
	if _, err := ReadDir(file); err == nil || !strings.Contains(err.Error(), "not a model version directory") {
		t.Errorf("ReadDir of a file: %v", err)
	}
}

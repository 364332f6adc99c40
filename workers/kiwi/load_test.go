package kiwi_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/kiwi"
)

func TestLoadDirFixtures(t *testing.T) {
	files, err := kiwi.LoadDir(filepath.Join("testdata", "project"), kiwi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]kiwi.File{}
	for _, f := range files {
		rel, _ := filepath.Rel(filepath.Join("testdata", "project", kiwi.ToolsDir), f.Path)
		got[filepath.ToSlash(rel)] = f
	}
	if len(got) != 9 {
		t.Fatalf("%d files read, want the 9 outside _private/ and __init__.py: %v", len(got), keys(got))
	}
	refused := map[string]string{
		"bad/tampered.py":    "bad signature: the file changed after it was signed",
		"bad/badversion.py":  `__version__ "1.0" is not a semantic version`,
		"bad/unknowntype.py": `__tool_type__ "wizard" is not a known tool type (python, script, api, runtime)`,
		"bad/computed.py":    `__version__: line 4: "version" is a name or an expression, not a literal`,
		"bad/badschema.py":   `parameter count of the Config Schema: default "many" is not an integer`,
	}
	for path, want := range refused {
		f := got[path]
		if f.Err == nil || !strings.Contains(f.Err.Error(), want) {
			t.Errorf("%s: err %v, want it refused with %q", path, f.Err, want)
		}
	}

	web := got["search/web_search.py"]
	if web.Err != nil {
		t.Fatal(web.Err)
	}
	m := web.Manifest
	if m.ID != "kiwi/search/web_search" || m.Name != "web_search" || m.Version != "1.4.0" || m.Server != "kiwi" ||
		m.Executor.Kind != schemas.ExecTool || m.Executor.Tool != "python_runtime" || !reflect.DeepEqual(m.Keywords, []string{"search"}) {
		t.Fatalf("manifest %+v, executor %+v", m, m.Executor)
	}
	if want := "Search the web and return the top results with their titles and links.\n\nUses the configured search backend. Results are ranked by relevance."; m.Description != want {
		t.Fatalf("description %q, want %q", m.Description, want)
	}
	if web.Tool.Signature == nil || web.Tool.Signature.Timestamp.Year() != 2026 {
		t.Fatalf("signature %+v, want the verified signature", web.Tool.Signature)
	}
	var params map[string]any
	if err := json.Unmarshal(m.Parameters, &params); err != nil {
		t.Fatal(err)
	}
	props := params["properties"].(map[string]any)
	wantProps := map[string]any{
		"query": map[string]any{"type": "string", "description": "What to search for."},
		"limit": map[string]any{"type": "integer", "description": "How many results to return. Defaults to 10.", "default": 10.0},
		"safe":  map[string]any{"type": "boolean", "description": "Filter explicit results.", "default": true},
		"mode":  map[string]any{"type": "string", "enum": []any{"fast", "thorough"}, "default": "fast", "description": "How hard to search."},
		"sites": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Only results from these sites."},
	}
	for name, want := range wantProps {
		if !reflect.DeepEqual(props[name], want) {
			t.Errorf("parameter %s = %#v, want %#v", name, props[name], want)
		}
	}
	if !reflect.DeepEqual(params["required"], []any{"query"}) {
		t.Errorf("required %v, want [query]", params["required"])
	}
	sp := props[kiwi.ScriptParam].(map[string]any)
	if abs, _ := filepath.Abs(web.Path); sp["const"] != abs || sp["default"] != abs {
		t.Errorf("script_path %v, want the file %s", sp, abs)
	}

	maps := got["scraping/google_maps.py"]
	if maps.Err != nil {
		t.Fatal(maps.Err)
	}
	if !strings.HasPrefix(maps.Manifest.Description, "Google Maps scraper: collect businesses") || maps.Manifest.Version != "2.0.0-beta.1+build.7" ||
		!reflect.DeepEqual(maps.Manifest.Permissions, []string{"fs.write", "net"}) || maps.Tool.Signature == nil {
		t.Fatalf("google_maps: %+v", maps.Manifest)
	}
	if s := string(maps.Manifest.Parameters); !strings.Contains(s, `"required":["category","city"]`) || !strings.Contains(s, `"maximum":500`) {
		t.Fatalf("google_maps parameters %s", s)
	}
	wc := got["util/word_count.py"]
	if wc.Err != nil || wc.Manifest.Executor.Tool != "bash_runtime" || wc.Manifest.Version != "0.3.1" || wc.Tool.Signature != nil {
		t.Fatalf("word_count: %+v %v", wc.Manifest, wc.Err)
	}
	if st := got["util/stats.py"]; st.Err != nil || !strings.Contains(string(st.Manifest.Parameters), `"minItems":1`) {
		t.Fatalf("stats: %s %v", st.Manifest.Parameters, st.Err)
	}

	// Signatures required: the unsigned ones are refused too.
	files, err = kiwi.LoadDir(filepath.Join("testdata", "project"), kiwi.Options{RequireSigned: true, Namespace: "proj"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		signedOK := strings.HasSuffix(f.Path, "web_search.py") || strings.HasSuffix(f.Path, "google_maps.py")
		if signedOK != (f.Err == nil) {
			t.Errorf("%s with signatures required: err %v", f.Path, f.Err)
		}
		if f.Err == nil && !strings.HasPrefix(f.Manifest.ID, "proj/") {
			t.Errorf("%s: id %s, want the proj namespace", f.Path, f.Manifest.ID)
		}
	}
}

func TestLoadDirMissing(t *testing.T) {
	if _, err := kiwi.LoadDir(t.TempDir(), kiwi.Options{}); err == nil || !strings.Contains(err.Error(), "no tools directory") {
		t.Fatalf("%v, want no tools directory", err)
	}
}

func keys(m map[string]kiwi.File) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

package execute

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// helpGoldenEnv set to 1 rewrites testdata/help/*.json from the code under
// test; the files were written by the build before help was cached.
const helpGoldenEnv = "TOOLYARD_UPDATE_HELP_GOLDEN"

// A tool's help comes from a cache after its first call: every call must
// give the bytes the uncached help gave.
func TestHelpOutputUnchangedByCache(t *testing.T) {
	typed := schemas.Manifest{ID: "t/typed", Name: "Typed", Description: "All the shapes help describes",
		Parameters: json.RawMessage(`{"type":"object","required":["path","mode"],"properties":{` +
			`"path":{"type":"string","description":"Where to look","examples":["/var/log/syslog"]},` +
			`"mode":{"type":"string","enum":["fast","slow thorough"]},` +
			`"n":{"type":["integer","null"],"default":3,"description":"How many"},` +
			`"tags":{"type":"array","items":{"type":"string"}},` +
			`"anything":true}}`),
		Examples: []string{"look in /tmp fast", "count 3 things"},
		Executor: &schemas.Executor{Kind: schemas.ExecSubprocess, Argv: []string{"true"}}}
	bare := schemas.Manifest{ID: "t/bare", Name: "Bare", Description: "No parameters, no executor"}
	e := New(registry.New(typed, bare, checksumTool), nil)

	for _, id := range []string{"t/typed", "t/bare", "files/checksum", HelpID, SearchID} {
		t.Run(id, func(t *testing.T) {
			golden := filepath.Join("testdata", "help", filepath.Base(id)+".json")
			var got [][]byte
			for range 3 {
				out, err := run(t, e, meta(schemas.MetaHelp, "", map[string]any{"item_id": id}))
				if err != nil {
					t.Fatal(err)
				}
				data, err := json.Marshal(out.Content)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, data)
				// A caller changing its copy changes no later answer.
				if m, ok := out.Content.(map[string]any); ok {
					m["text"] = "changed"
					if ps, ok := m["parameters"].([]any); ok && len(ps) > 0 {
						ps[0].(map[string]any)["name"] = "changed"
					}
				}
			}
			if os.Getenv(helpGoldenEnv) == "1" {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, append(got[0], '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			want = bytes.TrimSuffix(want, []byte("\n"))
			for i, g := range got {
				if !bytes.Equal(g, want) {
					t.Errorf("call %d:\n got %s\nwant %s", i+1, g, want)
				}
			}
		})
	}
}

// The registry is reloaded live: a changed, added or removed tool shows in
// its help at once.
func TestHelpFollowsRegistryChanges(t *testing.T) {
	reg := registry.New(checksumTool)
	e := New(reg, nil)
	helpText := func(id string) string {
		t.Helper()
		out, err := run(t, e, meta(schemas.MetaHelp, "", map[string]any{"item_id": id}))
		if err != nil {
			t.Fatal(err)
		}
		text, _ := out.Content.(map[string]any)["text"].(string)
		return text
	}
	first := helpText("files/checksum")
	changed := checksumTool
	changed.Description = "Hash a file, now with a new description"
	changed.Parameters = json.RawMessage(`{"type":"object","required":["file"],"properties":{"file":{"type":"string","description":"The file"}}}`)
	reg.Put(changed)
	second := helpText("files/checksum")
	if second == first {
		t.Fatalf("help unchanged after the registry changed:\n%s", second)
	}
	want, err := buildToolHelp(changed)
	if err != nil {
		t.Fatal(err)
	}
	if w := want.(map[string]any)["text"]; second != w {
		t.Errorf("help after the change:\n%s\nwant\n%s", second, w)
	}
	// A registry tool that takes a builtin's id: its help is the registry's.
	shadow := schemas.Manifest{ID: SearchID, Name: "Site search", Description: "Search this site"}
	before := helpText(SearchID)
	reg.Put(shadow)
	if after := helpText(SearchID); after == before || !bytes.Contains([]byte(after), []byte("Site search (toolyard/search): Search this site")) {
		t.Errorf("help of a shadowed builtin:\n%s", after)
	}
	// Removed again: the builtin's help is back.
	reg.Remove(SearchID)
	if again := helpText(SearchID); again != before {
		t.Errorf("help after removal:\n%s\nwant\n%s", again, before)
	}
}

package replay

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadConfig(t *testing.T) {
	for _, tc := range []struct {
		name, file, body string
		want             []Setting
		err              string
	}{
		{name: "json keeps number spelling", file: "c.json", body: `{"activate-threshold": 0.9, "encoder": "use-lite", "llm-json": true}`,
			want: []Setting{{"activate-threshold", []string{"0.9"}}, {"encoder", []string{"use-lite"}}, {"llm-json", []string{"true"}}}},
		{name: "json list sets a repeatable flag per element", file: "c.json", body: `{"path-root": ["/a", "/b"]}`,
			want: []Setting{{"path-root", []string{"/a", "/b"}}}},
		{name: "yaml by extension", file: "c.yaml", body: "activate-threshold: 0.95\ndiscovery: keyword\n",
			want: []Setting{{"activate-threshold", []string{"0.95"}}, {"discovery", []string{"keyword"}}}},
		{name: "yaml without extension", file: "c.conf", body: "weak-threshold: 0.2\n",
			want: []Setting{{"weak-threshold", []string{"0.2"}}}},
		{name: "empty object is the defaults", file: "c.json", body: `{}`},
		{name: "json array", file: "c.json", body: `[1]`, err: "JSON object"},
		{name: "nested object", file: "c.json", body: `{"a": {"b": 1}}`, err: `key "a"`},
		{name: "null value", file: "c.json", body: `{"a": null}`, err: "no value"},
		{name: "duplicate key", file: "c.json", body: `{"a": 1, "a": 2}`, err: "given twice"},
		{name: "yaml scalar document", file: "c.yaml", body: "just words\n", err: "mapping"},
		{name: "yaml nested", file: "c.yml", body: "a:\n  b: 1\n", err: `key "a"`},
		{name: "yaml null", file: "c.yml", body: "a:\n", err: "no value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := ReadConfig(path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Settings, tc.want) {
				t.Fatalf("settings %q, want %q", c.Settings, tc.want)
			}
			if c.Source != path {
				t.Fatalf("source %q", c.Source)
			}
		})
	}
	if _, err := ReadConfig(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("a missing file read without error")
	}
}

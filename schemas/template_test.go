package schemas

import (
	"strings"
	"testing"
)

// A subprocess tool whose argv the executor could never fill is refused
// when it is registered: it was taken, and every call failed not_runnable.
func TestValidateManifestArgv(t *testing.T) {
	manifest := func(params, argv string) string {
		m := `{"id": "t/x", "description": "a test tool", "executor": {"kind": "subprocess", "argv": ` + argv + `}`
		if params != "" {
			m += `, "parameters": ` + params
		}
		return m + `}`
	}
	const query = `{"type": "object", "properties": {"query": {"type": "string"}, "n": {"type": "integer"}}}`
	tests := []struct {
		name, manifest, err string
	}{
		{"declared placeholders", manifest(query, `["grep", "-m{n}", "{query}"]`), ""},
		{"literal braces", manifest(query, `["awk", "{{print $1}}", "{query}"]`), ""},
		{"no placeholders, no parameters", manifest("", `["uptime"]`), ""},
		{"undeclared placeholder", manifest(query, `["grep", "{q}"]`),
			`tool t/x: executor argv[1] "{q}": placeholder {q} names no parameter of the tool's schema (it declares n, query): declare q under parameters.properties, or write {{q}} for literal braces`},
		{"placeholder inside an element", manifest(query, `["grep", "--max={count}", "{query}"]`), "placeholder {count} names no parameter"},
		{"no parameters at all", manifest("", `["echo", "{q}"]`), "names no parameter of the tool's schema (it declares none)"},
		{"unclosed brace", manifest(query, `["echo", "{query"]`), `tool t/x: executor argv[1] "{query": unclosed {`},
		{"not a name", manifest(query, `["echo", "{a b}"]`), "placeholder {a b} is not a parameter name"},
		// Other executors' templates are not argv.
		{"http url", `{"id": "t/x", "description": "a test tool", "executor": {"kind": "http", "url": "https://example.com/{q}"}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ValidateManifest([]byte(tt.manifest))
			if tt.err == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
		})
	}
}

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

// An http tool's URL and header templates are checked the same way, and
// {env.NAME} must name a variable its executor's env lists.
func TestValidateManifestHTTPTemplates(t *testing.T) {
	manifest := func(executor string) string {
		return `{"id": "t/h", "description": "a test tool", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}, "executor": {"kind": "http", ` + executor + `}}`
	}
	tests := []struct {
		name, manifest, err string
	}{
		{"declared", manifest(`"url": "https://example.com/search?q={q}"`), ""},
		{"env listed", manifest(`"url": "https://example.com/{q}", "headers": {"Authorization": "Bearer {env.API_KEY}"}, "env": ["API_KEY"]`), ""},
		{"env fixed", manifest(`"url": "https://example.com/{q}?key={env.KEY}", "env": ["KEY=abc"]`), ""},
		{"json body", manifest(`"url": "https://example.com/", "body": "{\"x\": \"{q}\", \"n\": [\"a {env.K}\"]}", "env": ["K"]`), ""},
		{"undeclared in a json body", manifest(`"url": "https://example.com/", "body": "{\"x\": \"{other}\"}"`), `executor body string "{other}": placeholder {other} names no parameter`},
		{"text body", manifest(`"url": "https://example.com/", "body": "q={q}&r={r}"`), `executor body "q={q}&r={r}": placeholder {r} names no parameter`},
		{"undeclared in the url", manifest(`"url": "https://example.com/{query}"`),
			`tool t/h: executor url "https://example.com/{query}": placeholder {query} names no parameter of the tool's schema (it declares q)`},
		{"undeclared in a header", manifest(`"url": "https://example.com/", "headers": {"X-Q": "{qq}"}`), `executor header X-Q "{qq}": placeholder {qq} names no parameter`},
		{"env not listed", manifest(`"url": "https://example.com/{q}", "headers": {"Authorization": "Bearer {env.API_KEY}"}`),
			`{env.API_KEY} names a variable the executor's env does not list: add "API_KEY"`},
		{"env prefix of another", manifest(`"url": "https://example.com/{q}?k={env.KEY}", "env": ["KEYS"]`), "{env.KEY} names a variable"},
		{"unclosed", manifest(`"url": "https://example.com/{q"`), "unclosed {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ValidateManifest([]byte(tt.manifest))
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

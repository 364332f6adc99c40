package llmresolve

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestReadParams(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []param
	}{
		{"schema order kept", `{"type":"object","required":["b"],"properties":{"z":{"type":"string"},"b":{"type":"integer","description":"bee"},"a":{}}}`,
			[]param{{name: "z", typ: "string"}, {name: "b", typ: "integer", desc: "bee", required: true}, {name: "a", typ: "any"}}},
		{"enum and nullable type", `{"properties":{"u":{"type":["string","null"],"enum":["metric","imperial",null]}}}`,
			[]param{{name: "u", typ: "string", enum: []string{"metric", "imperial", "null"}}}},
		{"array items", `{"properties":{"tags":{"type":"array","items":{"type":"string","enum":["x","y"]}}}}`,
			[]param{{name: "tags", typ: "array of string", enum: []string{"x", "y"}}}},
		{"no properties", `{"type":"object"}`, nil},
		{"empty", ``, nil},
		{"not json", `{"properties":`, nil},
		{"properties not an object", `{"properties":[1]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readParams(json.RawMessage(tt.schema)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// A tool with a long description and many parameters stays a few lines in
// the analysis prompt: the inventory must not crowd out the question.
func TestAnalysisPromptIsCompact(t *testing.T) {
	props := map[string]any{}
	for i := range 60 {
		enum := make([]string, 40)
		for j := range enum {
			enum[j] = fmt.Sprintf("v%d", j)
		}
		props[fmt.Sprintf("p%02d", i)] = map[string]any{"type": "string", "enum": enum, "description": strings.Repeat("long words ", 50)}
	}
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	m := schemas.Manifest{ID: "big/tool", Name: "tool", Description: strings.Repeat("a very long description ", 100), Parameters: raw}
	es := []entry{{cand: schemas.Candidate{ToolID: m.ID}, tool: m, params: readParams(m.Parameters)}}
	in := schemas.Intent{Text: "do it", ContextBefore: strings.Repeat("before ", 1000),
		Conversation: []schemas.Message{{Role: "user", Content: strings.Repeat("hello ", 1000)}}}
	p := analysisPrompt(in, es, resolveTurns)
	if len(p) > 6000 {
		t.Errorf("analysis prompt is %d bytes for one tool:\n%s", len(p), p)
	}
	for _, want := range []string{"… 36 more", "v11|…", "big/tool", `Request: "do it"`} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "long words") {
		t.Error("the analysis prompt shows parameter descriptions; only the argument prompt needs them")
	}
}

package bind

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestRedactParameters(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		params string
		want   string
	}{
		{"writeOnly", `{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string","writeOnly":true}}}`,
			`{"user":"ann","password":"hunter2"}`, `{"user":"ann","password":"***"}`},
		{"x-secret", `{"type":"object","properties":{"token":{"type":"string","x-secret":true},"n":{"type":"integer"}}}`,
			`{"token":"abc123","n":3}`, `{"token":"***","n":3}`},
		{"secret number", `{"type":"object","properties":{"pin":{"type":"integer","x-secret":true}}}`,
			`{"pin":1234}`, `{"pin":"***"}`},
		{"nested object", `{"type":"object","properties":{"auth":{"type":"object","properties":{"key":{"type":"string","writeOnly":true},"id":{"type":"string"}}}}}`,
			`{"auth":{"key":"k1","id":"i1"}}`, `{"auth":{"key":"***","id":"i1"}}`},
		{"secret object", `{"type":"object","properties":{"creds":{"type":"object","x-secret":true}}}`,
			`{"creds":{"a":"b"}}`, `{"creds":"***"}`},
		{"array items", `{"type":"object","properties":{"keys":{"type":"array","items":{"type":"string","x-secret":true}}}}`,
			`{"keys":["a","b"]}`, `{"keys":["***","***"]}`},
		{"array of objects", `{"type":"object","properties":{"hosts":{"type":"array","items":{"type":"object","properties":{"pw":{"writeOnly":true}}}}}}`,
			`{"hosts":[{"name":"x","pw":"1"},{"name":"y"}]}`, `{"hosts":[{"name":"x","pw":"***"},{"name":"y"}]}`},
		{"local ref", `{"type":"object","$defs":{"secret":{"type":"string","writeOnly":true}},"properties":{"api_key":{"$ref":"#/$defs/secret"}}}`,
			`{"api_key":"zzz"}`, `{"api_key":"***"}`},
		{"additionalProperties", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"x-secret":true}}`,
			`{"a":"x","b":"y"}`, `{"a":"x","b":"***"}`},
		{"patternProperties", `{"type":"object","patternProperties":{"^secret_":{"x-secret":true}}}`,
			`{"secret_a":"1","plain":"2"}`, `{"secret_a":"***","plain":"2"}`},
		{"allOf branch", `{"type":"object","allOf":[{"properties":{"pw":{"writeOnly":true}}}]}`,
			`{"pw":"x","u":"y"}`, `{"pw":"***","u":"y"}`},
		{"writeOnly false", `{"type":"object","properties":{"pw":{"writeOnly":false}}}`,
			`{"pw":"x"}`, `{"pw":"x"}`},
		{"no schema", ``, `{"pw":"x"}`, `{"pw":"x"}`},
		{"key spelled with escapes", `{"type":"object","properties":{"pw":{"x-s\u0065cret":true},"tok":{"write\u004fnly":true}}}`,
			`{"pw":"x","tok":"y","n":1}`, `{"pw":"***","tok":"***","n":1}`},
		{"nothing marked", `{"type":"object","properties":{"path":{"type":"string","description":"a file"}}}`,
			`{"path":"/tmp/a"}`, `{"path":"/tmp/a"}`},
		{"recursive ref", `{"$defs":{"node":{"type":"object","properties":{"pw":{"writeOnly":true},"child":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"}`,
			`{"pw":"a","child":{"pw":"b","child":{"x":1}}}`, `{"pw":"***","child":{"pw":"***","child":{"x":1}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var params, want map[string]any
			mustJSON(t, tt.params, &params)
			mustJSON(t, tt.want, &want)
			orig := deepCopy(t, params)
			got := RedactParameters(params, json.RawMessage(tt.schema))
			if !reflect.DeepEqual(got, want) {
				gj, _ := json.Marshal(got)
				t.Errorf("got %s, want %s", gj, tt.want)
			}
			if !reflect.DeepEqual(params, orig) {
				t.Errorf("the call's own parameters were changed: %v", params)
			}
		})
	}
}

func TestRedactAuditScrubsFreeText(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"password":{"type":"string","writeOnly":true},"user":{"type":"string"}}}`)
	a := schemas.AuditRecord{
		IntentExpressed:     "log in as ann with password=hunter2",
		ConversationContext: "user: my password is hunter2",
		Parameters:          map[string]any{"user": "ann", "password": "hunter2"},
		Error:               `password "hunter2" is too short`,
	}
	got := RedactAudit(a, schema)
	for _, s := range []string{got.IntentExpressed, got.ConversationContext, got.Error} {
		if strings.Contains(s, "hunter2") {
			t.Errorf("secret left in %q", s)
		}
	}
	if got.Parameters["password"] != Redacted || got.Parameters["user"] != "ann" {
		t.Errorf("parameters %v", got.Parameters)
	}
	if a.Parameters["password"] != "hunter2" {
		t.Error("the original record's parameters were changed")
	}
	if vals := SecretValues(a.Parameters, schema); !slices.Equal(vals, []string{"hunter2"}) {
		t.Errorf("secret values %v", vals)
	}
}

func TestRedactedSecrets(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"user":{"type":"string"},
		"password":{"type":"string","writeOnly":true},
		"auth":{"type":"object","properties":{"keys":{"type":"array","items":{"type":"string","x-secret":true}}}}}}`)
	cases := []struct {
		name   string
		params string
		want   []string
	}{
		{"real secrets", `{"user":"ann","password":"hunter22"}`, nil},
		{"mark in a plain parameter", `{"user":"***","password":"hunter22"}`, nil},
		{"redacted secret", `{"user":"ann","password":"***"}`, []string{"password"}},
		{"nested", `{"auth":{"keys":["k1-real","***"]}}`, []string{"auth.keys[1]"}},
		{"both", `{"password":"***","auth":{"keys":["***"]}}`, []string{"auth.keys[0]", "password"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p map[string]any
			mustJSON(t, c.params, &p)
			if got := RedactedSecrets(p, schema); !slices.Equal(got, c.want) {
				t.Errorf("RedactedSecrets(%s) = %v, want %v", c.params, got, c.want)
			}
		})
	}
}

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatal(err)
	}
}

func deepCopy(t *testing.T, v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	mustJSON(t, string(b), &out)
	return out
}

func FuzzRedactParameters(f *testing.F) {
	f.Add(`{"properties":{"a":{"writeOnly":true}}}`, `{"a":"x"}`)
	f.Add(`{"$ref":"#"}`, `{"a":{"a":{"a":1}}}`)
	f.Add(`{"patternProperties":{"(":{"x-secret":true}}}`, `{"((":1}`)
	f.Fuzz(func(t *testing.T, schema, params string) {
		var p map[string]any
		if json.Unmarshal([]byte(params), &p) != nil {
			return
		}
		before, _ := json.Marshal(p)
		out := RedactParameters(p, json.RawMessage(schema))
		after, _ := json.Marshal(p)
		if string(before) != string(after) {
			t.Fatalf("input changed: %s → %s", before, after)
		}
		if len(out) != len(p) {
			t.Fatalf("redaction changed the keys: %v → %v", p, out)
		}
	})
}

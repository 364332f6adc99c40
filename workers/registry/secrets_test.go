package registry

import (
	"encoding/json"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestSecretParam(t *testing.T) {
	login := schemas.Manifest{ID: "auth/login", Parameters: json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"},"token":{"type":"string","writeOnly":true}}}`)}
	vault := schemas.Manifest{ID: "vault/open", Parameters: json.RawMessage(`{"type":"object","properties":{"token":{"type":"string","x-secret":true},"pin":{"type":"integer","x-secret":true}}}`)}
	r := New(login, vault)
	steps := []struct {
		name   string
		change func()
		want   map[string]bool
	}{
		{"both tools", func() {}, map[string]bool{"token": true, "pin": true, "user": false}},
		{"one removed: token still secret in the other", func() { r.Remove("vault/open") }, map[string]bool{"token": true, "pin": false}},
		{"replaced without secrets", func() {
			r.Put(schemas.Manifest{ID: "auth/login", Parameters: json.RawMessage(`{"type":"object","properties":{"token":{"type":"string"}}}`)})
		}, map[string]bool{"token": false}},
	}
	for _, s := range steps {
		s.change()
		for name, want := range s.want {
			if got := r.SecretParam(name); got != want {
				t.Errorf("%s: SecretParam(%q) = %v, want %v", s.name, name, got, want)
			}
		}
	}
	if r.HasSecretParams() {
		t.Error("no tool has a secret parameter any more")
	}
}

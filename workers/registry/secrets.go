package registry

import (
	"bytes"
	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
)

// SecretParam reports whether some tool has a top-level parameter of this
// name that its schema marks secret (writeOnly or x-secret). Stages that
// see an intent before it is resolved use it to recognise a secret written
// in plain words as name=value.
func (r *Registry) SecretParam(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.secretNames[name] > 0
}

// HasSecretParams reports whether any tool has a secret top-level parameter.
func (r *Registry) HasSecretParams() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.secretNames) > 0
}

// countSecrets adds d to the counts of m's secret parameter names.
func (r *Registry) countSecrets(m schemas.Manifest, d int) {
	for _, name := range secretParamNames(m.Parameters) {
		if r.secretNames[name] += d; r.secretNames[name] <= 0 {
			delete(r.secretNames, name)
		}
	}
}

// secretParamNames are the top-level properties a schema marks secret. Most
// schemas mark none, and are not decoded.
func secretParamNames(schema json.RawMessage) []string {
	if !bytes.Contains(schema, []byte("writeOnly")) && !bytes.Contains(schema, []byte("x-secret")) {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			WriteOnly bool `json:"writeOnly"`
			XSecret   bool `json:"x-secret"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var out []string
	for name, p := range s.Properties {
		if p.WriteOnly || p.XSecret {
			out = append(out, name)
		}
	}
	return out
}

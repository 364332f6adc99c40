package bind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// Redacted replaces a secret value in audit records (and wherever the
// stage runner scrubs one).
const Redacted = pipeline.Redacted

// RedactParameters returns params with the values of secret parameters
// replaced by Redacted: those whose schema (in any of the given tool
// schemas) says writeOnly: true or x-secret: true, at any depth (nested
// objects, array items, additional and pattern properties, allOf / anyOf /
// oneOf branches, local $refs). params itself is left alone: redaction is
// for what is recorded, never for the call.
func RedactParameters(params map[string]any, toolSchemas ...json.RawMessage) map[string]any {
	if len(params) == 0 {
		return params
	}
	var out any = params
	for _, raw := range toolSchemas {
		var root map[string]any
		if !mayMarkSecrets(raw) || json.Unmarshal(raw, &root) != nil {
			continue
		}
		out, _ = redact(out, root, root, 0)
	}
	if m, ok := out.(map[string]any); ok {
		return m
	}
	// The whole argument object is secret.
	m := make(map[string]any, len(params))
	for k := range params {
		m[k] = Redacted
	}
	return m
}

// SecretValues lists the string values RedactParameters would hide, so
// free text that repeats them (an intent "… password=hunter2", an error
// message) can be scrubbed too.
func SecretValues(params map[string]any, toolSchemas ...json.RawMessage) []string {
	red := RedactParameters(params, toolSchemas...)
	var out []string
	collectReplaced(params, red, &out)
	return out
}

// RedactedSecrets names the secret parameters of params that hold the
// redaction mark itself ("token", "auth.password"): the call was recorded
// with its secrets removed and is being sent again.
func RedactedSecrets(params map[string]any, toolSchemas ...json.RawMessage) []string {
	// The mark is swapped for a value no call holds, so that a secret
	// parameter that held it tells from one that is redacted now.
	swapped, ok := swapMark(params).(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	markedPaths(swapped, RedactParameters(swapped, toolSchemas...), "", &out)
	sort.Strings(out)
	return out
}

// swappedMark stands in for Redacted while RedactedSecrets looks for it.
const swappedMark = "\x00toolyard:redacted\x00"

// swapMark copies v with every string equal to Redacted swapped.
func swapMark(v any) any {
	switch x := v.(type) {
	case string:
		if x == Redacted {
			return swappedMark
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = swapMark(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = swapMark(e)
		}
		return out
	}
	return v
}

// markedPaths gathers the paths where red redacted a value of orig that
// is or holds the swapped mark.
func markedPaths(orig, red any, path string, out *[]string) {
	if s, ok := red.(string); ok && s == Redacted {
		var vals []string
		gatherAll(orig, &vals)
		if slices.Contains(vals, swappedMark) {
			*out = append(*out, strings.TrimPrefix(path, "."))
		}
		return
	}
	switch o := orig.(type) {
	case map[string]any:
		r, _ := red.(map[string]any)
		for k, v := range o {
			markedPaths(v, r[k], path+"."+k, out)
		}
	case []any:
		r, _ := red.([]any)
		for i, v := range o {
			if i < len(r) {
				markedPaths(v, r[i], fmt.Sprintf("%s[%d]", path, i), out)
			}
		}
	}
}

func gatherAll(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case map[string]any:
		for _, e := range x {
			gatherAll(e, out)
		}
	case []any:
		for _, e := range x {
			gatherAll(e, out)
		}
	}
}

// RedactAudit redacts an audit record's parameters and removes their
// secret values from its free text (intent, context, error).
func RedactAudit(a schemas.AuditRecord, toolSchemas ...json.RawMessage) schemas.AuditRecord {
	secrets := SecretValues(a.Parameters, toolSchemas...)
	a.Parameters = RedactParameters(a.Parameters, toolSchemas...)
	for _, s := range secrets {
		if len(s) < 3 {
			// Too short to scrub from text without mangling it; the
			// parameter itself is redacted.
			continue
		}
		a.IntentExpressed = strings.ReplaceAll(a.IntentExpressed, s, Redacted)
		a.ConversationContext = strings.ReplaceAll(a.ConversationContext, s, Redacted)
		a.Error = strings.ReplaceAll(a.Error, s, Redacted)
	}
	return a
}

// maxRedactDepth bounds the walk: schemas may be recursive through $ref.
const maxRedactDepth = 32

// redact returns v with its secret parts replaced, and whether anything
// was; containers are copied, never changed in place.
func redact(v any, schema, root map[string]any, depth int) (any, bool) {
	if depth > maxRedactDepth || schema == nil || v == nil {
		return v, false
	}
	schema = resolveRef(schema, root)
	if isSecret(schema) {
		return Redacted, true
	}
	changed := false
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		branches, _ := schema[k].([]any)
		for _, b := range branches {
			if bs, ok := b.(map[string]any); ok {
				var c bool
				if v, c = redact(v, bs, root, depth+1); c {
					changed = true
				}
			}
		}
	}
	switch val := v.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		patterns, _ := schema["patternProperties"].(map[string]any)
		additional, _ := schema["additionalProperties"].(map[string]any)
		var out map[string]any
		for k, item := range val {
			red, c, matched := item, false, false
			if ps, ok := props[k].(map[string]any); ok {
				var ci bool
				red, ci = redact(red, ps, root, depth+1)
				c, matched = c || ci, true
			}
			for pat, ps := range patterns {
				psm, ok := ps.(map[string]any)
				if !ok {
					continue
				}
				if re, err := regexp.Compile(pat); err == nil && re.MatchString(k) {
					var ci bool
					red, ci = redact(red, psm, root, depth+1)
					c, matched = c || ci, true
				}
			}
			if !matched && additional != nil {
				var ci bool
				red, ci = redact(red, additional, root, depth+1)
				c = c || ci
			}
			if c {
				if out == nil {
					out = make(map[string]any, len(val))
					for k2, v2 := range val {
						out[k2] = v2
					}
				}
				out[k] = red
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		items, _ := schema["items"].(map[string]any)
		prefix, _ := schema["prefixItems"].([]any)
		var out []any
		for i, item := range val {
			s := items
			if i < len(prefix) {
				s, _ = prefix[i].(map[string]any)
			}
			if red, c := redact(item, s, root, depth+1); c {
				if out == nil {
					out = append([]any(nil), val...)
				}
				out[i] = red
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, changed
}

// mayMarkSecrets reports whether a schema's text could hold a key isSecret
// reads: one of them spelled out, or a \u escape that could spell one.
// Most tools mark nothing secret, and decoding their schema for every
// call they make was a tenth of the executor's CPU.
func mayMarkSecrets(raw json.RawMessage) bool {
	return bytes.Contains(raw, []byte("writeOnly")) || bytes.Contains(raw, []byte("x-secret")) || bytes.Contains(raw, []byte(`\u`))
}

func isSecret(schema map[string]any) bool {
	return schema["writeOnly"] == true || schema["x-secret"] == true
}

// resolveRef follows a local reference (#/$defs/…, #/definitions/…);
// others are left as they are.
func resolveRef(schema, root map[string]any) map[string]any {
	for range 8 {
		ref, ok := schema["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#/") {
			return schema
		}
		var node any = root
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
			m, ok := node.(map[string]any)
			if !ok {
				return schema
			}
			node = m[part]
		}
		target, ok := node.(map[string]any)
		if !ok {
			return schema
		}
		if isSecret(schema) {
			return schema // the reference itself is marked secret
		}
		schema = target
	}
	return schema
}

// collectReplaced gathers the strings of orig that red replaced.
func collectReplaced(orig, red any, out *[]string) {
	if s, ok := red.(string); ok && s == Redacted {
		gatherStrings(orig, out)
		return
	}
	switch o := orig.(type) {
	case map[string]any:
		r, _ := red.(map[string]any)
		for k, v := range o {
			collectReplaced(v, r[k], out)
		}
	case []any:
		r, _ := red.([]any)
		for i, v := range o {
			if i < len(r) {
				collectReplaced(v, r[i], out)
			}
		}
	}
}

func gatherStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		if x != Redacted {
			*out = append(*out, x)
		}
	case map[string]any:
		for _, e := range x {
			gatherStrings(e, out)
		}
	case []any:
		for _, e := range x {
			gatherStrings(e, out)
		}
	default:
		if x != nil {
			b, _ := json.Marshal(x)
			*out = append(*out, string(b))
		}
	}
}

// ResultArguments are a call's arguments as a result shows them: secret
// values redacted (by the tool schemas, as RedactParameters), never nil, so
// a call without arguments shows `"arguments": {}`.
func ResultArguments(params map[string]any, toolSchemas ...json.RawMessage) map[string]any {
	out := RedactParameters(params, toolSchemas...)
	if out == nil {
		out = map[string]any{}
	}
	return out
}

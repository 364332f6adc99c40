package sign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolyard/toolyard/schemas"
)

// payloadPrefix separates manifest signatures from anything else the same
// key might sign.
const payloadPrefix = "toolyard.manifest.v1\n"

// Canonical is the canonical JSON of m exactly as given, signature and all
// (see the package doc).
func Canonical(m schemas.Manifest) ([]byte, error) {
	v, err := plain(m)
	if err != nil {
		return nil, err
	}
	return encode(m.ID, v)
}

// Payload is the bytes a signature of m covers: the prefix, then the
// canonical JSON of m whose signature object lacks its "sig" member.
func Payload(m schemas.Manifest) ([]byte, error) {
	v, err := plain(m)
	if err != nil {
		return nil, err
	}
	if sig, ok := v["signature"].(map[string]any); ok {
		delete(sig, "sig")
	}
	c, err := encode(m.ID, v)
	if err != nil {
		return nil, err
	}
	return append([]byte(payloadPrefix), c...), nil
}

// plain is m as the Manifest type encodes it, decoded to plain JSON values.
func plain(m schemas.Manifest) (map[string]any, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode tool %q: %w", m.ID, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode tool %q: %w", m.ID, err)
	}
	return normalize(v).(map[string]any), nil
}

// normalize turns numbers into float64s, which encode in their shortest
// round-trip form; a number beyond float64's range keeps its literal text.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
	case json.Number:
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			return f
		}
	}
	return v
}

func encode(id string, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Maps encode with sorted keys and float64s in their shortest
	// round-trip form: together, the canonical form.
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode tool %q: %w", id, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

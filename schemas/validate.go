package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Kind names a message contract.
type Kind string

// The contracts, one JSON Schema document each under json/.
const (
	KindAgentOutput Kind = "agent_output"
	KindIntent      Kind = "intent"
	KindCandidates  Kind = "candidates"
	KindRouted      Kind = "routed"
	KindToolCall    Kind = "tool_call"
	KindResult      Kind = "result"
	KindAuditRecord Kind = "audit_record"
	KindManifest    Kind = "manifest"
)

// Kinds lists every contract.
var Kinds = []Kind{KindAgentOutput, KindIntent, KindCandidates, KindRouted, KindToolCall, KindResult, KindAuditRecord, KindManifest}

//go:embed json/*.json
var documents embed.FS

const idPrefix = "toolyard://schemas/v1/"

// Document returns the JSON Schema document of a contract.
func Document(k Kind) ([]byte, error) {
	return documents.ReadFile("json/" + string(k) + ".json")
}

var compiled = sync.OnceValues(func() (map[Kind]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	entries, err := documents.ReadDir("json")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		raw, err := documents.ReadFile("json/" + e.Name())
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("schema document %s: %w", e.Name(), err)
		}
		if err := c.AddResource(idPrefix+e.Name(), doc); err != nil {
			return nil, fmt.Errorf("schema document %s: %w", e.Name(), err)
		}
	}
	out := make(map[Kind]*jsonschema.Schema, len(Kinds))
	for _, k := range Kinds {
		s, err := c.Compile(idPrefix + string(k) + ".json")
		if err != nil {
			return nil, fmt.Errorf("compile %s schema: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
})

// ValidationError says why a message does not meet its contract.
type ValidationError struct {
	Kind Kind
	// Problems are "at <json pointer>: <reason>" lines, sorted.
	Problems []string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("invalid %s: %s", e.Kind, strings.Join(e.Problems, "; "))
}

// Validate checks that data is a JSON document meeting contract k.
func Validate(k Kind, data []byte) error {
	_, err := validate(k, data)
	return err
}

// Decode validates data against contract k and decodes it into a T.
func Decode[T any](k Kind, data []byte) (T, error) {
	var v T
	inst, err := validate(k, data)
	if err != nil {
		return v, err
	}
	if ps := caseProblems(reflect.TypeFor[T](), inst); len(ps) > 0 {
		return v, &ValidationError{Kind: k, Problems: ps}
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return v, &ValidationError{Kind: k, Problems: []string{err.Error()}}
	}
	return v, nil
}

// ValidateValue checks an already-decoded value (e.g. a Go struct) against
// contract k, by way of its JSON encoding.
func ValidateValue(k Kind, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", k, err)
	}
	return Validate(k, data)
}

func validate(k Kind, data []byte) (any, error) {
	all, err := compiled()
	if err != nil {
		return nil, err
	}
	sch, ok := all[k]
	if !ok {
		return nil, fmt.Errorf("unknown contract %q", k)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, &ValidationError{Kind: k, Problems: []string{"not valid JSON: " + err.Error()}}
	}
	if obj, ok := inst.(map[string]any); ok {
		if v, ok := obj["v"].(json.Number); ok {
			if n, err := v.Int64(); err == nil && n > Version {
				return nil, &ValidationError{Kind: k, Problems: []string{
					fmt.Sprintf("contract version %d is newer than this worker understands (%d)", n, Version)}}
			}
		}
	}
	if err := sch.Validate(inst); err != nil {
		return nil, &ValidationError{Kind: k, Problems: problems(err)}
	}
	return inst, nil
}

// problems flattens a jsonschema error tree into its leaf causes.
func problems(err error) []string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []string{err.Error()}
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, fmt.Sprintf("at /%s: %s", strings.Join(e.InstanceLocation, "/"), e.ErrorKind.LocalizedString(printer)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(out)
	return out
}

var printer = message.NewPrinter(language.English)

// DecodeInternal decodes a message one stage wrote for another (the PIPE
// and RESULT streams) into a T, strictly (unknown fields are an error) but
// without the JSON Schema pass: only credentialed workers can write those
// subjects, and they write them from these same types. Untrusted input —
// agent outputs, registry writes, service requests — goes through Decode,
// at the boundary where it enters. The schema pass cost about a fifth of
// the pipeline's CPU when every stage repeated it (docs/benchmarks.md).
func DecodeInternal[T any](k Kind, data []byte) (T, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, &ValidationError{Kind: k, Problems: []string{err.Error()}}
	}
	if dec.More() {
		return v, &ValidationError{Kind: k, Problems: []string{"data after the JSON value"}}
	}
	return v, CheckInternal(k, v)
}

// CheckInternal runs the identity checks DecodeInternal runs after
// decoding (a valid session id, an intent id, a real tier), for a value a
// stage of the same process handed over without encoding it.
func CheckInternal(k Kind, v any) error {
	if c, ok := v.(internalChecker); ok {
		if err := c.checkInternal(); err != nil {
			return &ValidationError{Kind: k, Problems: []string{err.Error()}}
		}
	}
	return nil
}

package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Setting is one key of a configuration file: a `toolyard up` flag name and
// the values to set it to, as they would be written on the command line
// (a list sets a repeatable flag once per element).
type Setting struct {
	Key    string
	Values []string
}

// Config is a configuration file's settings, in the file's order.
type Config struct {
	// Source names where the settings came from (the file), for reports.
	Source   string
	Settings []Setting
}

// Map is the settings as a JSON-friendly map (a single value as a string).
func (c Config) Map() map[string]any {
	m := make(map[string]any, len(c.Settings))
	for _, s := range c.Settings {
		if len(s.Values) == 1 {
			m[s.Key] = s.Values[0]
		} else {
			m[s.Key] = s.Values
		}
	}
	return m
}

// ReadConfig reads a configuration file: a JSON object, or a YAML mapping
// (by extension .yaml/.yml, or when the content is not JSON), whose keys
// are `toolyard up` flag names. Whether a key is a flag, and whether its
// value suits it, is for the caller to check against the flag set.
func ReadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	ext := strings.ToLower(filepath.Ext(path))
	yamlFile := ext == ".yaml" || ext == ".yml"
	var c Config
	if !yamlFile && json.Valid(data) {
		c, err = ParseJSONConfig(data)
	} else {
		c, err = ParseYAMLConfig(data)
	}
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	c.Source = path
	return c, nil
}

// ParseJSONConfig reads a JSON object of flag settings. Numbers keep their
// literal spelling (0.9 stays "0.9"), so the flag parses what was written.
func ParseJSONConfig(data []byte) (Config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return Config{}, fmt.Errorf("not JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return Config{}, fmt.Errorf("want a JSON object keyed by flag names, got %v", tok)
	}
	var c Config
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return Config{}, err
		}
		key := kt.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return Config{}, fmt.Errorf("key %q: %w", key, err)
		}
		vals, err := scalarValues(key, v)
		if err != nil {
			return Config{}, err
		}
		if seen[key] {
			return Config{}, fmt.Errorf("key %q given twice", key)
		}
		seen[key] = true
		c.Settings = append(c.Settings, Setting{Key: key, Values: vals})
	}
	if _, err := dec.Token(); err != nil {
		return Config{}, err
	}
	if dec.More() {
		return Config{}, errors.New("trailing data after the JSON object")
	}
	return c, nil
}

// ParseYAMLConfig reads a YAML mapping of flag settings; scalars keep their
// literal spelling.
func ParseYAMLConfig(data []byte) (Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, fmt.Errorf("not JSON or YAML: %w", err)
	}
	if len(doc.Content) == 0 {
		return Config{}, errors.New("empty: want a mapping keyed by flag names")
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return Config{}, fmt.Errorf("want a mapping keyed by flag names (line %d)", m.Line)
	}
	var c Config
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return Config{}, fmt.Errorf("line %d: a key must be a flag name", k.Line)
		}
		var vals []string
		switch v.Kind {
		case yaml.ScalarNode:
			if v.Tag == "!!null" {
				return Config{}, fmt.Errorf("key %q (line %d): no value", k.Value, v.Line)
			}
			vals = []string{v.Value}
		case yaml.SequenceNode:
			for _, e := range v.Content {
				if e.Kind != yaml.ScalarNode {
					return Config{}, fmt.Errorf("key %q (line %d): list elements must be plain values", k.Value, e.Line)
				}
				vals = append(vals, e.Value)
			}
		default:
			return Config{}, fmt.Errorf("key %q (line %d): want a value or a list of values", k.Value, v.Line)
		}
		if seen[k.Value] {
			return Config{}, fmt.Errorf("key %q given twice", k.Value)
		}
		seen[k.Value] = true
		c.Settings = append(c.Settings, Setting{Key: k.Value, Values: vals})
	}
	return c, nil
}

func scalarValues(key string, v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case json.Number:
		return []string{x.String()}, nil
	case bool:
		return []string{fmt.Sprint(x)}, nil
	case []any:
		var out []string
		for _, e := range x {
			s, err := scalarValues(key, e)
			if err != nil || len(s) != 1 {
				return nil, fmt.Errorf("key %q: list elements must be plain values", key)
			}
			out = append(out, s[0])
		}
		return out, nil
	case nil:
		return nil, fmt.Errorf("key %q: no value (null)", key)
	}
	return nil, fmt.Errorf("key %q: want a value or a list of values, got %T", key, v)
}

package llmresolve

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// FunctionGemma writes calls in its own syntax:
//
//	<start_function_call>call:name{key:<escape>text<escape>,n:5}<end_function_call>
//
// Its control tokens may be dropped on the way out of the server, leaving
// call:name{…}. Strings sit between <escape> tokens; other values are bare
// (numbers, booleans, nested {…} or […], read as JSON when they are).

const (
	gemmaStart  = "<start_function_call>"
	gemmaEnd    = "<end_function_call>"
	gemmaEscape = "<escape>"
)

var gemmaCallRE = regexp.MustCompile(`^(?:` + gemmaStart + `\s*)?call:([\w./:-]+)\{`)

// decodeGemmaCall reads a FunctionGemma call at the start of body; ok is
// false when body is not one.
func decodeGemmaCall(body string) (answer, bool, error) {
	m := gemmaCallRE.FindStringSubmatchIndex(body)
	if m == nil {
		return answer{}, false, nil
	}
	name := body[m[2]:m[3]]
	args, err := gemmaArgs(body[m[1]:])
	if err != nil {
		return answer{}, true, err
	}
	c := schemas.ToolCall{MetaTool: schemas.MetaExecute, ToolID: name, Parameters: args}
	return answer{call: &c}, true, nil
}

// gemmaArgs reads key:value pairs up to the closing "}".
func gemmaArgs(s string) (map[string]any, error) {
	args := map[string]any{}
	for {
		s = strings.TrimLeft(s, " \t\r\n,")
		if s == "" || strings.HasPrefix(s, gemmaEnd) {
			return args, nil // a call cut off at the end still gives what it has
		}
		if s[0] == '}' {
			return args, nil
		}
		colon := strings.IndexByte(s, ':')
		if colon <= 0 {
			return nil, unusablef("the call's arguments are not key:value pairs near %q", oneLine(s, 30))
		}
		key := strings.TrimSpace(s[:colon])
		if strings.ContainsAny(key, "{}<>,\"") {
			return nil, unusablef("the call's argument name %q is not a name", oneLine(key, 30))
		}
		s = s[colon+1:]
		if strings.HasPrefix(s, gemmaEscape) {
			rest := s[len(gemmaEscape):]
			end := strings.Index(rest, gemmaEscape)
			if end < 0 {
				return nil, unusablef("the value of %s has no closing <escape>", key)
			}
			args[key] = rest[:end]
			s = rest[end+len(gemmaEscape):]
			continue
		}
		end := bareEnd(s)
		raw := strings.TrimSpace(s[:end])
		s = s[end:]
		var v any
		if json.Unmarshal([]byte(raw), &v) == nil {
			args[key] = numbers(jsonNumbers(raw, v))
		} else {
			args[key] = raw
		}
	}
}

// bareEnd is where a bare value ends: at a "," or "}" outside brackets.
func bareEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case ']':
			depth--
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// jsonNumbers decodes raw again keeping numbers exact (v decoded them as float64).
func jsonNumbers(raw string, v any) any {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}

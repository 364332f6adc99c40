package llmresolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

// maxReplyBytes bounds what is read of one reply: an answer is a small
// JSON object; a model that rambles on is cut, not buffered without end.
const maxReplyBytes = 64 << 10

// DeclinedError is an <error> answer: the model says it cannot do what was
// asked, and why.
type DeclinedError struct{ Reason string }

func (e *DeclinedError) Error() string {
	if e.Reason == "" {
		return "the model declined without a reason"
	}
	return "the model declined: " + e.Reason
}

// unusable is an answer that cannot be used as it is; its message is what
// the corrective retry quotes to the model.
type unusable struct{ problem string }

func (e *unusable) Error() string { return e.problem }

func unusablef(format string, args ...any) error { return &unusable{fmt.Sprintf(format, args...)} }

// answer is one reply decoded: a <tool_call>, or a JSON object.
type answer struct {
	call *schemas.ToolCall
	// hasConfidence: the call stated a confidence (a ToolCall's zero
	// confidence cannot tell "0" from "not given").
	hasConfidence bool
	obj           map[string]any
}

var (
	thinkRE = regexp.MustCompile(`(?s)<think>.*?</think>`)
	errorRE = regexp.MustCompile(`(?s)<error\s*>(.*?)</error\s*>|<error\s*/>`)
)

// replyParser reads <tool_call>s in replies, in code blocks too: models
// like to fence their answers.
var replyParser = parse.New(parse.WithCodeIntents(true), parse.WithMaxTextBytes(maxReplyBytes))

// decodeReply finds the answer in a model's reply: a JSON object, a
// <tool_call> element or an <error>; reasoning in <think> and text around
// the answer are skipped.
func decodeReply(reply string) (answer, error) {
	if len(reply) > maxReplyBytes {
		reply = reply[:maxReplyBytes]
	}
	reply = strings.TrimSpace(thinkRE.ReplaceAllString(reply, ""))
	body := strings.TrimSpace(unfence(reply))
	if body == "" {
		return answer{}, unusablef("the answer is empty")
	}
	if body[0] != '{' {
		if ans, ok, err := decodeGemmaCall(body); ok {
			return ans, err
		}
		if strings.Contains(body, "<tool_call") {
			return decodeCall(body)
		}
		if m := errorRE.FindStringSubmatch(body); m != nil {
			return answer{}, &DeclinedError{Reason: oneLine(m[1], 300)}
		}
	}
	i := strings.IndexByte(body, '{')
	if i < 0 {
		return answer{}, unusablef("no JSON object was found in the answer %q", oneLine(body, 80))
	}
	dec := json.NewDecoder(strings.NewReader(body[i:]))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return answer{}, unusablef("the answer is not a valid JSON object: %v", err)
	}
	return answer{obj: numbers(obj).(map[string]any)}, nil
}

// unfence returns the content of the first ``` code block, or s.
func unfence(s string) string {
	i := strings.Index(s, "```")
	if i < 0 {
		return s
	}
	rest := s[i+3:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return s
	}
	rest = rest[nl+1:]
	j := strings.Index(rest, "```")
	if j < 0 {
		return rest
	}
	return rest[:j]
}

func decodeCall(body string) (answer, error) {
	p, err := replyParser.Parse(schemas.AgentOutput{SessionID: "llm", MessageID: "reply", Text: body})
	if err != nil {
		return answer{}, unusablef("the <tool_call> cannot be read: %v", err)
	}
	if len(p.Calls) == 0 {
		if len(p.Problems) > 0 {
			return answer{}, unusablef("the <tool_call> cannot be used: %s", p.Problems[0].Message)
		}
		return answer{}, unusablef("no complete <tool_call> element was found in the answer")
	}
	c := p.Calls[0]
	return answer{call: &c, hasConfidence: strings.Contains(body, "<confidence")}, nil
}

// numbers turns json.Numbers into int64 when integral, else float64, so
// arguments look as they would from encoding/json, ints kept exact.
func numbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n
		}
		f, _ := v.Float64()
		return f
	case map[string]any:
		for k, x := range v {
			v[k] = numbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = numbers(x)
		}
	}
	return v
}

// analysis is phase 1's answer.
type analysis struct {
	useTool       bool
	server, tool  string
	reasoning     string
	confidence    float64
	hasConfidence bool
}

// parseAnalysis reads phase 1's answer.
func parseAnalysis(reply string) (analysis, error) {
	ans, err := decodeReply(reply)
	if err != nil {
		return analysis{}, err
	}
	if c := ans.call; c != nil {
		return analysis{
			useTool: c.MetaTool == schemas.MetaExecute, tool: c.ToolID,
			confidence: c.Confidence, hasConfidence: ans.hasConfidence,
		}, nil
	}
	o := ans.obj
	if err := jsonDecline(o, nil); err != nil {
		return analysis{}, err
	}
	var a analysis
	a.tool = firstString(o, "tool", "tool_id", "item_id", "id", "name")
	a.server = firstString(o, "server")
	a.reasoning = firstString(o, "reasoning", "reason")
	switch v := o["use_tool"].(type) {
	case bool:
		a.useTool = v
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return a, unusablef(`"use_tool" must be true or false, not %q`, oneLine(v, 20))
		}
		a.useTool = b
	case nil:
		a.useTool = a.tool != ""
	default:
		return a, unusablef(`"use_tool" must be true or false`)
	}
	if v, ok := o["confidence"]; ok && v != nil {
		f, err := unitNumber(v)
		if err != nil {
			return a, err
		}
		a.confidence, a.hasConfidence = f, true
	}
	if a.useTool && a.tool == "" {
		return a, unusablef(`"use_tool" is true but "tool" names no tool`)
	}
	return a, nil
}

func firstString(o map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := o[k].(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func unitNumber(v any) (float64, error) {
	var f float64
	switch v := v.(type) {
	case int64:
		f = float64(v)
	case float64:
		f = v
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
			return 0, unusablef(`"confidence" must be a number between 0 and 1, not %q`, oneLine(v, 20))
		}
	default:
		return 0, unusablef(`"confidence" must be a number between 0 and 1`)
	}
	if math.IsNaN(f) || f < 0 || f > 1 {
		return 0, unusablef(`"confidence" must be between 0 and 1, not %v`, f)
	}
	return f, nil
}

// arguments is phase 2's answer.
type arguments struct {
	args map[string]any
	// tool is the tool the answer names, if it names one.
	tool          string
	confidence    float64
	hasConfidence bool
}

// wrapperKeys are the keys of a call written as {"name": …, "arguments": {…}}.
var wrapperKeys = map[string]bool{"name": true, "tool": true, "arguments": true, "parameters": true, "confidence": true}

// parseArguments reads phase 2's answer. declared are the tool's parameter
// names: an answer wrapped as {"name": …, "arguments": {…}} is unwrapped
// unless the tool itself has such parameters.
func parseArguments(reply string, declared []string) (arguments, error) {
	ans, err := decodeReply(reply)
	if err != nil {
		return arguments{}, err
	}
	if c := ans.call; c != nil {
		return arguments{args: c.Parameters, tool: c.ToolID, confidence: c.Confidence, hasConfidence: ans.hasConfidence}, nil
	}
	o := ans.obj
	if err := jsonDecline(o, declared); err != nil {
		return arguments{}, err
	}
	if !wrapped(o, declared) {
		return arguments{args: o}, nil
	}
	var a arguments
	inner := o["arguments"]
	if inner == nil {
		inner = o["parameters"]
	}
	switch v := inner.(type) {
	case map[string]any:
		a.args = v
	case string:
		ans, err := decodeReply(v)
		if err != nil || ans.obj == nil {
			return a, unusablef(`"arguments" must be a JSON object`)
		}
		a.args = ans.obj
	case nil:
		a.args = map[string]any{}
	default:
		return a, unusablef(`"arguments" must be a JSON object`)
	}
	a.tool = firstString(o, "name", "tool")
	if v, ok := o["confidence"]; ok && v != nil {
		f, err := unitNumber(v)
		if err != nil {
			return a, err
		}
		a.confidence, a.hasConfidence = f, true
	}
	return a, nil
}

// wrapped reports whether o is {"name": …, "arguments": {…}} rather than
// the arguments themselves.
func wrapped(o map[string]any, declared []string) bool {
	_, hasArgs := o["arguments"]
	_, hasParams := o["parameters"]
	if !hasArgs && !hasParams {
		return false
	}
	for k := range o {
		if !wrapperKeys[k] {
			return false
		}
	}
	for _, d := range declared {
		if wrapperKeys[d] {
			return false
		}
	}
	return true
}

// isUnusable reports whether err is worth a corrective retry.
func isUnusable(err error) bool {
	var u *unusable
	return errors.As(err, &u)
}

// jsonDecline reads {"error": "…"}, the decline of JSON mode, unless the
// tool has a parameter called error.
func jsonDecline(o map[string]any, declared []string) error {
	reason, ok := o["error"].(string)
	if !ok || len(o) != 1 || slices.Contains(declared, "error") {
		return nil
	}
	return &DeclinedError{Reason: oneLine(reason, 300)}
}

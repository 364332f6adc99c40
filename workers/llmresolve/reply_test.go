package llmresolve

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseAnalysis(t *testing.T) {
	tests := []struct {
		name, reply string
		want        analysis
		wantErr     string // "declined" for a DeclinedError
	}{
		{"json", `{"use_tool": true, "server": "maps", "tool": "maps/scrape", "confidence": 0.9, "reasoning": "r"}`,
			analysis{useTool: true, server: "maps", tool: "maps/scrape", confidence: 0.9, hasConfidence: true, reasoning: "r"}, ""},
		{"text around", "Sure! {\"tool\": \"maps/scrape\"} hope that helps", analysis{useTool: true, tool: "maps/scrape"}, ""},
		{"fenced", "```json\n{\"use_tool\": false, \"reasoning\": \"no\"}\n```", analysis{reasoning: "no"}, ""},
		{"think stripped", `<think>{"tool": "x"}</think>{"tool": "y", "confidence": 1}`, analysis{useTool: true, tool: "y", confidence: 1, hasConfidence: true}, ""},
		{"string bool and confidence", `{"use_tool": "True", "tool": "a", "confidence": "0.25"}`, analysis{useTool: true, tool: "a", confidence: 0.25, hasConfidence: true}, ""},
		{"function call form", `{"name": "maps/scrape", "arguments": {"q": 1}}`, analysis{useTool: true, tool: "maps/scrape"}, ""},
		{"xml element form", `<tool_call><meta_tool>execute</meta_tool><item_type>tool</item_type><action>run</action><item_id>maps/scrape</item_id><parameters>{"q": "x"}</parameters><confidence>0.8</confidence></tool_call>`,
			analysis{useTool: true, tool: "maps/scrape", confidence: 0.8, hasConfidence: true}, ""},
		{"xml attribute form", `<tool_call name="maps/scrape">{"q": "x"}</tool_call>`, analysis{useTool: true, tool: "maps/scrape"}, ""},
		{"xml search is not a tool use", `<tool_call><meta_tool>search</meta_tool></tool_call>`, analysis{}, ""},
		{"xml in a fence", "```xml\n<tool_call><item_id>a</item_id></tool_call>\n```", analysis{useTool: true, tool: "a"}, ""},
		{"functiongemma call", `<start_function_call>call:maps/scrape{query:<escape>tech, inc<escape>}<end_function_call>`, analysis{useTool: true, tool: "maps/scrape"}, ""},
		{"functiongemma call without control tokens", `call:scrape{}`, analysis{useTool: true, tool: "scrape"}, ""},
		{"functiongemma call unclosed escape", `call:scrape{q:<escape>x}`, analysis{}, "no closing <escape>"},
		{"error element", `<error>nothing fits</error>`, analysis{}, "declined"},
		{"json error", `{"error": "nothing fits"}`, analysis{}, "declined"},
		{"empty error element", `<error/>`, analysis{}, "declined"},
		{"bad xml", `<tool_call><item_id>a</item_id><bogus>1</bogus></tool_call>`, analysis{}, "element <bogus> is unknown"},
		{"unclosed xml", `<tool_call><item_id>a</item_id>`, analysis{}, "cannot be used"},
		{"no json", `the scraper`, analysis{}, "no JSON object"},
		{"broken json", `{"tool": `, analysis{}, "not a valid JSON object"},
		{"empty", "  ", analysis{}, "empty"},
		{"use_tool without tool", `{"use_tool": true}`, analysis{}, "names no tool"},
		{"bad use_tool", `{"use_tool": "maybe", "tool": "a"}`, analysis{}, "true or false"},
		{"confidence out of range", `{"tool": "a", "confidence": 7}`, analysis{}, "between 0 and 1"},
		{"confidence not a number", `{"tool": "a", "confidence": "high"}`, analysis{}, "between 0 and 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseAnalysis(tt.reply)
			var declined *DeclinedError
			switch {
			case tt.wantErr == "declined":
				if !errors.As(err, &declined) {
					t.Fatalf("error %v, want declined", err)
				}
				return
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !isUnusable(err) {
					t.Fatalf("error %v, want an unusable answer with %q", err, tt.wantErr)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseArguments(t *testing.T) {
	tests := []struct {
		name, reply string
		declared    []string
		want        arguments
		wantErr     string
	}{
		{"plain", `{"path": "/tmp", "n": 3, "x": 1.5, "tags": ["a"], "deep": {"k": null}}`, nil,
			arguments{args: map[string]any{"path": "/tmp", "n": int64(3), "x": 1.5, "tags": []any{"a"}, "deep": map[string]any{"k": nil}}}, ""},
		{"wrapped", `{"name": "files/checksum", "arguments": {"path": "/tmp"}, "confidence": 0.9}`, []string{"path"},
			arguments{args: map[string]any{"path": "/tmp"}, tool: "files/checksum", confidence: 0.9, hasConfidence: true}, ""},
		{"wrapped with string arguments", `{"name": "a", "arguments": "{\"path\": \"/tmp\"}"}`, nil,
			arguments{args: map[string]any{"path": "/tmp"}, tool: "a"}, ""},
		{"not unwrapped when the tool has such a parameter", `{"name": "x", "parameters": {"a": 1}}`, []string{"name", "parameters"},
			arguments{args: map[string]any{"name": "x", "parameters": map[string]any{"a": int64(1)}}}, ""},
		{"xml child parameters", `<tool_call><item_id>a</item_id><parameters><path>/tmp</path><n>3</n></parameters></tool_call>`, nil,
			arguments{args: map[string]any{"path": "/tmp", "n": "3"}, tool: "a"}, ""},
		{"functiongemma call", `<start_function_call>call:maps/scrape{query:<escape>tech, inc: {x}<escape>,limit:50,near:[1.5, 2],strict:true,sort:rating}<end_function_call>`, nil,
			arguments{args: map[string]any{"query": "tech, inc: {x}", "limit": int64(50), "near": []any{1.5, int64(2)}, "strict": true, "sort": "rating"}, tool: "maps/scrape"}, ""},
		{"functiongemma call cut off", `call:a{path:<escape>/tmp<escape>, n:`, nil, arguments{args: map[string]any{"path": "/tmp", "n": ""}, tool: "a"}, ""},
		{"json error is a decline", `{"error": "no path given"}`, []string{"path"}, arguments{}, "declined"},
		{"error is an argument when the tool has one", `{"error": "E42"}`, []string{"error"}, arguments{args: map[string]any{"error": "E42"}}, ""},
		{"bad wrapped arguments", `{"name": "a", "arguments": 5}`, nil, arguments{}, "must be a JSON object"},
		{"json array", `[1, 2]`, nil, arguments{}, "no JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseArguments(tt.reply, tt.declared)
			var declined *DeclinedError
			if tt.wantErr == "declined" {
				if !errors.As(err, &declined) {
					t.Fatalf("error %v, want declined", err)
				}
				return
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// FuzzParseReply: no reply makes the parsers panic, and every failure is
// either an unusable answer (worth a retry) or a declined one.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"use_tool": true, "tool": "a", "confidence": 0.5}`,
		`<tool_call><item_id>a</item_id><parameters><p>1</p></parameters><confidence>0.9</confidence></tool_call>`,
		`<tool_call name="a">{"p": 1}</tool_call>`,
		"```json\n{\"name\": \"a\", \"arguments\": \"{}\"}\n```",
		`<think>x</think><error>no</error>`,
		`{"a": [1, {"b": 1e400}]}`,
		`<start_function_call>call:a{p:<escape>x<escape>,n:[1,{"b":2}]}<end_function_call>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		for _, err := range []error{
			func() error { _, err := parseAnalysis(reply); return err }(),
			func() error { _, err := parseArguments(reply, []string{"p"}); return err }(),
		} {
			var declined *DeclinedError
			if err != nil && !isUnusable(err) && !errors.As(err, &declined) {
				t.Fatalf("reply %q: error %v is neither unusable nor declined", reply, err)
			}
		}
	})
}

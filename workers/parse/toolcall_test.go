package parse_test

import (
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

func TestToolCalls(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"attribute form", `<tool_call name="disk_usage">{"path":"/tmp"}</tool_call>`,
			[]string{`0 call execute disk_usage {"path":"/tmp"}`}},
		{"attribute form, empty body", `<tool_call name="uptime"></tool_call>`, []string{`0 call execute uptime {}`}},
		{"attribute form, blank body", "<tool_call name=\"uptime\">\n  \n</tool_call>", []string{`0 call execute uptime {}`}},
		{"self-closing", `<tool_call name="uptime"/>`, []string{`0 call execute uptime {}`}},
		{"self-closing with a space", `<tool_call name='uptime' />`, []string{`0 call execute uptime {}`}},
		{"element form", `<tool_call><meta_tool>execute</meta_tool><item_type>tool</item_type><action>run</action><item_id>system/disk_usage</item_id><parameters>{"path": "/tmp"}</parameters></tool_call>`,
			[]string{`0 call execute system/disk_usage {"path":"/tmp"}`}},
		{"element form, pretty", "<tool_call>\n  <meta_tool> Execute </meta_tool>\n  <item_id>\n    disk_usage\n  </item_id>\n  <parameters>\n    {\"path\": \"/tmp\"}\n  </parameters>\n</tool_call>",
			[]string{`0 call execute disk_usage {"path":"/tmp"}`}},
		{"element parameters", `<tool_call><item_id>x</item_id><parameters><path>/tmp</path><depth>2</depth></parameters></tool_call>`,
			[]string{`0 call execute x {"depth":"2","path":"/tmp"}`}},
		{"nested and repeated parameters", `<tool_call><item_id>x</item_id><parameters><q><a>1</a><b/></q><tag>p</tag><tag>q</tag><tag>r</tag></parameters></tool_call>`,
			[]string{`0 call execute x {"q":{"a":"1","b":""},"tag":["p","q","r"]}`}},
		{"empty parameters", `<tool_call><item_id>x</item_id><parameters/></tool_call>`, []string{`0 call execute x {}`}},
		{"name attribute with elements", `<tool_call name="x"><parameters><a>1</a></parameters></tool_call>`, []string{`0 call execute x {"a":"1"}`}},
		{"search needs no tool", `<tool_call><meta_tool>search</meta_tool><parameters>{"query":"disk"}</parameters></tool_call>`,
			[]string{`0 call search  {"query":"disk"}`}},
		{"help", `<tool_call><meta_tool>help</meta_tool></tool_call>`, []string{`0 call help  {}`}},
		{"JSON form", `<tool_call>{"name": "disk_usage", "arguments": {"path": "/tmp"}}</tool_call>`,
			[]string{`0 call execute disk_usage {"path":"/tmp"}`}},
		{"JSON form, parameters key", `<tool_call>{"name": "x", "parameters": {"a": 1}}</tool_call>`, []string{`0 call execute x {"a":1}`}},
		{"JSON form, string arguments", `<tool_call>{"name": "x", "arguments": "{\"a\": [1, 2]}"}</tool_call>`, []string{`0 call execute x {"a":[1,2]}`}},
		{"JSON form, no arguments", `<tool_call>{"name": "x"}</tool_call>`, []string{`0 call execute x {}`}},
		{"JSON needs no escaping", `<tool_call name="q">{"expr": "a < b && c > d", "tag": "</x>"}</tool_call>`,
			[]string{`0 call execute q {"expr":"a \u003c b \u0026\u0026 c \u003e d","tag":"\u003c/x\u003e"}`}},
		{"JSON escaped for XML", `<tool_call name="q">{&quot;a&quot;: &quot;b&quot;}</tool_call>`, []string{`0 call execute q {"a":"b"}`}},
		{"bare ampersand in XML text", `<tool_call><item_id>q</item_id><parameters><s>cats & dogs &amp; &eacute;</s></parameters></tool_call>`,
			[]string{`0 call execute q {"s":"cats \u0026 dogs \u0026 é"}`}},
		{"CDATA", `<tool_call><item_id>q</item_id><parameters><s><![CDATA[a < b]]></s></parameters></tool_call>`,
			[]string{`0 call execute q {"s":"a \u003c b"}`}},
		{"end tag with a space", `<tool_call name="x"></tool_call >`, []string{`0 call execute x {}`}},
		{"attribute with >", `<tool_call name="a>b"/>`, []string{`0 call execute a>b {}`}},
		{"markers in parameters are data", `<tool_call name="echo">{"text": "[TOOL: no]"}</tool_call> [TOOL: yes]`,
			[]string{`0 call execute echo {"text":"[TOOL: no]"}`, `1 "yes"`}},
		{"shares the numbering with intents", `[TOOL: a] <tool_call name="b"/> [TOOL: c [TOOL: d]] <tool_call name="e"/>`,
			[]string{`0 "a"`, `1 call execute b {}`, `2 "d" ^3`, `3 "c d" <-2`, `4 call execute e {}`}},
		{"not a tool_call", `<tool_calls name="x"/> <tool_callx/> <Tool_Call name="x"/>`, nil},

		{"parameters not an object", `<tool_call name="x">[1, 2]</tool_call>`, []string{"! bad_tool_call@0"}},
		{"bad JSON", `<tool_call name="x">{"a": }</tool_call>`, []string{"! bad_tool_call@0"}},
		{"trailing JSON", `<tool_call name="x">{"a": 1} x</tool_call>`, []string{"! bad_tool_call@0"}},
		{"text body", `<tool_call name="x">path=/tmp</tool_call>`, []string{"! bad_tool_call@0"}},
		{"no tool", `<tool_call>{"path": "/tmp"}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"JSON form with unknown key", `<tool_call>{"name": "bob", "age": 3}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"JSON form, name not a string", `<tool_call>{"name": 3}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"JSON form, arguments not an object", `<tool_call>{"name": "x", "arguments": [1]}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"execute without a tool", `<tool_call><meta_tool>execute</meta_tool></tool_call>`, []string{"! bad_tool_call@0"}},
		{"empty element", `<tool_call></tool_call>`, []string{"! bad_tool_call@0"}},
		{"unknown meta_tool", `<tool_call><meta_tool>delete</meta_tool><item_id>x</item_id></tool_call>`, []string{"! bad_tool_call@0"}},
		{"unknown element", `<tool_call><tool>x</tool></tool_call>`, []string{"! bad_tool_call@0"}},
		{"unknown attribute", `<tool_call tool="x"/>`, []string{"! bad_tool_call@0"}},
		{"duplicate element", `<tool_call><item_id>x</item_id><item_id>y</item_id></tool_call>`, []string{"! bad_tool_call@0"}},
		{"name and item_id disagree", `<tool_call name="x"><item_id>y</item_id></tool_call>`, []string{"! bad_tool_call@0"}},
		{"malformed XML", `<tool_call><item_id>x</tool_call>`, []string{"! bad_tool_call@0"}},
		{"unquoted attribute", `<tool_call name=x/>`, []string{"! bad_tool_call@0"}},
		{"stray text", `<tool_call><item_id>x</item_id>run it</tool_call>`, []string{"! bad_tool_call@0"}},
		{"elements in item_id", `<tool_call><item_id><a/></item_id></tool_call>`, []string{"! bad_tool_call@0"}},
		{"text in parameters", `<tool_call><item_id>x</item_id><parameters>/tmp</parameters></tool_call>`, []string{"! bad_tool_call@0"}},
		{"mixed parameters", `<tool_call><item_id>x</item_id><parameters>a<b>1</b></parameters></tool_call>`, []string{"! bad_tool_call@0"}},
		{"parameters JSON array", `<tool_call><item_id>x</item_id><parameters>[1]</parameters></tool_call>`, []string{"! bad_tool_call@0"}},
		{"confidence out of range", `<tool_call><item_id>x</item_id><confidence>1.5</confidence></tool_call>`, []string{"! bad_tool_call@0"}},
		{"confidence not a number", `<tool_call><item_id>x</item_id><confidence>high</confidence></tool_call>`, []string{"! bad_tool_call@0"}},
		{"control character in the tool id", `<tool_call>{"name": "a\u0001b"}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"character reference the XML decoder refuses", "<tool_call name=\"a&#x1;b\"/>", []string{"! bad_tool_call@0"}},
		{"JSON form, string arguments not JSON", `<tool_call>{"name": "x", "arguments": "a=1"}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"JSON form, empty name", `<tool_call>{"name": " "}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"parameters JSON not an object", `<tool_call><item_id>x</item_id><parameters>{"a": 1} 2</parameters></tool_call>`, []string{"! bad_tool_call@0"}},
		{"parameters element unclosed", `<tool_call><item_id>x</item_id><parameters>{"a": 1}</tool_call>`, []string{"! bad_tool_call@0"}},
		{"broken XML after JSON parameters", `<tool_call><parameters>{"a": 1}</parameters><item_id>x</tool_call>`, []string{"! bad_tool_call@0"}},
		{"JSON parameters then child parameters", `<tool_call><item_id>x</item_id><parameters>{"a": 1}</parameters><parameters/></tool_call>`, []string{"! bad_tool_call@0"}},
		{"namespace declaration", `<tool_call xmlns="urn:x" name="t"/>`, []string{`0 call execute t {}`}},
		{"tool id too long", `<tool_call name="` + strings.Repeat("x", 257) + `"/>`, []string{"! bad_tool_call@0"}},
		{"parameters too deep", `<tool_call><item_id>x</item_id><parameters>` + strings.Repeat("<a>", 40) + strings.Repeat("</a>", 40) + `</parameters></tool_call>`,
			[]string{"! bad_tool_call@0"}},
		{"a bad call does not stop the rest", `<tool_call name="x">nope</tool_call> <tool_call name="y"/> [TOOL: z]`,
			[]string{`0 call execute y {}`, `1 "z"`, "! bad_tool_call@0"}},

		{"unclosed", `<tool_call name="x">{"a": 1}`, []string{"! unterminated@0"}},
		{"unclosed start tag", `<tool_call name="x"`, []string{"! unterminated@0"}},
		{"unclosed hides no intent", `<tool_call name="x">{"a": 1} and then [TOOL: y]`, []string{`0 "y"`, "! unterminated@0"}},
		{"later openers are unclosed too", `<tool_call> [TOOL: a] <tool_call name="b"> [TOOL: c]`,
			[]string{`0 "a"`, `1 "c"`, "! unterminated@0", "! unterminated@22"}},
		{"closed call after unclosed is not possible", `<tool_call> x <tool_call name="b"></tool_call>`,
			[]string{"! bad_tool_call@0"}},
		{"unclosed in prose after code", "`<tool_call>` <tool_call name=\"x\">", []string{"! unterminated@14"}},
	}
	p := parse.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, p, tt.in)
			if d := describe(got); !sameLines(d, tt.want) {
				t.Fatalf("Parse(%q)\n got %q\nwant %q\nproblems %+v", tt.in, d, tt.want, got.Problems)
			}
			checkInvariants(t, tt.in, got, parse.DefaultContextChars)
			for _, c := range got.Calls {
				if err := schemas.ValidateValue(schemas.KindToolCall, c); err != nil {
					t.Errorf("call breaks its contract: %v", err)
				}
			}
			for _, size := range []int{1, 3, 8} {
				sameAsParse(t, p, tt.in, repeatSize(size, len(tt.in)))
			}
		})
	}
}

func TestToolCallFields(t *testing.T) {
	in := `<tool_call><meta_tool>execute</meta_tool><item_type>script</item_type><action>dry_run</action>` +
		`<item_id>ops/deploy</item_id><parameters>{"env": "staging", "n": 3}</parameters><confidence>0.75</confidence></tool_call>`
	got := mustParse(t, parse.New(), in)
	want := []schemas.ToolCall{{
		V: 1, IntentID: "m1.0", SessionID: "s1", MessageID: "m1", MetaTool: "execute", ItemType: "script",
		Action: "dry_run", ToolID: "ops/deploy", Parameters: map[string]any{"env": "staging", "n": 3.0},
		Confidence: 0.75, Direct: true,
	}}
	if !equalJSON(got.Calls, want) {
		t.Fatalf("got %+v", got.Calls)
	}
	// Every form of one call is the same ToolCall.
	forms := []string{
		`<tool_call name="disk_usage">{"path": "/tmp"}</tool_call>`,
		`<tool_call>{"name": "disk_usage", "arguments": {"path": "/tmp"}}</tool_call>`,
		`<tool_call><meta_tool>execute</meta_tool><item_type>tool</item_type><action>run</action><item_id>disk_usage</item_id><parameters>{"path": "/tmp"}</parameters></tool_call>`,
		`<tool_call><item_id>disk_usage</item_id><parameters><path>/tmp</path></parameters></tool_call>`,
	}
	first := mustParse(t, parse.New(), forms[0]).Calls
	for _, f := range forms[1:] {
		if c := mustParse(t, parse.New(), f).Calls; !equalJSON(c, first) {
			t.Errorf("%s\n gives %+v\nnot %+v", f, c, first)
		}
	}
}

func TestBadToolCallSaysWhy(t *testing.T) {
	tests := map[string]string{
		`<tool_call name="x">[1]</tool_call>`:                                     "JSON object",
		`<tool_call name="x">{"a": [}</tool_call>`:                                "invalid character",
		`<tool_call><item_id>x</item_id><parameters>[1]</parameters></tool_call>`: "got an array",
		`<tool_call name="x">"s"</tool_call>`:                                     "JSON object",
		`<tool_call>{"name": "x", "arguments": "3"}</tool_call>`:                  "got a number",
		`<tool_call>{"name": "x", "arguments": "true"}</tool_call>`:               "got a boolean",
		`<tool_call>{"name": "x", "arguments": "null"}</tool_call>`:               "got null",
		`<tool_call>{"name": "x", "arguments": "\"s\""}</tool_call>`:              "got a string",
		`<tool_call><meta_tool>delete</meta_tool></tool_call>`:                    `meta_tool "delete"`,
		`<tool_call><meta_tool>execute</meta_tool></tool_call>`:                   "execute needs a tool id",
		`<tool_call><tool>x</tool></tool_call>`:                                   "element <tool> is unknown",
		`<tool_call><item_id>x</tool_call>`:                                       "not valid XML",
		`<tool_call>{"path": "/tmp"}</tool_call>`:                                 "names no tool",
		`<tool_call><item_id>x</item_id><confidence>2</confidence></tool_call>`:   "between 0 and 1",
	}
	for in, why := range tests {
		got := mustParse(t, parse.New(), in)
		if len(got.Problems) != 1 || !strings.Contains(got.Problems[0].Message, why) {
			t.Errorf("%s: problems %+v, want the reason %q", in, got.Problems, why)
		}
	}
}

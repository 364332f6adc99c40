package parse_test

import (
	"fmt"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

func ExampleParser_Parse() {
	p := parse.New(parse.WithContextChars(20))
	got, err := p.Parse(schemas.AgentOutput{
		SessionID: "s1",
		MessageID: "m1",
		Text: "First [TOOL: run [TOOL: search for latest deploy script]].\n" +
			"Docs say `[TOOL: …]` is the syntax. Then [TOOL: ] and\n" +
			`<tool_call name="disk_usage">{"path": "/tmp"}</tool_call>`,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range got.Intents {
		fmt.Printf("%s %q depends on %v\n", in.ID, in.Text, in.DependsOn)
	}
	for _, c := range got.Calls {
		fmt.Printf("%s %s %s %v\n", c.IntentID, c.MetaTool, c.ToolID, c.Parameters)
	}
	for _, pr := range got.Problems {
		fmt.Printf("%s at %d\n", pr.Code, pr.Pos)
	}
	// Output:
	// m1.0 "search for latest deploy script" depends on []
	// m1.1 "run search for latest deploy script" depends on [m1.0]
	// m1.2 execute disk_usage map[path:/tmp]
	// empty_intent at 102
}

func ExampleStream() {
	st := parse.New().NewStream("s1", "m1")
	for _, chunk := range []string{"Let me [TO", "OL: check the d", "isk] and [TOOL: cle", "an up", " /tmp"} {
		got, err := st.Write(chunk)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, in := range got.Intents {
			fmt.Printf("after %q: %s %q at [%d,%d)\n", chunk, in.ID, in.Text, in.Start, in.End)
		}
	}
	for _, pr := range st.Close().Problems {
		fmt.Println("at close:", pr.Code, pr.Pos)
	}
	// Output:
	// after "isk] and [TOOL: cle": m1.0 "check the disk" at [7,29)
	// at close: unterminated 34
}

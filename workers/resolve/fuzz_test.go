package resolve

import (
	"context"
	"errors"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/schemas"
)

// FuzzResolve: any intent text, against every sample tool and the test
// tools, resolves or fails with one of the two agent-facing errors; a
// resolved call always meets the tool_call contract.
// oddNames has the parameter names a rule may trim to nothing or read as
// prose: "s" (a search, as some public APIs name it), "a", "ed", "on", "n".
var oddNames = manifest("t/odd", "Odd names", `{"type":"object","properties":{
	"s":{"type":"string"},"a":{"type":"number"},"ed":{"type":"string"},"on":{"type":"boolean"},
	"n":{"type":"integer"},"labels":{"type":"array","items":{"type":"integer"}}}}`)

func FuzzResolve(f *testing.F) {
	tools, err := sample.Tools()
	if err != nil {
		f.Fatal(err)
	}
	tools = append(tools, scraper, email, weather, copyTool, archive, twoEnums, event, help,
		getSum, echoTool, reverse, readText, moveFile, searchFiles, numbered, links,
		oddNames, rangeReport, codesProjector, opsPurge)
	for _, m := range tools {
		for _, ex := range m.Examples {
			f.Add(ex)
		}
	}
	f.Add(`limit limit 5 5 "x" 'y' max results: results max 1,000 units imperial imperial /a /b`)
	f.Add("of of to = : equals")
	f.Add("find movies tagged x, labelled 1 and 2 between 2 and 3 hours, -1.5 hours, 1Z999AA1012")
	f.Add("echo the message hello world, then add 2 and 3 and 4; the word the word x")
	f.Add("move the file a/b.txt to ../c/ matching *.go and the first 5 lines of notes.md")
	f.Add("translate hello into german, the last three lines, forty-two files named notes.txt, the json files, 24h, then uptime")
	// Every tool is offered, so each one's name in the text reads as
	// another tool's.
	cands := make([]schemas.Candidate, len(tools))
	for i, m := range tools {
		cands[i] = schemas.Candidate{ToolID: m.ID, Name: m.Name}
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := routed(text)
		r.Candidates = cands
		for _, m := range tools {
			call, err := Resolve(context.Background(), r, m)
			var me *MissingError
			var ie *InvalidError
			switch {
			case err == nil:
				if err := schemas.ValidateValue(schemas.KindToolCall, call); err != nil {
					t.Fatalf("%s %q: call breaks the contract: %v", m.ID, text, err)
				}
			case errors.As(err, &me), errors.As(err, &ie):
			default:
				t.Fatalf("%s %q: unexpected error %v", m.ID, text, err)
			}
		}
	})
}

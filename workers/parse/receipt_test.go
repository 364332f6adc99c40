package parse

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// The receipt is the first result an output gets: the error results of its
// problems are among what it announces, so they come after it. It names the
// text it accepted, for a client reusing the output's message id.
func TestReceiptComesFirst(t *testing.T) {
	tests := []struct {
		name, text string
		problems   int
	}{
		{"problems and work", "[TOOL: kernel version] and [TOOL: ] and <tool_call>{}</tool_call>", 2},
		{"problems only", "[TOOL: ] and [TOOL:   ]", 2},
		{"work only", "[TOOL: kernel version]", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(schemas.AgentOutput{SessionID: "s1", MessageID: "m1", Text: tt.text})
			if err != nil {
				t.Fatal(err)
			}
			outs, err := Stage(New()).Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data, NumDelivered: 1})
			if err != nil {
				t.Fatal(err)
			}
			var results []schemas.Result
			for _, o := range outs {
				if o.Subject != schemas.ResultSubject("s1") {
					continue
				}
				var r schemas.Result
				if err := json.Unmarshal(o.Data, &r); err != nil {
					t.Fatal(err)
				}
				results = append(results, r)
			}
			if len(results) != 1+tt.problems {
				t.Fatalf("%d results, want the receipt and %d problem(s)", len(results), tt.problems)
			}
			receipt := results[0]
			if receipt.Status != schemas.StatusAccepted {
				t.Fatalf("first result is %s (%s), want the receipt", receipt.Status, receipt.Message)
			}
			if sum := sha256.Sum256([]byte(tt.text)); receipt.TextSHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("receipt text_sha256 %q, want the SHA-256 of the output's text", receipt.TextSHA256)
			}
			for _, r := range results[1:] {
				if r.Status != schemas.StatusError || !strings.Contains(r.IntentID, ".problem") || !slices.Contains(receipt.IntentIDs, r.IntentID) {
					t.Errorf("after the receipt: %s %s, want a problem it announces (%v)", r.Status, r.IntentID, receipt.IntentIDs)
				}
			}
		})
	}
}

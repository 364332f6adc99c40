package effects

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// encodeRecord writes outputs as they are instead of through
// json.Marshal: the bytes must be json.Marshal's for what json.Marshal
// writes, and read back the same for any valid JSON.
func TestEncodeRecordOutputs(t *testing.T) {
	at := time.Date(2026, 11, 26, 22, 0, 0, 123456789, time.UTC)
	base := Record{SessionID: "s1", IntentID: "m1#0", ToolID: "files/checksum", State: StateDone, Claims: 1, ClaimedAt: at, FinishedAt: at.Add(time.Second)}
	marshaled := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	result := marshaled(map[string]any{"status": "executed", "text": `call it as <tool_call name="a">{"x":1}</tool_call> & more`, "n": 3})
	tests := []struct {
		name string
		outs []StoredOut
		// sameBytes: the outputs are as json.Marshal writes them, so the
		// record's bytes must be json.Marshal's too.
		sameBytes bool
	}{
		{"no outputs", nil, true},
		{"one output", []StoredOut{{Subject: "result.s1", ID: "r-1", Data: result}}, true},
		{"every field", []StoredOut{
			{Subject: "result.s1", ID: "r-1", Data: result, Header: nats.Header{"Traceparent": {"00-abc-def-01"}}, StampTraceID: true},
			{Subject: "audit.s1", Data: marshaled([]any{"a", 1.5, nil, true})},
			{Subject: "x", Data: json.RawMessage(`"just a string"`), StampTraceID: true},
		}, true},
		{"not compact, html characters", []StoredOut{
			{Subject: "result.s1", Data: json.RawMessage(" {\n  \"a\": \"<b> & c\",\n  \"list\": [ 1, 2 ]\n}\t")},
			{Subject: "n", Data: json.RawMessage(`12e3`)},
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base
			r.Outputs = tt.outs
			got := encodeRecord(r)
			if !json.Valid(got) {
				t.Fatalf("not JSON: %s", got)
			}
			r.V = recordVersion
			want := marshaled(r)
			if tt.sameBytes && !bytes.Equal(got, want) {
				t.Errorf("bytes differ from json.Marshal:\n got %s\nwant %s", got, want)
			}
			back, err := decodeRecord(got)
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Outputs) != len(tt.outs) {
				t.Fatalf("read back %d outputs, want %d", len(back.Outputs), len(tt.outs))
			}
			for i, o := range back.Outputs {
				in := tt.outs[i]
				if o.Subject != in.Subject || o.ID != in.ID || o.StampTraceID != in.StampTraceID || !reflect.DeepEqual(o.Header, in.Header) {
					t.Errorf("output %d read back as %+v, want %+v", i, o, in)
				}
				var a, b any
				if err := json.Unmarshal(o.Data, &a); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(in.Data, &b); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(a, b) {
					t.Errorf("output %d data read back as %s, want %s", i, o.Data, in.Data)
				}
			}
			back.Outputs, r.Outputs = nil, nil
			if !reflect.DeepEqual(back, r) {
				t.Errorf("record read back as %+v, want %+v", back, r)
			}
		})
	}
}

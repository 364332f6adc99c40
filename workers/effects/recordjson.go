package effects

import (
	"encoding/json"

	"github.com/nats-io/nats.go"
)

// A finished record holds the messages the call published, whole: its
// result and audit record, most of the record's bytes. encoding/json would
// scan each of them again to compact it (a json.RawMessage is re-checked
// on every Marshal) although storeOuts has just checked that each is valid
// JSON; so the outputs are appended as they are, and only the small
// fields around them go through encoding/json. The bytes are those
// json.Marshal gives for a Record whenever the outputs are compact JSON
// without <, > or & (as json.Marshal writes them); otherwise they differ
// only in that whitespace and those characters are kept, the same JSON.

// storedOutHead and storedOutTail are StoredOut's fields before and after
// Data, in its order.
type storedOutHead struct {
	Subject string `json:"subject"`
	ID      string `json:"id,omitempty"`
}

type storedOutTail struct {
	Header       nats.Header `json:"header,omitempty"`
	StampTraceID bool        `json:"stamp_trace_id,omitempty"`
}

// appendOutputs adds the outputs field to rec, a record encoded without
// it (so ending in its closing brace). Every output's Data must be valid
// JSON (storeOuts).
func appendOutputs(rec []byte, outs []StoredOut) []byte {
	size := len(rec) + len(`,"outputs":[]`)
	for _, o := range outs {
		size += len(o.Data) + len(o.Subject) + len(o.ID) + 64
	}
	b := make([]byte, 0, size)
	b = append(b, rec[:len(rec)-1]...)
	if len(rec) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"outputs":[`...)
	for i, o := range outs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStoredOut(b, o)
	}
	return append(b, "]}"...)
}

func appendStoredOut(b []byte, o StoredOut) []byte {
	head, _ := json.Marshal(storedOutHead{Subject: o.Subject, ID: o.ID})
	b = append(b, head[:len(head)-1]...)
	b = append(b, `,"data":`...)
	if len(o.Data) == 0 {
		b = append(b, "null"...) // what json.Marshal writes for an empty RawMessage
	} else {
		b = append(b, o.Data...)
	}
	tail, _ := json.Marshal(storedOutTail{Header: o.Header, StampTraceID: o.StampTraceID})
	if len(tail) > 2 {
		b = append(b, ',')
	}
	return append(b, tail[1:]...)
}

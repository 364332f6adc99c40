package resolve

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// TestResolveFromContext: required values the intent lacks are read from
// the text around its marker and the last user message, by the rules that
// read values written for a parameter; leftovers there fill nothing.
func TestResolveFromContext(t *testing.T) {
	tests := []struct {
		name   string
		m      schemas.Manifest
		in     schemas.Intent
		want   map[string]any
		absent bool // want a *MissingError
	}{
		{"place before the marker", laws, schemas.Intent{Text: "labor laws", ContextBefore: "The user works in Portugal."},
			map[string]any{"country": "Portugal"}, false},
		{"identifier after the marker", platform, schemas.Intent{Text: "platform capacity", ContextAfter: "That is the platform with ID 61."},
			map[string]any{"platform_id": int64(61)}, false},
		{"last user message", rooms, schemas.Intent{Text: "find rooms in Lisbon", Conversation: []schemas.Message{
			{Role: "user", Content: "I arrive on May 1, 2025"}, {Role: "assistant", Content: "ok"},
			{Role: "user", Content: "I need a room from June 3, 2025 to June 9, 2025."}}},
			map[string]any{"location": "Lisbon", "check_in_date": "2025-06-03", "check_out_date": "2025-06-09"}, false},
		{"the intent's own value wins", laws, schemas.Intent{Text: "labor laws in Japan", ContextBefore: "I live in Portugal."},
			map[string]any{"country": "Japan"}, false},
		{"optional values stay unread", laws, schemas.Intent{Text: "labor laws in Japan", ContextBefore: "Answer in Spanish."},
			map[string]any{"country": "Japan"}, false},
		{"no guesses from context", optimism, schemas.Intent{Text: "optimism score", ContextBefore: "Alex Johnson wrote to me."},
			nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := routed(tt.in.Text)
			tt.in.ID = r.Intent.ID
			r.Intent = tt.in
			call, err := Resolve(context.Background(), r, tt.m)
			if tt.absent {
				var me *MissingError
				if !errors.As(err, &me) {
					t.Fatalf("err = %v (call %v), want *MissingError", err, call.Parameters)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(call.Parameters, tt.want) {
				t.Fatalf("parameters\n got %#v\nwant %#v", call.Parameters, tt.want)
			}
		})
	}
}

package resolve

import (
	"context"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// resolveCase is one row of the table-driven resolution tests.
type resolveCase struct {
	name string
	m    schemas.Manifest
	text string
	want map[string]any // nil: the text must not resolve
}

func checkResolveCases(t *testing.T, tests []resolveCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, err := Resolve(context.Background(), routed(tt.text), tt.m)
			if tt.want == nil {
				if err == nil {
					t.Fatalf("Resolve(%q) = %v, want an error", tt.text, call.Parameters)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(call.Parameters, tt.want) {
				t.Fatalf("Resolve(%q) parameters\n got %#v\nwant %#v", tt.text, call.Parameters, tt.want)
			}
		})
	}
}

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

// M is the arguments a case wants placed, written short in the tables.
type M = map[string]any

// guessCase is a request and the arguments the rules should place for it
// on tool m (guessed: every rule, no defaults, no validation).
type guessCase struct {
	name string // may be empty: the subtest is then named by text alone
	m    schemas.Manifest
	text string
	want map[string]any
}

// checkGuesses runs each case as a subtest and compares what guessed
// places with want.
func checkGuesses(t *testing.T, cases []guessCase) {
	t.Helper()
	for _, tc := range cases {
		name := tc.text
		if tc.name != "" {
			name = tc.name + "/" + tc.text
		}
		t.Run(name, func(t *testing.T) {
			if got := guessed(t, tc.m, tc.text); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%q: got %#v, want %#v", tc.text, got, tc.want)
			}
		})
	}
}

// textCase is a request to a tool given apart, and the arguments wanted.
type textCase struct {
	text string
	want map[string]any
}

// checkGuessesOn runs each case as a subtest on tool m and compares what
// guessed places with want, looking only at the parameters in keep (all
// of them when keep is empty).
func checkGuessesOn(t *testing.T, m schemas.Manifest, keep []string, cases []textCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			got := guessed(t, m, tc.text)
			if len(keep) > 0 {
				kept := map[string]any{}
				for _, k := range keep {
					if v, ok := got[k]; ok {
						kept[k] = v
					}
				}
				got = kept
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%q: got %#v, want %#v", tc.text, got, tc.want)
			}
		})
	}
}

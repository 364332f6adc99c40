package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestMatchToolIDs(t *testing.T) {
	var all []schemas.Manifest
	for _, id := range []string{"github/create_issue", "github/list_issues", "github/merge", "metatool/a", "metatool/b", "ops/ping"} {
		all = append(all, schemas.Manifest{ID: id})
	}
	tests := []struct {
		args     []string
		want     []string
		patterns bool
		err      string
	}{
		{[]string{"ops/ping"}, []string{"ops/ping"}, false, ""},
		{[]string{"ops/missing"}, nil, false, "not registered: ops/missing"},
		// One argument matching nothing removes nothing, not the others.
		{[]string{"ops/ping", "ops/missing"}, nil, false, "not registered: ops/missing"},
		{[]string{"metatool/", "nothing/"}, nil, false, `"nothing/" matches no tool`},
		{[]string{"metatool/"}, []string{"metatool/a", "metatool/b"}, true, ""},
		{[]string{"github/*issue*", "ops/ping"}, []string{"github/create_issue", "github/list_issues", "ops/ping"}, true, ""},
		{[]string{"metatool/", "metatool/a"}, []string{"metatool/a", "metatool/b"}, true, ""},
		{[]string{"nothing/"}, nil, false, "matches no tool"},
		{[]string{"gith[ub/*"}, nil, false, "syntax error"},
	}
	for _, tt := range tests {
		got, patterns, err := matchToolIDs(all, tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) || patterns != tt.patterns {
			t.Errorf("%v: %v %v %v, want %v %v", tt.args, got, patterns, err, tt.want, tt.patterns)
		}
	}
}

// tools add is told apart from tools import's inputs: a JSON array or
// several JSON values are many manifests.
func TestManyManifests(t *testing.T) {
	tests := []struct {
		in   string
		many bool
	}{
		{`{"id": "a/b", "description": "one"}`, false},
		{"{\"id\": \"a/b\"}\n{\"id\": \"a/c\"}\n", true},
		{`[{"id": "a/b", "description": "one"}]`, true},
		{` [] `, true},
		{`{"id": "a/b"`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := manyManifests([]byte(tt.in)); got != tt.many {
			t.Errorf("manyManifests(%q) = %v, want %v", tt.in, got, tt.many)
		}
	}
}

package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestMatchToolIDs(t *testing.T) {
	var all []schemas.Manifest
	for _, id := range []string{"github/create_issue", "github/list_issues", "github/merge", "metatool/a", "metatool/b", "ops/ping", "toolyard/shadowed"} {
		all = append(all, schemas.Manifest{ID: id})
	}
	builtin := []string{"toolyard/help", "toolyard/search", "toolyard/shadowed"}
	tests := []struct {
		args     []string
		want     []string
		skipped  []string
		patterns bool
		err      string
	}{
		{[]string{"ops/ping"}, []string{"ops/ping"}, nil, false, ""},
		{[]string{"ops/missing"}, nil, nil, false, "not registered: ops/missing"},
		// One argument matching nothing removes nothing, not the others.
		{[]string{"ops/ping", "ops/missing"}, nil, nil, false, "not registered: ops/missing"},
		{[]string{"metatool/", "nothing/"}, nil, nil, false, `"nothing/" matches no tool`},
		{[]string{"metatool/"}, []string{"metatool/a", "metatool/b"}, nil, true, ""},
		{[]string{"github/*issue*", "ops/ping"}, []string{"github/create_issue", "github/list_issues", "ops/ping"}, nil, true, ""},
		{[]string{"metatool/", "metatool/a"}, []string{"metatool/a", "metatool/b"}, nil, true, ""},
		{[]string{"nothing/"}, nil, nil, false, "matches no tool"},
		{[]string{"gith[ub/*"}, nil, nil, false, "syntax error"},
		// Built-in tools are no registry's to remove: named, they are
		// refused as such (it said "not registered"); matched, skipped.
		{[]string{"toolyard/help"}, nil, nil, false, "toolyard/help is a built-in tool: built-in tools are part of every worker, not of the registry, and cannot be removed"},
		{[]string{"ops/ping", "toolyard/help"}, nil, nil, false, "toolyard/help is a built-in tool"},
		{[]string{"toolyard/"}, []string{"toolyard/shadowed"}, []string{"toolyard/help", "toolyard/search"}, true, ""},
		{[]string{"*/*"}, []string{"github/create_issue", "github/list_issues", "github/merge", "metatool/a", "metatool/b", "ops/ping", "toolyard/shadowed"},
			[]string{"toolyard/help", "toolyard/search"}, true, ""},
		{[]string{"toolyard/[hs]e*"}, nil, nil, false, `"toolyard/[hs]e*" matches only built-in tools (toolyard/help, toolyard/search), which cannot be removed`},
		// A registry tool under a builtin's id is the registry's.
		{[]string{"toolyard/shadowed"}, []string{"toolyard/shadowed"}, nil, false, ""},
	}
	for _, tt := range tests {
		got, skipped, patterns, err := matchToolIDs(all, builtin, tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) || !slices.Equal(skipped, tt.skipped) || patterns != tt.patterns {
			t.Errorf("%v: %v skipped %v %v %v, want %v skipped %v %v", tt.args, got, skipped, patterns, err, tt.want, tt.skipped, tt.patterns)
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

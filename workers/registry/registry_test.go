package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestReadFormats(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantIDs []string
		wantErr string
	}{
		{"jsonl", "{\"id\":\"a\",\"description\":\"x\"}\n\n{\"id\":\"b\",\"description\":\"y\"}\n", []string{"a", "b"}, ""},
		{"array", `[{"id":"a","description":"x"},{"id":"b","description":"y"}]`, []string{"a", "b"}, ""},
		{"empty", "  \n", nil, ""},
		{"missing description", `{"id":"a"}`, nil, "line 1"},
		{"duplicate", "{\"id\":\"a\",\"description\":\"x\"}\n{\"id\":\"a\",\"description\":\"y\"}", nil, `tool id "a" already defined at line 1`},
		{"bad parameter schema", `[{"id":"a","description":"x","parameters":{"type":"object","properties":{"n":{"type":"nope"}}}}]`, nil, "element 0"},
		{"parameters not an object schema", `{"id":"a","description":"x","parameters":{"type":"string"}}`, nil, "line 1"},
		{"not json", "{id", nil, "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := Read(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, m := range ms {
				ids = append(ids, m.ID)
				if m.Name != m.ID {
					t.Errorf("name defaults to id: got %q", m.Name)
				}
			}
			if strings.Join(ids, ",") != strings.Join(tt.wantIDs, ",") {
				t.Fatalf("ids = %v, want %v", ids, tt.wantIDs)
			}
		})
	}
}

func TestLoadBenchRegistries(t *testing.T) {
	for _, p := range []string{"metatool/tools.jsonl", "sealtools/tools.jsonl"} {
		path := filepath.Join("..", "..", "..", "shared", "bench", p)
		if _, err := os.Stat(path); err != nil {
			t.Logf("bench data %s not present; checked the contract on inline data only", path)
			continue
		}
		ms, err := LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) < 100 {
			t.Fatalf("%s: only %d tools", p, len(ms))
		}
	}
}

func TestGenerationMovesOnEveryChange(t *testing.T) {
	a := schemas.Manifest{ID: "t/a", Name: "A", Description: "x"}
	r := New(a)
	steps := []struct {
		name   string
		change func()
		moves  bool
	}{
		{"nothing", func() {}, false},
		{"read", func() { r.Get("t/a"); r.All() }, false},
		{"add", func() { r.Put(schemas.Manifest{ID: "t/b", Name: "B", Description: "x"}) }, true},
		{"replace with the same manifest", func() { r.Put(a) }, true},
		{"remove", func() { r.Remove("t/b") }, true},
		{"remove what is not there", func() { r.Remove("t/b") }, false},
	}
	for _, s := range steps {
		before := r.Generation()
		s.change()
		if moved := r.Generation() != before; moved != s.moves {
			t.Errorf("%s: generation moved = %v, want %v", s.name, moved, s.moves)
		}
	}
}

package resolve

import (
	"context"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
)

// TestSampleFirstExamples resolves the first example of every sample tool:
// the examples are what discovery is tuned on, so they should also resolve.
func TestSampleFirstExamples(t *testing.T) {
	want := map[string]map[string]any{
		"system/disk_usage":        {"path": "/tmp"},
		"system/disk_free":         {},
		"files/list_directory":     {"path": "/etc"},
		"files/count_lines":        {"path": "/etc/passwd"},
		"files/checksum":           {"path": "/etc/passwd", "algorithm": "md5"},
		"files/file_info":          {"path": "/etc/hosts"},
		"files/head":               {"path": "/etc/passwd", "lines": int64(20)},
		"files/tail":               {"path": "/etc/passwd", "lines": int64(5)},
		"files/find":               {"path": "/etc", "name": "*.conf", "max_depth": int64(1)},
		"system/uptime":            {},
		"system/current_time":      {"format": "%Y-%m-%d %H:%M:%S %Z"},
		"system/kernel_info":       {},
		"system/memory_usage":      {},
		"system/process_list":      {},
		"system/cpu_info":          {},
		"system/whoami":            {},
		"text/word_count":          {"text": "the quick brown fox jumps over the lazy dog"},
		"net/resolve_host":         {"host": "localhost"},
		"maps/google_maps_scraper": {"query": "tech companies", "limit": int64(50), "language": "en"},
		"email/send":               {"to": []any{"ana@example.com"}, "subject": "Lunch", "body": "Are we still on for noon?"},
		"weather/forecast":         {"location": "Paris", "days": int64(5), "units": "metric"},
		"calendar/create_event":    {"title": "Team sync", "start": "2025-06-02T10:00:00+02:00", "duration_minutes": int64(45)},
		"crm/lookup_contact":       {"query": "Jane Doe at Acme", "limit": int64(10)},
		"github/create_issue":      {"repo": "toolyard/toolyard", "title": "Crash on empty registry", "labels": []any{"bug", "p1"}},
		"slack/post_message":       {"channel": "#ops", "text": "deploy finished"},
		"web/search":               {"query": "nats jetstream work queue", "num_results": int64(5)},
		"translate/text":           {"text": "good morning", "target_language": "de"},
	}
	tools, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tools {
		t.Run(m.ID, func(t *testing.T) {
			args, ok := want[m.ID]
			if !ok {
				t.Fatalf("no expected arguments for sample tool %s: add its first example's", m.ID)
			}
			if len(m.Examples) == 0 {
				t.Fatal("sample tool has no examples")
			}
			call, err := Resolve(context.Background(), routed(m.Examples[0]), m)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", m.Examples[0], err)
			}
			if !reflect.DeepEqual(call.Parameters, args) {
				t.Fatalf("Resolve(%q)\n got %#v\nwant %#v", m.Examples[0], call.Parameters, args)
			}
		})
	}
}

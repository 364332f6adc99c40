package resolve

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/schemas"
)

func sampleTool(t *testing.T, id string) schemas.Manifest {
	t.Helper()
	tools, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tools {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("no sample tool %s", id)
	return schemas.Manifest{}
}

// TestUnmapped: values a request states that no argument took are
// reported, with the parameter that would take them; ordinary phrasing
// reports nothing.
func TestUnmapped(t *testing.T) {
	tests := []struct {
		tool string
		text string
		want []schemas.Unmapped
	}{
		// Nothing unmapped: every value placed, the rest is phrasing.
		{"system/disk_usage", "show me the disk usage of /tmp", nil},
		{"system/disk_usage", "How big is /var/cache right now?", nil},
		{"files/head", "Show me the first 10 lines of /etc/passwd", nil},
		{"files/checksum", "sha256 of /usr/bin/env", nil},
		{"files/find", "find files named *.log under /var/log", nil},
		{"system/current_time", "what time is it in Lisbon", nil},
		{"system/current_time", "What time is it?", nil},
		{"weather/forecast", "weather in Oslo for 4 days", nil},
		{"system/uptime", "How long has the machine been up?", nil},
		{"text/word_count", "count the words in 'all is well that ends well'", nil},
		{"web/search", "search the web for Go generics tutorials", nil},
		{"files/list_directory", "ls /opt", nil},
		// An option the tool's own text writes is what it does.
		{"files/list_directory", "ls -la /opt", nil},
		{"files/count_lines", "wc -l /srv/a.txt", nil},
		{"system/disk_free", "df -h /srv", nil},
		{"net/resolve_host", "resolve example.org", nil},
		{"files/find", "locate files matching name=*.log under /var/log", nil},
		{"files/find", "files called something in /srv", nil},
		{"files/find", "find files named notes.txt in /srv", nil},
		{"files/find", "find all the files under /srv", nil},
		{"files/find", "find files and directories under /srv", nil},
		{"files/find", "Find files in /srv", nil},
		{"system/process_list", "show the running processes", nil},
		{"files/list_directory", "list the hidden files in /srv", nil},
		{"files/checksum", "sha256 of /srv/a.iso", nil},
		{"github/create_issue", "create an issue in acme/widgets titled Crash, for the recent issues", nil}, // labels is no filter
		// Unmapped, with the parameter that would take the value.
		{"system/current_time", "what time is it in Atlantis", []schemas.Unmapped{{Text: "Atlantis", Parameter: "timezone"}}},
		{"system/current_time", "what time is it in CST", []schemas.Unmapped{{Text: "CST", Parameter: "timezone"}}}, // US Central or China
		{"files/find", "find files called invoices under /srv", []schemas.Unmapped{{Text: "invoices", Parameter: "name"}}},
		{"files/find", `look in /srv for files matching "draft"`, []schemas.Unmapped{{Text: "draft", Parameter: "name"}}},
		{"files/find", "find the yaml files under /srv", []schemas.Unmapped{{Text: "yaml", Parameter: "name"}}},
		{"files/find", "find empty files in /srv, 2 levels deep", []schemas.Unmapped{{Text: "empty", Parameter: "name"}}},
		{"system/current_time", "the time in Oslo in 24h format", []schemas.Unmapped{{Text: "24h", Parameter: "format"}}},
		{"system/uptime", "uptime, refreshed every 5s", []schemas.Unmapped{{Text: "5s"}}},
		{"files/find", "find files bigger than 10MB in /srv", []schemas.Unmapped{{Text: "10MB"}}}, // a size is no pattern of names
		{"files/list_directory", "list /srv sorted by size", []schemas.Unmapped{{Text: "sorted by size"}}},
		// Another option changes what runs: said, never guessed a taker.
		{"files/checksum", "sha256sum --check /srv/a.iso", []schemas.Unmapped{{Text: "--check"}}},
		{"files/count_lines", "wc -l -w /srv/a.txt", []schemas.Unmapped{{Text: "-w"}}},
		{"files/find", "find files modified today in /srv", []schemas.Unmapped{{Text: "modified today"}}},
		{"files/list_directory", "ls /srv from 2024-01-02", []schemas.Unmapped{{Text: "2024-01-02"}}}, // a date no parameter takes
		// A day of a month without its year is a date too: its number is
		// no count of days (it had run with days=20, over the maximum).
		{"weather/forecast", "weather in Nice on December 20", []schemas.Unmapped{{Text: "December 20"}}},
		{"weather/forecast", "forecast for Lyon 3 March", []schemas.Unmapped{{Text: "3 March"}}},
		{"system/current_time", "what's the date today", nil}, // no filter: today is when
		{"files/find", "find the files under /srv changed since last week", []schemas.Unmapped{{Text: "changed since last week"}}},
		{"files/find", "find *.log files in /srv, ordered by date", []schemas.Unmapped{{Text: "ordered by date"}}}, // an order is no pattern of names
		// A repetition for a tool that makes one event: it runs once, and says so.
		{"calendar/create_event", "schedule standup every day at 9", []schemas.Unmapped{{Text: "every day"}}},
		{"calendar/create_event", "book the team retro each Friday at 4pm", []schemas.Unmapped{{Text: "each Friday"}}},
		// Unmapped, and the tool takes no such value.
		{"system/uptime", "uptime of the host Hermes", []schemas.Unmapped{{Text: "Hermes"}}},
		{"system/uptime", "system/uptime on the host Hermes", []schemas.Unmapped{{Text: "Hermes"}}},
		{"system/current_time", "system/current_time in Atlantis or Lemuria", []schemas.Unmapped{{Text: "Atlantis", Parameter: "timezone"}, {Text: "Lemuria", Parameter: "timezone"}}},
		{"system/process_list", "list the top 5 processes", []schemas.Unmapped{{Text: "5"}}},
		{"system/process_list", "the top 3 processes by cpu", []schemas.Unmapped{{Text: "3"}, {Text: "by cpu"}}},
		{"system/process_list", "which processes use the most memory", []schemas.Unmapped{{Text: "most memory"}}},
		{"files/list_directory", "list /srv, largest first by size", []schemas.Unmapped{{Text: "by size"}}},
		{"system/process_list", "processes started by root", []schemas.Unmapped{{Text: "root"}}}, // by whom, not an order; a filter the tool has no parameter for
		{"system/whoami", "who am I on https://example.com", []schemas.Unmapped{{Text: "https://example.com"}}},
		{"system/kernel_info", "kernel version, mode=verbose", []schemas.Unmapped{{Text: "mode=verbose"}}},
		{"system/uptime", "uptime of web-3 in eu-west-1", []schemas.Unmapped{{Text: "web-3"}, {Text: "eu-west-1"}}}, // codes as machines name things
		// A second value for a parameter that took one: the call runs
		// with the first, and the tool is named to ask again.
		{"files/checksum", "sha256 of /srv/a.iso and /srv/b.iso", []schemas.Unmapped{{Text: "/srv/b.iso", Parameter: "path", Tool: "files/checksum"}}},
		{"files/count_lines", "count the lines of /srv/a.txt, /srv/b.txt", []schemas.Unmapped{{Text: "/srv/b.txt", Parameter: "path", Tool: "files/count_lines"}}},
		{"net/resolve_host", "resolve example.org and example.net", []schemas.Unmapped{{Text: "example.net", Parameter: "host", Tool: "net/resolve_host"}}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			call, err := Resolve(context.Background(), routed(tt.text), sampleTool(t, tt.tool))
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(call.Unmapped, tt.want) {
				t.Fatalf("Resolve(%q) unmapped = %+v, want %+v (arguments %v)", tt.text, call.Unmapped, tt.want, call.Parameters)
			}
		})
	}
}

// TestSampleExamplesLeaveNothingUnmapped: the sample tools' own examples
// are plain requests; none states a value its tool leaves unused.
func TestSampleExamplesLeaveNothingUnmapped(t *testing.T) {
	tools, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tools {
		for _, ex := range m.Examples {
			call, err := Resolve(context.Background(), routed(ex), m)
			if err == nil && len(call.Unmapped) > 0 {
				t.Errorf("%s %q: unmapped %+v (arguments %v)", m.ID, ex, call.Unmapped, call.Parameters)
			}
		}
	}
}

// TestUnmappedMessage: the corrective answer names the words, the
// parameter and a call that would resolve.
func TestUnmappedMessage(t *testing.T) {
	m := sampleTool(t, "system/current_time")
	call, err := Resolve(context.Background(), routed("what time is it in Atlantis"), m)
	if err != nil {
		t.Fatal(err)
	}
	if got := Unplaced(call); len(got) != 1 {
		t.Fatalf("Unplaced = %v, want Atlantis", got)
	}
	res := UnmappedResult("resolve", call, m, call.Parameters)
	if res.Status != schemas.StatusMissingArguments || res.ToolID != m.ID || len(res.Unmapped) != 1 {
		t.Fatalf("result %+v", res)
	}
	for _, want := range []string{`"Atlantis"`, "timezone", "IANA time zone", "[TOOL: system/current_time timezone="} {
		if !strings.Contains(res.Message, want) {
			t.Errorf("message %q lacks %q", res.Message, want)
		}
	}
	if strings.Count(res.Message, "timezone=") != 1 {
		t.Errorf("message %q does not suggest timezone once", res.Message)
	}
	if strings.Contains(res.Message, "format=") {
		t.Errorf("message %q suggests the default format, which the intent did not give", res.Message)
	}
	ok, err := Resolve(context.Background(), routed("what time is it in Tokyo"), m)
	if err != nil || len(Unplaced(ok)) != 0 {
		t.Fatalf("a mapped city is unplaced: %v %v", ok.Unmapped, err)
	}
}

// TestUnmappedNamesOtherTools: a request that names another offered tool
// asked for more than the chosen tool does; the name is reported, with no
// parameter to take it.
func TestUnmappedNamesOtherTools(t *testing.T) {
	cands := []schemas.Candidate{{ToolID: "system/kernel_info"}, {ToolID: "system/uptime"}, {ToolID: "system/whoami", Name: "Current user"},
		{ToolID: "toolyard/help"}, {ToolID: "toolyard/load"}, {ToolID: "toolyard/execute"}}
	tests := []struct {
		tool, text string
		want       []schemas.Unmapped
	}{
		{"system/kernel_info", "kernel version and uptime", []schemas.Unmapped{{Text: "uptime", Tool: "system/uptime"}}},
		{"system/kernel_info", "kernel version, then whoami", []schemas.Unmapped{{Text: "whoami", Tool: "system/whoami"}}},
		{"system/uptime", "how long has the system been up", nil},
		{"system/uptime", "uptime of this kernel", nil},                               // "kernel" is no one-word name: kernel_info's is two
		{"system/uptime", "please execute the uptime check and help me load it", nil}, // request words, though meta tools' names
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			r := routed(tt.text)
			r.Candidates = cands
			call, err := Resolve(context.Background(), r, sampleTool(t, tt.tool))
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(call.Unmapped, tt.want) {
				t.Fatalf("Resolve(%q) unmapped = %+v, want %+v", tt.text, call.Unmapped, tt.want)
			}
		})
	}
}

// An order or a time filter asked for goes to a parameter named for it
// when the tool has one, and to no other: the call then does not run
// without it.
func TestUnmappedToItsKind(t *testing.T) {
	m := manifest("p/list", "list_items", `{"type":"object","properties":{"filter":{"type":"string"},"order":{"type":"string"},"modified_since":{"type":"string"}}}`)
	for _, c := range []struct {
		text string
		want []schemas.Unmapped
	}{
		{"list the items sorted by size", []schemas.Unmapped{{Text: "sorted by size", Parameter: "order"}}},
		{"list the items modified this weekend", []schemas.Unmapped{{Text: "modified this weekend", Parameter: "modified_since"}}},
	} {
		call, err := Resolve(context.Background(), routed(c.text), m)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(call.Unmapped, c.want) {
			t.Errorf("%q: unmapped %+v, want %+v (arguments %v)", c.text, call.Unmapped, c.want, call.Parameters)
		}
	}
}

// TestUnmappedLeftoverWords: a plain word a request states that no rule
// placed is reported, without a parameter (a guess too weak to hold the
// call back), even when a parameter of plain text is free; the request's
// own framing reports nothing.
func TestUnmappedLeftoverWords(t *testing.T) {
	coin := schemas.Manifest{ID: "t/coin", Name: "Flip coin", Description: "Flip a coin: heads or tails.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}
	kettle := schemas.Manifest{ID: "t/kettle", Name: "Kettle", Description: "Boil water in the kettle.", Parameters: json.RawMessage(`{"type":"object","properties":{
		"temperature":{"type":"integer"},"cup":{"type":"string","description":"Which cup to fill"}}}`)}
	checkUnmapped(t, []unmappedCase{
		{coin, "flip a coin for the tournament", []schemas.Unmapped{{Text: "tournament"}}},
		{coin, "flip a coin, loser buys lunch", []schemas.Unmapped{{Text: "loser buys lunch"}}},
		{kettle, "boil the kettle to 80 degrees for the green tea", []schemas.Unmapped{{Text: "green tea"}}},
		// Framing only: nothing to report.
		{coin, "flip a coin please", nil},
		{coin, "could you flip this coin again quickly", nil},
		{kettle, "boil the kettle to 80 degrees", nil},
	})
}

// TestUnmappedShares: a share of an amount the request does not write
// ("half of order 77") holds the call back for the number parameter,
// never runs as the whole; a share of a time is no amount.
func TestUnmappedShares(t *testing.T) {
	refund := manifest("t/refund", "Refund order", `{"type":"object","required":["order"],"properties":{
		"order":{"type":"string","description":"Order number"},"amount":{"type":"number","description":"Amount to refund; the whole order by default"}}}`)
	tests := []struct {
		text string
		held []schemas.Unmapped // what holds the call back
	}{
		{"refund half of order 77", []schemas.Unmapped{{Text: "half", Parameter: "amount"}}},
		{"refund a third of the total of order 77", []schemas.Unmapped{{Text: "third", Parameter: "amount"}}},
		{"refund order 77", nil},
		{"refund order 77 from the first half of the year", nil},
	}
	for _, tt := range tests {
		call, err := Resolve(context.Background(), routed(tt.text), refund)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", tt.text, err)
		}
		if held := Unplaced(call); !reflect.DeepEqual(held, tt.held) {
			t.Errorf("Resolve(%q) holds the call for %+v, want %+v", tt.text, held, tt.held)
		}
	}
}

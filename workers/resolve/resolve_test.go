package resolve

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func manifest(id, name, params string) schemas.Manifest {
	return schemas.Manifest{ID: id, Name: name, Description: "test tool", Parameters: json.RawMessage(params)}
}

func routed(text string) schemas.Routed {
	return schemas.Routed{
		Intent: schemas.Intent{ID: "i-1", SessionID: "s-1", MessageID: "m-1", Text: text},
		Tier:   schemas.TierActivated,
	}
}

var (
	scraper = manifest("maps/google_maps_scraper", "Google Maps Scraper", `{"type":"object","required":["query"],"properties":{
		"query":{"type":"string","description":"What to search for"},
		"location":{"type":"string"},
		"limit":{"type":"integer","minimum":1,"maximum":500,"default":20},
		"max_results":{"type":"integer"},
		"verbose":{"type":"boolean"},
		"tags":{"type":"array","items":{"type":"string"}},
		"ratio":{"type":"number"}}}`)
	diskUsage = manifest("system/disk_usage", "Disk usage", `{"type":"object","required":["path"],"properties":{
		"path":{"type":"string","description":"Directory to measure","examples":["/tmp"]}}}`)
	checksum = manifest("files/checksum", "File checksum", `{"type":"object","required":["path"],"properties":{
		"path":{"type":"string"},
		"algorithm":{"type":"string","enum":["md5","sha1","sha256"],"default":"sha256"}}}`)
	email = manifest("email/send", "Send email", `{"type":"object","required":["to","subject","body"],"properties":{
		"to":{"type":"array","items":{"type":"string"}},
		"subject":{"type":"string"},
		"body":{"type":"string"},
		"cc":{"type":"array","items":{"type":"string"}}}}`)
	fetch = manifest("web/fetch", "Fetch page", `{"type":"object","required":["url"],"properties":{
		"url":{"type":"string"},"timeout_seconds":{"type":"integer"}}}`)
	copyTool = manifest("files/copy", "Copy", `{"type":"object","required":["source","destination"],"properties":{
		"source":{"type":"string"},"destination":{"type":"string"}}}`)
	archive = manifest("files/archive", "Archive", `{"type":"object","required":["files"],"properties":{
		"files":{"type":"array","items":{"type":"string"}}}}`)
	weather = manifest("weather/forecast", "Weather forecast", `{"type":"object","required":["location"],"properties":{
		"location":{"type":"string","x-toolyard-freetext":true},
		"days":{"type":"integer","default":3},
		"units":{"type":"string","enum":["metric","imperial"],"default":"metric"}}}`)
	twoEnums = manifest("img/convert", "Convert image", `{"type":"object","properties":{
		"from":{"type":"string","enum":["png","jpg"]},"to":{"type":"string","enum":["png","webp"]}}}`)
	help = manifest("toolyard/help", "Help", `{"type":"object","properties":{
		"item_id":{"type":"string","x-toolyard-freetext":true}}}`)
	translate = manifest("translate/text", "Translate", `{"type":"object","required":["text","target_language"],"properties":{
		"text":{"type":"string"},"target_language":{"type":"string"}}}`)
	event = manifest("calendar/create_event", "Create event", `{"type":"object","required":["title"],"properties":{
		"title":{"type":"string"},"duration_minutes":{"type":"integer","default":30},"maxAttendees":{"type":"integer"}}}`)
	noParams = manifest("system/uptime", "Uptime", ``)
)

func TestResolveRules(t *testing.T) {
	tests := []resolveCase{
		// Rule 1: key/value pairs.
		{"key=value", diskUsage, "disk usage path=/var/log", map[string]any{"path": "/var/log"}},
		{"key: value", diskUsage, "disk usage path: /var/log", map[string]any{"path": "/var/log"}},
		{"double quoted", diskUsage, `disk usage path="/my dir"`, map[string]any{"path": "/my dir"}},
		{"single quoted", diskUsage, `disk usage path='/my dir'`, map[string]any{"path": "/my dir"}},
		{"key case-insensitive", diskUsage, "disk usage PATH=/x", map[string]any{"path": "/x"}},
		{"dash variant", scraper, "scrape query=x max-results=5", map[string]any{"query": "x", "max_results": int64(5), "limit": int64(20)}},
		{"camel variant", scraper, "scrape query=x maxResults=5", map[string]any{"query": "x", "max_results": int64(5), "limit": int64(20)}},
		{"spaced colon key", scraper, "scrape query=x max results: 5", map[string]any{"query": "x", "max_results": int64(5), "limit": int64(20)}},
		{"thousands separator", scraper, "scrape query=x limit=1,000", nil}, // over maximum: see errors test
		{"number with separator", scraper, "scrape query=x ratio=1,234.5", map[string]any{"query": "x", "ratio": 1234.5, "limit": int64(20)}},
		{"boolean yes", scraper, "scrape query=x verbose=yes", map[string]any{"query": "x", "verbose": true, "limit": int64(20)}},
		{"boolean off", scraper, "scrape query=x verbose: off", map[string]any{"query": "x", "verbose": false, "limit": int64(20)}},
		{"comma list", scraper, "scrape query=x tags=a,b,c", map[string]any{"query": "x", "tags": []any{"a", "b", "c"}, "limit": int64(20)}},
		{"repeated array key accumulates", scraper, "scrape query=x tags=a tags=b", map[string]any{"query": "x", "tags": []any{"a", "b"}, "limit": int64(20)}},
		{"repeated scalar key: last wins", scraper, "scrape query=x limit=5 limit=7", map[string]any{"query": "x", "limit": int64(7)}},
		{"enum by name", checksum, "checksum path=/etc/hosts algorithm=MD5", map[string]any{"path": "/etc/hosts", "algorithm": "md5"}},
		{"unknown key left alone", diskUsage, "disk usage path=/x colour=red", map[string]any{"path": "/x"}},
		// Rule 2: cues.
		{"cue", scraper, "scrape query=x limit 50", map[string]any{"query": "x", "limit": int64(50)}},
		{"cue with connector", scraper, "scrape query=x with a limit of 50", map[string]any{"query": "x", "limit": int64(50)}},
		{"cue past too many connectors", scraper, "scrape query=x limit of of of 5", map[string]any{"query": "x", "limit": int64(20)}},
		{"cue multi-word name", scraper, "scrape query=x max results 5", map[string]any{"query": "x", "max_results": int64(5), "limit": int64(20)}},
		{"reverse number cue", weather, "forecast for Paris for 5 days", map[string]any{"location": "Paris", "days": int64(5), "units": "metric"}},
		{"first-word number cue", event, "event title=Sync duration 45", map[string]any{"title": "Sync", "duration_minutes": int64(45)}},
		{"string cue takes a value-like word", scraper, "scrape query=x location Berlin-Mitte/10115", map[string]any{"query": "x", "location": "Berlin-Mitte/10115", "limit": int64(20)}},
		{"string cue takes capitalised run", scraper, "scrape query=x location New York, fast", map[string]any{"query": "x", "location": "New York", "limit": int64(20)}},
		{"string cue ignores prose", scraper, "scrape query=x near the location we talked about", map[string]any{"query": "x", "limit": int64(20)}},
		{"noun of noun ending the clause", scraper, "scrape query=x at the location of the office", map[string]any{"query": "x", "location": "office", "limit": int64(20)}},
		{"cue that does not coerce is ignored", scraper, "scrape query=x limit reached", map[string]any{"query": "x", "limit": int64(20)}},
		// Rule 3: quoted values.
		{"cued quoted", email, `mail to=a@x.io subject "Hi there" body "See you"`, map[string]any{"to": []any{"a@x.io"}, "subject": "Hi there", "body": "See you"}},
		{"bare quoted fills required strings in order", translate, `translate "good morning" target_language=de`, map[string]any{"text": "good morning", "target_language": "de"}},
		{"bare quoted single", diskUsage, `disk usage of '/my dir'`, map[string]any{"path": "/my dir"}},
		// Rule 4: shapes.
		{"path", diskUsage, "show disk usage of /var/log.", map[string]any{"path": "/var/log"}},
		{"relative and home paths", copyTool, "copy ./a.txt to ~/b.txt", map[string]any{"source": "./a.txt", "destination": "~/b.txt"}},
		{"paths accumulate into an array", archive, "archive /a /b ../c", map[string]any{"files": []any{"/a", "/b", "../c"}}},
		{"url", fetch, "fetch https://example.com/x?y=1 timeout seconds 5", map[string]any{"url": "https://example.com/x?y=1", "timeout_seconds": int64(5)}},
		{"email into array", email, `send to ana@example.com, subject: Hi, body: Yo`, map[string]any{"to": []any{"ana@example.com"}, "subject": "Hi", "body": "Yo"}},
		// Rule 5: enum words.
		{"enum word", checksum, "checksum of /etc/hosts with md5", map[string]any{"path": "/etc/hosts", "algorithm": "md5"}},
		{"enum word consumes its property name", weather, "weather in New York in imperial units", map[string]any{"location": "New York", "days": int64(3), "units": "imperial"}},
		{"enum word shared by two properties is ambiguous", twoEnums, "convert png", map[string]any{}},
		{"enum words unique to each property", twoEnums, "convert jpg webp", map[string]any{"from": "jpg", "to": "webp"}},
		// Rule 6: free text.
		{"free text by name", scraper, "run the google maps scraper for tech companies, limit 50", map[string]any{"query": "tech companies", "limit": int64(50)}},
		{"free text drops stemmed tool words", scraper, "scrape google maps for dentists limit=100", map[string]any{"query": "dentists", "limit": int64(100)}},
		{"free text marked", weather, "weather forecast for Paris", map[string]any{"location": "Paris", "days": int64(3), "units": "metric"}},
		{"free text optional marked when nothing is required", help, "help with files/checksum", map[string]any{"item_id": "files/checksum"}},
		{"free text empty leaves it unset", help, "help", map[string]any{}},
		{"explicit value beats free text", scraper, "google maps scraper for cafés query=bakeries", map[string]any{"query": "bakeries", "limit": int64(20)}},
		// Rule 7: defaults; no parameters at all.
		{"defaults", checksum, "checksum /etc/hosts", map[string]any{"path": "/etc/hosts", "algorithm": "sha256"}},
		{"no schema", noParams, "uptime please", map[string]any{}},
	}
	checkResolveCases(t, tests)
}

func TestResolveCall(t *testing.T) {
	r := routed("show disk usage of /tmp")
	r.Candidates = []schemas.Candidate{
		{ToolID: "system/disk_free", Confidence: 0.91},
		{ToolID: "system/disk_usage", Confidence: 0.88},
	}
	call, err := Resolve(context.Background(), r, diskUsage)
	if err != nil {
		t.Fatal(err)
	}
	want := schemas.ToolCall{
		V: schemas.Version, IntentID: "i-1", SessionID: "s-1", MessageID: "m-1",
		MetaTool: schemas.MetaExecute, ItemType: "tool", Action: "run", ToolID: "system/disk_usage",
		Parameters: map[string]any{"path": "/tmp"}, Confidence: 0.88, Intent: "show disk usage of /tmp",
	}
	if !reflect.DeepEqual(call, want) {
		t.Fatalf("call\n got %+v\nwant %+v", call, want)
	}
	if err := schemas.ValidateValue(schemas.KindToolCall, call); err != nil {
		t.Fatalf("call does not meet the tool_call contract: %v", err)
	}
}

func TestResolveConfidenceAndMetaTool(t *testing.T) {
	builtin := help
	builtin.Executor = &schemas.Executor{Kind: schemas.ExecBuiltin, Builtin: schemas.MetaHelp}
	builtin.Type = "meta"
	tests := []struct {
		name       string
		m          schemas.Manifest
		candidates []schemas.Candidate
		wantMeta   string
		wantType   string
		wantConf   float64
	}{
		{"top candidate", diskUsage, []schemas.Candidate{{ToolID: "x", Confidence: 0.9}}, schemas.MetaExecute, "tool", 0.9},
		{"no candidates", diskUsage, nil, schemas.MetaExecute, "tool", 0},
		{"builtin meta-tool is its own", builtin, []schemas.Candidate{{ToolID: "toolyard/help", Confidence: 0.97}}, schemas.MetaHelp, "meta", 0.97},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := routed("help /tmp")
			r.Candidates = tt.candidates
			call, err := Resolve(context.Background(), r, tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if call.MetaTool != tt.wantMeta || call.ItemType != tt.wantType || call.Confidence != tt.wantConf {
				t.Fatalf("meta %q type %q confidence %v, want %q %q %v", call.MetaTool, call.ItemType, call.Confidence, tt.wantMeta, tt.wantType, tt.wantConf)
			}
		})
	}
}

func TestResolveFailures(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Resolve(ctx, routed("x"), diskUsage); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: err = %v", err)
	}
	bad := manifest("bad/schema", "Bad", `{"type":"object","properties":{"n":{"type":"nope"}}}`)
	_, err := Resolve(context.Background(), routed("x"), bad)
	var me *MissingError
	var ie *InvalidError
	if err == nil || errors.As(err, &me) || errors.As(err, &ie) {
		t.Errorf("uncompilable schema: err = %v, want a plain error", err)
	}
}

// TestResolveSchemaChange: a manifest updated under the same id is not
// served from the old cached schema.
func TestResolveSchemaChange(t *testing.T) {
	m := manifest("cache/tool", "Cache", `{"type":"object","properties":{"n":{"type":"integer","default":1}}}`)
	call, err := Resolve(context.Background(), routed("go"), m)
	if err != nil || call.Parameters["n"] != int64(1) {
		t.Fatalf("first: %v %v", call.Parameters, err)
	}
	m.Parameters = json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","default":2}}}`)
	call, err = Resolve(context.Background(), routed("go"), m)
	if err != nil || call.Parameters["n"] != int64(2) {
		t.Fatalf("after update: %v %v", call.Parameters, err)
	}
}

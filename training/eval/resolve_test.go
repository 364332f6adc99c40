package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

func manifest(id, desc, params string) schemas.Manifest {
	return schemas.Manifest{ID: id, Name: id, Description: desc, Parameters: json.RawMessage(params)}
}

// TestResolution runs the real keyword discovery and the deterministic
// resolver over a small registry and checks every figure of the report
// against counts worked out by hand.
func TestResolution(t *testing.T) {
	tools := []schemas.Manifest{
		manifest("deletePharmacy", "Delete a pharmacy from the pharmacy registry",
			`{"type":"object","properties":{"pharmacy_id":{"type":"integer","description":"The pharmacy's ID"}},"required":["pharmacy_id"]}`),
		manifest("getWeather", "Get the weather forecast for a city",
			`{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string","enum":["metric","imperial"]}},"required":["city"]}`),
		manifest("translateText", "Translate text into another language",
			`{"type":"object","properties":{"text":{"type":"string"},"target_language":{"type":"string"}},"required":["text","target_language"]}`),
	}
	byID := map[string]schemas.Manifest{}
	for _, m := range tools {
		byID[m.ID] = m
	}
	engine, err := discover.New(tools, discover.WithMode(discover.ModeKeyword))
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	no := false
	qs := []Query{
		{ID: "q1", Query: "delete the pharmacy with pharmacy_id=87", GoldToolIDs: []string{"deletePharmacy"},
			GoldCalls: []GoldCall{{Tool: "deletePharmacy", Arguments: map[string]any{"pharmacy_id": "87"}}}},
		{ID: "q2", Query: "weather forecast city=Paris units=metric", GoldToolIDs: []string{"getWeather"},
			GoldCalls: []GoldCall{{Tool: "getWeather", Arguments: map[string]any{"city": "paris", "units": "imperial"}}}},
		// Two gold calls: routed, not resolved.
		{ID: "q3", Query: "weather in Paris and delete pharmacy 3", GoldToolIDs: []string{"getWeather", "deletePharmacy"},
			GoldCalls: []GoldCall{{Tool: "getWeather"}, {Tool: "deletePharmacy"}}},
		{ID: "q4", Query: "write me a haiku about autumn leaves", NeedsTool: &no},
	}
	var out bytes.Buffer
	cfg := ResolveConfig{Search: engine, Tools: byID, Resolve: resolve.Resolve, Thresholds: route.DefaultThresholds(), K: 5, Out: &out}
	rep, err := Resolution(context.Background(), cfg, qs)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Queries != 4 || rep.Calls != 2 || rep.Routed != 3 || rep.NoTool != 1 {
		t.Fatalf("counts: %+v", rep)
	}
	if rep.ToolAccuracy != 1 {
		t.Errorf("tool accuracy %v, want 1", rep.ToolAccuracy)
	}
	// q1 exact; q2 city right, units wrong.
	if want := (ArgCounts{TP: 2, FP: 1, FN: 1}); rep.Args != want {
		t.Errorf("args %+v, want %+v", rep.Args, want)
	}
	if rep.ArgExact != 0.5 || !near(rep.ArgF1, 2.0/3) {
		t.Errorf("exact %v F1 %v, want 0.5 and 2/3", rep.ArgExact, rep.ArgF1)
	}
	// Both gold arguments of q2 and the one of q1 got a value, one wrong.
	if rep.GoldArgs != 3 || rep.Filled != 3 || rep.FillRate != 1 {
		t.Errorf("fill: %d of %d (%v), want 3 of 3", rep.Filled, rep.GoldArgs, rep.FillRate)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4:\n%s", len(lines), out.String())
	}
	var l ResolveLine
	if err := json.Unmarshal([]byte(lines[0]), &l); err != nil {
		t.Fatal(err)
	}
	if l.ID != "q1" || l.ToolID != "deletePharmacy" || l.Arguments["pharmacy_id"] != 87.0 || l.Confidence <= 0 || l.Status == "" {
		t.Errorf("line 1: %+v", l)
	}

	// Against the gold tool, a missing argument is an error whose found
	// arguments still count through Partial.
	qs = []Query{{ID: "m", Query: "translate hello", GoldCalls: []GoldCall{{Tool: "translateText", Arguments: map[string]any{"text": "hello", "target_language": "French"}}}}}
	cfg.Out, cfg.GoldTool = nil, true
	cfg.Partial = func(err error) map[string]any { return map[string]any{"text": "hello"} }
	rep, err = Resolution(context.Background(), cfg, qs)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Statuses[StatusError] != 1 || rep.Args != (ArgCounts{TP: 1, FN: 1}) {
		t.Errorf("gold tool run: statuses %v args %+v", rep.Statuses, rep.Args)
	}
}

func TestResolutionNeedsSearcherAndResolver(t *testing.T) {
	if _, err := Resolution(context.Background(), ResolveConfig{}, []Query{{ID: "a", Query: "b"}}); err == nil {
		t.Fatal("no error without a searcher")
	}
}

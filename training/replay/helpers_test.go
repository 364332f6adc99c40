package replay

import (
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// testTools is a small registry of our own: distinct enough that intents
// worded after a tool find it with high confidence.
var testTools = []schemas.Manifest{
	{ID: "weather", Name: "weather", Description: "Current weather and forecast for a city: temperature, rain, wind.", Keywords: []string{"weather", "forecast", "temperature"}},
	{ID: "currency", Name: "currency", Description: "Convert an amount of money from one currency to another at today's exchange rate.", Keywords: []string{"currency", "exchange", "convert"}},
	{ID: "translate", Name: "translate", Description: "Translate text from one language into another language.", Keywords: []string{"translate", "language"}},
	{ID: "stocks", Name: "stocks", Description: "Stock market quotes: share price of a listed company.", Keywords: []string{"stock", "share", "price"}},
}

// testSide is a pipeline side over testTools (hybrid when the local
// vectors are built, keyword otherwise).
func testSide(t testing.TB, name string, th route.Thresholds) *Side {
	t.Helper()
	var opts []discover.Option
	if e, err := embed.NewLocal(); err == nil {
		opts = append(opts, discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(e))
	} else {
		opts = append(opts, discover.WithMode(discover.ModeKeyword))
	}
	set, err := stages.New(stages.Config{Tools: testTools, Thresholds: th, Discover: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Engine().Close() })
	s, err := NewSide(name, set, th)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// history is an imported history record (the contract's seven fields).
func history(session string, at time.Time, text, tool string) schemas.AuditRecord {
	return schemas.AuditRecord{Timestamp: at, SessionID: session, IntentExpressed: "[TOOL: " + text + "]", ToolID: tool, Result: "success"}
}

var t0 = time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

package schemas

import (
	"fmt"
	"sync"
	"time"
	_ "time/tzdata" // every IANA zone loads, whatever the machine has installed (a distroless container has none)
)

// zones caches the locations loaded: an output's zone is looked up by parse
// and again by resolve for each of its intents.
var zones sync.Map // name → *time.Location

// TimeZone loads an output's time zone (AgentOutput.TimeZone) by its IANA
// name. "Local" is refused: it would mean the worker's zone, which is what
// an output without a zone gets anyway, and would hide a mistake.
func TimeZone(name string) (*time.Location, error) {
	if v, ok := zones.Load(name); ok {
		return v.(*time.Location), nil
	}
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("time zone %q: want an IANA name such as Europe/Berlin or UTC", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("time zone %q is not an IANA time zone name (such as Europe/Berlin, America/New_York or UTC): %w", name, err)
	}
	zones.Store(name, loc)
	return loc, nil
}

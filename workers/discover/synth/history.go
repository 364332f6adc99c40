package synth

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// historyPhrasings are the shapes of the synthetic requests: %[1]s the
// tool's verb, %[2]s its object, %[3]s its domain, %[4]s a qualifier.
var historyPhrasings = []string{
	"please %[1]s the %[4]s %[2]s in %[3]s",
	"can you %[1]s my %[2]s from %[3]s",
	"I need to %[1]s a %[2]s for %[3]s",
	"%[1]s %[4]s %[2]ss, %[3]s side",
	"help me %[1]s the %[2]s we keep in %[3]s",
}

// History yields about n audit records of a deployment's traffic over
// tools, the same for the same n and seed, in time order: sessions of a
// few intents each, every intent recorded as the stages record it (parse,
// discover, route, and execute when it ran). Most intents are activated
// and run; one in eight is routed multiple_matches and corrected by the
// agent's `activate` of the wanted tool in its next move, one in twenty
// goes not_found.
func History(tools []schemas.Manifest, n int, seed uint64) iter.Seq[schemas.AuditRecord] {
	return func(yield func(schemas.AuditRecord) bool) {
		r := rand.New(rand.NewPCG(seed, 0x5EED))
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		emitted, session, msg := 0, 0, 0
		emit := func(rec schemas.AuditRecord) bool {
			emitted++
			return yield(rec)
		}
		for emitted < n {
			session++
			sid := fmt.Sprintf("synth-%07d", session)
			for range 1 + r.IntN(8) {
				msg++
				at = at.Add(time.Duration(200+r.IntN(2000)) * time.Millisecond)
				m := tools[r.IntN(len(tools))]
				parts := strings.Split(m.Name, "_")
				text := fmt.Sprintf(historyPhrasings[r.IntN(len(historyPhrasings))], parts[0], parts[len(parts)-1], m.Server, pick(r, qualifiers))
				id := fmt.Sprintf("m%d.0", msg)
				rec := func(stage, decision, result string) schemas.AuditRecord {
					return schemas.AuditRecord{Timestamp: at, SessionID: sid, IntentID: id, IntentExpressed: "[TOOL: " + text + "]",
						Stage: stage, Decision: decision, Result: result}
				}
				other := tools[r.IntN(len(tools))].ID
				tier, top, conf := schemas.TierActivated, m.ID, 0.85+0.15*r.Float64()
				switch k := r.IntN(40); {
				case k < 5:
					tier, top, conf = schemas.TierMultiple, other, 0.5+0.3*r.Float64()
				case k < 7:
					tier, top, conf = schemas.TierNotFound, other, 0.3*r.Float64()
				}
				d := rec("discover", "candidates", "discovered")
				d.ToolID, d.Candidates, d.Confidence, d.DurationMS = top, []string{top, m.ID}, conf, 0.5+2*r.Float64()
				rt := rec("route", tier, tier)
				rt.Confidence = conf
				if tier != schemas.TierNotFound {
					rt.ToolID, rt.Candidates = top, []string{top, m.ID}
				}
				out := []schemas.AuditRecord{rec("parse", "intent", "parsed"), d, rt}
				if tier == schemas.TierActivated {
					e := rec("execute", "", "success")
					e.ToolID = m.ID
					out = append(out, e)
				}
				for _, x := range out {
					if !emit(x) {
						return
					}
				}
				if tier != schemas.TierMultiple {
					continue
				}
				// The agent picks the tool it wanted: a correction.
				msg++
				at = at.Add(time.Duration(500+r.IntN(3000)) * time.Millisecond)
				cid := fmt.Sprintf("m%d.0", msg)
				if !emit(schemas.AuditRecord{Timestamp: at, SessionID: sid, IntentID: cid, IntentExpressed: "activate " + m.ID, Stage: "parse", Result: "parsed"}) ||
					!emit(schemas.AuditRecord{Timestamp: at, SessionID: sid, IntentID: cid, Stage: "execute", ToolID: "toolyard/activate",
						Parameters: map[string]any{"id": m.ID}, Result: "success"}) {
					return
				}
			}
		}
	}
}

package status

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/service"
)

// Activity is what the latest audit records say.
type Activity struct {
	// Records is how many records it was read from (the tail of AUDIT).
	Records int `json:"records"`
	// Tiers counts the route stage's decisions by tier.
	Tiers map[string]int `json:"tiers"`
	// Discovery counts the discover stage's answers by how they were
	// made: "discovered" (searched) or "prefetched" (a search the predict
	// stage made while the agent was writing, docs/prefetch.md).
	Discovery map[string]int `json:"discovery"`
	// Tools are the tools the execute stage ran, most called first.
	Tools []ToolActivity `json:"tools"`
	// Failures are the latest error records, newest first.
	Failures []Failure `json:"failures"`
	// Feedback counts the feedback records whose intent's routing is in
	// the window, by the tier it was routed to: whether the top tool was
	// the one the agent wanted (route.Judge).
	Feedback map[string]*FeedbackTally `json:"feedback"`

	routed map[[2]string]schemas.AuditRecord // session, intent → route record
	judged []schemas.AuditRecord             // feedback records
}

// FeedbackTally is feedback on one tier's top tools.
type FeedbackTally struct {
	Right int `json:"right"`
	Wrong int `json:"wrong"`
}

// Precision is the share of judged intents whose top tool was right.
func (f FeedbackTally) Precision() float64 {
	if f.Right+f.Wrong == 0 {
		return 0
	}
	return float64(f.Right) / float64(f.Right+f.Wrong)
}

// ToolActivity is one tool's calls in the window.
type ToolActivity struct {
	ID     string    `json:"id"`
	Calls  int       `json:"calls"`
	Errors int       `json:"errors"`
	Last   time.Time `json:"last"`
}

// Failure is one error record.
type Failure struct {
	Time    time.Time `json:"time"`
	Stage   string    `json:"stage"`
	Session string    `json:"session"`
	Tool    string    `json:"tool,omitempty"`
	Error   string    `json:"error"`
}

// maxFailures is how many failures the page lists.
const maxFailures = 10

// ReadActivity reads the last n records of AUDIT.
func ReadActivity(ctx context.Context, js jetstream.JetStream, n int) (Activity, error) {
	a := Activity{Tiers: map[string]int{}, Discovery: map[string]int{}, Feedback: map[string]*FeedbackTally{}}
	tools := map[string]*ToolActivity{}
	err := pipeline.ReadStreamTail(ctx, js, pipeline.StreamAudit, uint64(max(n, 0)), func(msg jetstream.Msg, _ *jetstream.MsgMetadata) error {
		var r schemas.AuditRecord
		if json.Unmarshal(msg.Data(), &r) == nil {
			a.add(r, tools)
		}
		return nil
	})
	if err != nil {
		return a, fmt.Errorf("read the tail of %s: %w", pipeline.StreamAudit, err)
	}
	a.judge()
	for _, t := range tools {
		a.Tools = append(a.Tools, *t)
	}
	slices.SortFunc(a.Tools, func(x, y ToolActivity) int {
		if x.Calls != y.Calls {
			return y.Calls - x.Calls
		}
		return y.Last.Compare(x.Last)
	})
	slices.Reverse(a.Failures)
	return a, nil
}

func (a *Activity) add(r schemas.AuditRecord, tools map[string]*ToolActivity) {
	a.Records++
	switch r.Stage {
	case bind.StageRoute:
		if r.Decision != "" {
			a.Tiers[r.Decision]++
			if a.routed == nil {
				a.routed = map[[2]string]schemas.AuditRecord{}
			}
			a.routed[[2]string{r.SessionID, r.IntentID}] = r
		}
	case service.StageFeedback:
		a.judged = append(a.judged, r)
	case "discover":
		if r.Result == "discovered" || r.Result == "prefetched" {
			a.Discovery[r.Result]++
		}
	case "execute":
		if r.ToolID != "" {
			t := tools[r.ToolID]
			if t == nil {
				t = &ToolActivity{ID: r.ToolID}
				tools[r.ToolID] = t
			}
			t.Calls++
			if r.Result == "error" {
				t.Errors++
			}
			if r.Timestamp.After(t.Last) {
				t.Last = r.Timestamp
			}
		}
	}
	if r.Result == "error" && r.Error != "" {
		a.Failures = append(a.Failures, Failure{Time: r.Timestamp, Stage: r.Stage, Session: r.SessionID, Tool: r.ToolID, Error: r.Error})
		if len(a.Failures) > maxFailures {
			a.Failures = a.Failures[1:]
		}
	}
}

// judge tallies the window's feedback against the routing decisions in it.
func (a *Activity) judge() {
	for _, f := range a.judged {
		r, ok := a.routed[[2]string{f.SessionID, f.IntentID}]
		if !ok {
			continue
		}
		verdict := route.Judge(r.ToolID, f.ToolID, f.Decision == service.FeedbackWrong)
		if verdict == route.VerdictUnknown {
			continue
		}
		t := a.Feedback[r.Decision]
		if t == nil {
			t = &FeedbackTally{}
			a.Feedback[r.Decision] = t
		}
		if verdict == route.VerdictRight {
			t.Right++
		} else {
			t.Wrong++
		}
	}
	a.routed, a.judged = nil, nil
}

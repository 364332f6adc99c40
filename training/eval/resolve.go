package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
)

// ResolveFunc turns a routed intent and its chosen tool's manifest into a
// call; resolve.Resolve is one. On a failure that still found some
// arguments it may return them in the call with the error (see Partial).
type ResolveFunc func(ctx context.Context, r schemas.Routed, m schemas.Manifest) (schemas.ToolCall, error)

// Statuses of a resolution line beyond the routing tiers.
const (
	StatusResolved = "resolved"
	StatusError    = "error"
)

// ResolveLine is one query's outcome, written as a JSON line.
type ResolveLine struct {
	ID        string         `json:"id"`
	ToolID    string         `json:"tool_id"`
	Arguments map[string]any `json:"arguments"`
	// Status is "resolved" or "error" for an activated intent (the outcome
	// of resolution), otherwise the routing tier: the arguments are then
	// those the top match would get if the agent activated it.
	Status     string  `json:"status"`
	Confidence float64 `json:"confidence"`
	Tier       string  `json:"tier"`
	Error      string  `json:"error,omitempty"`
	// Unmapped are the values the query states that no argument took.
	Unmapped []schemas.Unmapped `json:"unmapped,omitempty"`
}

// ResolveConfig is what a resolution run needs.
type ResolveConfig struct {
	Search  Searcher
	Tools   map[string]schemas.Manifest
	Resolve ResolveFunc
	// Partial, if set, recovers the arguments an error still found (e.g.
	// the ones given when others are missing), so they count in F1.
	Partial    func(err error) map[string]any
	Thresholds route.Thresholds
	// K candidates are asked of discovery per query.
	K int
	// GoldTool resolves against the gold tool instead of the discovered
	// one, measuring the resolver alone.
	GoldTool bool
	Out      io.Writer
	Progress func(done, total int)
}

// ResolveReport sums up a run: routing over every query with labels,
// resolution over the queries with exactly one gold call.
type ResolveReport struct {
	Queries int `json:"queries"`

	// Routing, over queries with gold tools: tiers, the activated share and
	// how often an activated tool is a gold tool.
	Routed             int            `json:"routed"`
	Tiers              map[string]int `json:"tiers"`
	ActivatedShare     float64        `json:"activated_share"`
	ActivatedPrecision float64        `json:"activated_precision"`
	// Awareness, over queries labelled needs_tool false: the share that
	// ends as weak_matches or not_found (nothing is run).
	NoTool         int     `json:"no_tool"`
	NoToolDeclined float64 `json:"no_tool_declined"`

	// Resolution, over queries with exactly one gold call.
	Calls        int       `json:"calls"`
	ToolAccuracy float64   `json:"tool_accuracy"`
	ArgExact     float64   `json:"arg_exact"`
	Args         ArgCounts `json:"args"`
	ArgF1        float64   `json:"arg_f1"`
	// ArgsRightTool and ArgF1RightTool count only the calls whose tool is
	// right: the resolver's share of the errors.
	ArgsRightTool  ArgCounts      `json:"args_right_tool"`
	ArgF1RightTool float64        `json:"arg_f1_right_tool"`
	Statuses       map[string]int `json:"statuses"`
	// FillRate is the share of the gold arguments of the calls whose tool
	// is right that the resolver gave a value, right or wrong (GoldArgs of
	// them, Filled filled): what it leaves out, F1 aside.
	FillRate float64 `json:"fill_rate"`
	GoldArgs int     `json:"gold_args"`
	Filled   int     `json:"filled"`
	// Unmapped counts the values the queries state that the resolver put
	// into no argument (the calls that have any, the values, and those a
	// parameter of the tool would take), over the resolved calls.
	Unmapped UnmappedCounts `json:"unmapped"`
	// Per-intent resolution time (discovery excluded).
	ResolveP50MS float64 `json:"resolve_p50_ms"`
	ResolveP99MS float64 `json:"resolve_p99_ms"`
}

// UnmappedCounts are the values stated in queries that no argument took.
type UnmappedCounts struct {
	Calls         int `json:"calls"`
	Values        int `json:"values"`
	WithParameter int `json:"with_parameter"`
}

// Resolution runs discovery, routing and resolution for every query.
func Resolution(ctx context.Context, cfg ResolveConfig, qs []Query) (ResolveReport, error) {
	rep := ResolveReport{Queries: len(qs), Tiers: map[string]int{}, Statuses: map[string]int{}}
	if cfg.Search == nil || cfg.Resolve == nil {
		return rep, errors.New("resolution eval needs a searcher and a resolver")
	}
	if cfg.K <= 0 {
		cfg.K = 10
	}
	enc := json.NewEncoder(io.Discard)
	if cfg.Out != nil {
		enc = json.NewEncoder(cfg.Out)
	}
	var lat []float64
	activated, activatedRight, declined := 0, 0, 0
	toolRight, exact := 0, 0
	for i, q := range qs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		cands, err := cfg.Search.Search(ctx, q.Query, cfg.K, nil)
		if err != nil {
			return rep, fmt.Errorf("query %s: %w", q.ID, err)
		}
		intent := schemas.Intent{V: schemas.Version, ID: q.ID, SessionID: "eval", MessageID: q.ID, Text: q.Query}
		d := route.Decide(schemas.Candidates{Intent: intent, Candidates: cands}, cfg.Thresholds)
		rep.Tiers[d.Tier]++
		top := topCandidate(cands)
		if len(q.GoldToolIDs) > 0 {
			rep.Routed++
			if d.Tier == schemas.TierActivated {
				activated++
				if contains(q.GoldToolIDs, top.ToolID) {
					activatedRight++
				}
			}
		}
		if q.NeedsTool != nil && !*q.NeedsTool {
			rep.NoTool++
			if d.Tier == schemas.TierWeak || d.Tier == schemas.TierNotFound {
				declined++
			}
		}
		line := ResolveLine{ID: q.ID, ToolID: top.ToolID, Confidence: top.Confidence, Tier: d.Tier, Status: d.Tier}
		if len(q.GoldCalls) == 1 {
			gold := q.GoldCalls[0]
			if cfg.GoldTool {
				line.ToolID = gold.Tool
			}
			start := time.Now()
			status, args, unmapped, msg := resolveOne(ctx, cfg, intent, d, cands, line.ToolID)
			lat = append(lat, float64(time.Since(start).Nanoseconds())/1e6)
			if d.Tier == schemas.TierActivated || cfg.GoldTool {
				line.Status = status
			}
			line.Arguments, line.Error, line.Unmapped = args, msg, unmapped
			rep.Calls++
			if len(unmapped) > 0 {
				rep.Unmapped.Calls++
				rep.Unmapped.Values += len(unmapped)
				for _, u := range unmapped {
					if u.Unplaced() {
						rep.Unmapped.WithParameter++
					}
				}
			}
			rep.Statuses[line.Status]++
			if line.ToolID == gold.Tool {
				toolRight++
				c := CompareArgs(args, gold.Arguments)
				rep.Args = rep.Args.Add(c)
				rep.ArgsRightTool = rep.ArgsRightTool.Add(c)
				if c.FP == 0 && c.FN == 0 {
					exact++
				}
				for k := range gold.Arguments {
					rep.GoldArgs++
					if _, ok := args[k]; ok {
						rep.Filled++
					}
				}
			} else {
				rep.Args = rep.Args.Add(ArgCounts{FP: len(args), FN: len(gold.Arguments)})
			}
		}
		if err := enc.Encode(line); err != nil {
			return rep, fmt.Errorf("write results: %w", err)
		}
		if cfg.Progress != nil && ((i+1)%100 == 0 || i+1 == len(qs)) {
			cfg.Progress(i+1, len(qs))
		}
	}
	if rep.Routed > 0 {
		rep.ActivatedShare = float64(activated) / float64(rep.Routed)
	}
	if activated > 0 {
		rep.ActivatedPrecision = float64(activatedRight) / float64(activated)
	}
	if rep.NoTool > 0 {
		rep.NoToolDeclined = float64(declined) / float64(rep.NoTool)
	}
	if rep.Calls > 0 {
		rep.ToolAccuracy = float64(toolRight) / float64(rep.Calls)
		rep.ArgExact = float64(exact) / float64(rep.Calls)
		rep.ArgF1 = rep.Args.F1()
		rep.ArgF1RightTool = rep.ArgsRightTool.F1()
	}
	if rep.GoldArgs > 0 {
		rep.FillRate = float64(rep.Filled) / float64(rep.GoldArgs)
	}
	sort.Float64s(lat)
	rep.ResolveP50MS, rep.ResolveP99MS = percentile(lat, 0.50), percentile(lat, 0.99)
	return rep, nil
}

// resolveOne resolves the intent against toolID and says how it went.
func resolveOne(ctx context.Context, cfg ResolveConfig, in schemas.Intent, d route.Decision, cands []schemas.Candidate, toolID string) (status string, args map[string]any, unmapped []schemas.Unmapped, msg string) {
	m, ok := cfg.Tools[toolID]
	if !ok {
		if toolID == "" {
			return StatusError, map[string]any{}, nil, "no candidate"
		}
		return StatusError, map[string]any{}, nil, fmt.Sprintf("tool %q is not in the registry", toolID)
	}
	routed := schemas.Routed{V: schemas.Version, Intent: in, Tier: d.Tier, Candidates: d.Matches}
	if len(routed.Candidates) == 0 {
		routed.Candidates = cands
	}
	call, err := cfg.Resolve(ctx, routed, m)
	if err != nil {
		args = call.Parameters
		if args == nil && cfg.Partial != nil {
			args = cfg.Partial(err)
		}
		if args == nil {
			args = map[string]any{}
		}
		return StatusError, args, nil, err.Error()
	}
	if call.Parameters == nil {
		call.Parameters = map[string]any{}
	}
	return StatusResolved, call.Parameters, call.Unmapped, ""
}

// topCandidate is the candidate routing would choose: the most confident,
// discovery's order breaking ties.
func topCandidate(cs []schemas.Candidate) schemas.Candidate {
	var top schemas.Candidate
	for i, c := range cs {
		if i == 0 || c.Confidence > top.Confidence {
			top = c
		}
	}
	return top
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Print writes the report for a person.
func (r ResolveReport) Print(w io.Writer, label string) {
	fmt.Fprintf(w, "%s: %d queries\n", label, r.Queries)
	if r.Calls > 0 {
		fmt.Fprintf(w, "  resolution (%d queries with one gold call): tool accuracy %.3f, argument exact match %.3f, argument F1 %.3f (P %.3f, R %.3f)\n",
			r.Calls, r.ToolAccuracy, r.ArgExact, r.ArgF1, r.Args.Precision(), r.Args.Recall())
		fmt.Fprintf(w, "  arguments when the tool is right: F1 %.3f (P %.3f, R %.3f)\n",
			r.ArgF1RightTool, r.ArgsRightTool.Precision(), r.ArgsRightTool.Recall())
		fmt.Fprintf(w, "  fill rate: %.3f of the gold arguments of right-tool calls filled (%d of %d)\n", r.FillRate, r.Filled, r.GoldArgs)
		fmt.Fprintf(w, "  unmapped: %d calls leave %d stated values in no argument (%d of them a parameter would take)\n",
			r.Unmapped.Calls, r.Unmapped.Values, r.Unmapped.WithParameter)
		fmt.Fprintf(w, "  statuses: %s\n", counts(r.Statuses))
		fmt.Fprintf(w, "  resolve time per intent: p50 %.3f ms, p99 %.3f ms\n", r.ResolveP50MS, r.ResolveP99MS)
	}
	if r.Routed > 0 {
		fmt.Fprintf(w, "  routing (%d queries with gold tools): activated %.1f%%, of which the right tool %.1f%%\n",
			r.Routed, 100*r.ActivatedShare, 100*r.ActivatedPrecision)
	}
	if r.NoTool > 0 {
		fmt.Fprintf(w, "  awareness (%d queries that need no tool): %.1f%% end as weak_matches or not_found\n",
			r.NoTool, 100*r.NoToolDeclined)
	}
	fmt.Fprintf(w, "  tiers: activated %d, multiple %d, weak %d, not found %d\n",
		r.Tiers[schemas.TierActivated], r.Tiers[schemas.TierMultiple], r.Tiers[schemas.TierWeak], r.Tiers[schemas.TierNotFound])
}

func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", k, m[k])
	}
	return s
}

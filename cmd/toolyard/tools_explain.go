package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// explained is what --explain --json prints: the reasons, and the tier
// the top candidate's confidence routes to under the thresholds in force.
type explained struct {
	discover.Reasons
	Tier       string           `json:"tier,omitempty"`
	Thresholds route.Thresholds `json:"thresholds"`
}

// explainSearch prints a search's candidates and why the top one got its
// confidence (discover.Engine.Why), and the tier it routes to.
func explainSearch(cmd *cobra.Command, set *stages.Set, query string, k int, asJSON bool) error {
	e, th := set.Engine(), set.Thresholds()
	why, err := e.Why(cmd.Context(), query, k)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if asJSON {
		x := explained{Reasons: why, Thresholds: th}
		if why.Top != nil {
			x.Tier = th.Tier(why.Top.Confidence)
		}
		return json.NewEncoder(out).Encode(x)
	}
	if why.Top == nil {
		// Keyword-only, or nothing matched: no model to explain.
		cands, err := e.Search(cmd.Context(), query, k, nil)
		if err != nil {
			return err
		}
		if err := printCandidates(out, query, cands); err != nil || len(cands) == 0 {
			return err
		}
		fmt.Fprintln(out, "\nDiscovery runs on keywords alone here (no word vectors in this build): its confidence is the keyword heuristic, with no model to explain.")
		return nil
	}
	// The explained ranking is the search's (discover.Engine.Why): its
	// candidates are listed, with the registry's descriptions.
	cands := make([]schemas.Candidate, len(why.Candidates))
	for i, c := range why.Candidates {
		m, _ := set.Registry().Get(c.ToolID)
		cands[i] = schemas.Candidate{ToolID: c.ToolID, Confidence: c.Confidence, Description: m.Description}
	}
	if err := printCandidates(out, query, cands); err != nil {
		return err
	}
	top := why.Candidates[0]
	if err := printBreakdown(out, top.ToolID, *why.Top, th); err != nil {
		return err
	}
	if top.Signals[discover.FeatureActionConflict] > 0 {
		_, err = fmt.Fprintf(out, "  The request asks to %s; %s names only %s: a near miss, which action_conflict counts against.\n",
			strings.Join(why.Asked, " or "), top.ToolID, strings.Join(top.Effects, ", "))
	}
	return err
}

func printBreakdown(out io.Writer, tool string, b discover.Breakdown, th route.Thresholds) error {
	fmt.Fprintf(out, "\nWhy %s is at %.2f, which routes as %s (activated from %.2f, multiple matches from %.2f, weak from %.2f; confidence model %s):\n",
		tool, b.Confidence, th.Tier(b.Confidence), th.Activate, th.Multiple, th.Weak, b.Calibration)
	switch {
	case b.NeedTerm != nil:
		fmt.Fprintf(out, "  confidence = σ(%.2f + the terms below + %.2f × logit P(needs a tool)), with P(needs a tool) %.2f\n", b.RightBias, *b.NeedTerm, b.PNeed)
	case len(b.Need) > 0:
		fmt.Fprintf(out, "  confidence = P(needs a tool) %.2f × P(right | needs a tool) %.2f\n", b.PNeed, b.PRight)
	}
	if b.NeedTerm != nil {
		fmt.Fprintln(out, "  the terms, by what they add:")
	} else {
		fmt.Fprintf(out, "  P(right | needs a tool) = σ(%.2f + the terms), terms by what they add:\n", b.RightBias)
	}
	if err := printTerms(out, b.Right); err != nil {
		return err
	}
	if len(b.Need) == 0 {
		return nil
	}
	fmt.Fprintf(out, "  P(needs a tool) = σ(%.2f + the terms), terms by what they add:\n", b.NeedBias)
	return printTerms(out, b.Need)
}

// printTerms lists a model's terms, the largest contribution first.
func printTerms(out io.Writer, terms []discover.Contribution) error {
	terms = slices.Clone(terms)
	slices.SortStableFunc(terms, func(a, b discover.Contribution) int {
		x, y := math.Abs(a.Weight*a.Value), math.Abs(b.Weight*b.Value)
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "    TERM\tVALUE\tWEIGHT\tADDS\tWHAT IT MEASURES")
	for _, t := range terms {
		fmt.Fprintf(w, "    %s\t%.3f\t%.3f\t%+.3f\t%s\n", t.Term, t.Value, t.Weight, t.Weight*t.Value, t.Doc)
	}
	return w.Flush()
}

package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"

	"github.com/toolyard/toolyard/workers/route"
)

// Report is a replay's summary and its plots' data.
type Report struct {
	Summary Summary
	// Threshold is the candidate's routing tiers, marked on the sweeps.
	Threshold route.Thresholds
	tiers     []string
	baseBins  []Bin
	candBins  []Bin
	baseAct   []SweepPoint
	candAct   []SweepPoint
	baseNF    []SweepPoint
	candNF    []SweepPoint
	baseLat   []float64
	candLat   []float64
}

// NewReport summarizes the rows and prepares the plots' data.
func NewReport(rows []Row, lbl map[string]Label, skipped Skipped, base, cand SideInfo, th route.Thresholds) *Report {
	a := NewAccumulator()
	a.AddRows(rows, lbl)
	return a.Report(skipped, base, cand, th)
}

// Report is the summary of the rows added so far and its plots' data;
// th is the candidate's routing tiers, marked on the sweeps.
func (a *Accumulator) Report(skipped Skipped, base, cand SideInfo, th route.Thresholds) *Report {
	r := &Report{Summary: a.Summary(skipped, base, cand), Threshold: th}
	r.baseBins, r.candBins = a.base.reliability(), a.cand.reliability()
	r.baseAct, r.candAct = a.base.sweepActivated(), a.cand.sweepActivated()
	r.baseNF, r.candNF = a.base.sweepNotFound(), a.cand.sweepNotFound()
	r.baseLat, r.candLat = a.base.lat.sorted(), a.cand.lat.sorted()
	// The standard tiers always, then any other the rows hold (unknown,
	// error), so matrices of different replays line up.
	r.tiers = slices.Clone(Tiers)
	for bt, m := range r.Summary.Transitions {
		for ct := range m {
			for _, t := range []string{bt, ct} {
				if !slices.Contains(r.tiers, t) {
					r.tiers = append(r.tiers, t)
				}
			}
		}
	}
	slices.Sort(r.tiers[len(Tiers):])
	return r
}

// Write writes summary.json and index.html into dir (created if need be).
func (r *Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	js, err := json.MarshalIndent(r.Summary, "", "  ")
	if err != nil {
		return fmt.Errorf("report: encode summary: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	page, err := r.HTML()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), page, 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// Plots are the report's figures as inline SVG, in page order.
type Plots struct {
	Transitions, ToolChanges, Activated, NotFound, Reliability, Latency template.HTML
}

// Plots renders every figure.
func (r *Report) Plots() (Plots, error) {
	var p Plots
	for _, f := range []struct {
		dst  *template.HTML
		draw func() (string, error)
	}{
		{&p.Transitions, func() (string, error) { return transitionPlot(r.tiers, r.Summary.Transitions) }},
		{&p.ToolChanges, func() (string, error) { return toolChangePlot(r.Summary.ToolChanges, 12) }},
		{&p.Activated, func() (string, error) {
			return sweepPlot("activated: precision and coverage", "activation threshold", r.baseAct, r.candAct, r.Threshold.Activate)
		}},
		{&p.NotFound, func() (string, error) {
			return sweepPlot("not_found: precision and coverage", "weak threshold (below it: not_found)", r.baseNF, r.candNF, r.Threshold.Weak)
		}},
		{&p.Reliability, func() (string, error) { return reliabilityPlot(r.baseBins, r.candBins) }},
		{&p.Latency, func() (string, error) { return latencyPlot(r.baseLat, r.candLat) }},
	} {
		svg, err := f.draw()
		if err != nil {
			return Plots{}, fmt.Errorf("report: %w", err)
		}
		// The SVG is ours, drawn by gonum/plot from escaped text.
		*f.dst = template.HTML(svg) //nolint:gosec
	}
	return p, nil
}

// HTML is the self-contained report page: inline CSS and SVG, no scripts,
// nothing fetched.
func (r *Report) HTML() ([]byte, error) {
	plots, err := r.Plots()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = pageTemplate.Execute(&buf, struct {
		S      Summary
		P      Plots
		Tiers  []string
		Th     route.Thresholds
		Shown  []Change
		Metric []metricRow
	}{r.Summary, plots, r.tiers, r.Threshold, r.Summary.Changes[:min(len(r.Summary.Changes), 200)], metricRows(r.Summary)})
	if err != nil {
		return nil, fmt.Errorf("report: page: %w", err)
	}
	return buf.Bytes(), nil
}

// metricRow is one line of the page's metrics table.
type metricRow struct {
	Name                string
	Baseline, Candidate string
}

func metricRows(s Summary) []metricRow {
	b, c := s.Baseline.Metrics, s.Candidate.Metrics
	f := func(p *float64) string {
		if p == nil {
			return "—"
		}
		return fmt.Sprintf("%.3f", *p)
	}
	return []metricRow{
		{"labelled intents", fmt.Sprint(b.Labelled), fmt.Sprint(c.Labelled)},
		{"would run a tool", fmt.Sprint(b.Ran), fmt.Sprint(c.Ran)},
		{"accuracy (hit@1)", f(b.Accuracy), f(c.Accuracy)},
		{"activated precision", f(b.ActivatedPrecision), f(c.ActivatedPrecision)},
		{"activated coverage", f(b.ActivatedCoverage), f(c.ActivatedCoverage)},
		{"not_found precision", f(b.NotFoundPrecision), f(c.NotFoundPrecision)},
		{"not_found coverage", f(b.NotFoundCoverage), f(c.NotFoundCoverage)},
		{"ECE", f(b.ECE), f(c.ECE)},
		{"latency p50 (ms)", f(b.LatencyP50MS), f(c.LatencyP50MS)},
		{"latency p99 (ms)", f(b.LatencyP99MS), f(c.LatencyP99MS)},
	}
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"conf": func(p *float64) string {
		if p == nil {
			return ""
		}
		return fmt.Sprintf("%.2f", *p)
	},
}).Parse(pageHTML))

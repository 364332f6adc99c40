package replay

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The two sides' colours, used alike in every plot.
var (
	baselineColor  = color.RGBA{R: 0xd9, G: 0x5f, B: 0x02, A: 0xff}
	candidateColor = color.RGBA{R: 0x1b, G: 0x6a, B: 0xc9, A: 0xff}
	markColor      = color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
)

// svgOf renders p as an inline <svg> element (no XML prolog, so it can go
// straight into the page). Fonts are named, not embedded: the page stays
// small and any browser's serif face draws them.
func svgOf(p *plot.Plot, w, h vg.Length) (string, error) {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("render %q: %w", p.Title.Text, err)
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return s, nil
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.Legend.Top = true
	return p
}

// line is a styled line through the finite points of xys; nil when none is.
func line(xys plotter.XYs, c color.Color, dashed bool) (*plotter.Line, error) {
	xys = slices.DeleteFunc(slices.Clone(xys), func(p plotter.XY) bool {
		return math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0)
	})
	if len(xys) == 0 {
		return nil, nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.Color, l.Width = c, vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return l, nil
}

// addLine adds a line and its legend entry, unless it has no points.
func addLine(p *plot.Plot, name string, xys plotter.XYs, c color.Color, dashed bool) error {
	l, err := line(xys, c, dashed)
	if err != nil || l == nil {
		return err
	}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// mark draws a vertical line at x across [0, 1].
func mark(p *plot.Plot, name string, x float64) error {
	l, err := line(plotter.XYs{{X: x, Y: 0}, {X: x, Y: 1}}, markColor, true)
	if err != nil || l == nil {
		return err
	}
	l.Width = vg.Points(1)
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// transitionPlot is the tier transition matrix: baseline tier (rows) by
// candidate tier (columns), shaded by count, each cell labelled.
func transitionPlot(tiers []string, counts map[string]map[string]int) (string, error) {
	n := len(tiers)
	g := grid{n: n, z: make([]float64, n*n)}
	var labels plotter.XYLabels
	for r, bt := range tiers {
		for c, ct := range tiers {
			k := counts[bt][ct]
			g.z[r*n+c] = math.Log1p(float64(k))
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(c), Y: float64(r)})
			labels.Labels = append(labels.Labels, fmt.Sprint(k))
		}
	}
	p := newPlot("Tier transitions (intents)", "candidate tier", "baseline tier")
	h := plotter.NewHeatMap(g, blues{})
	h.Min, h.Max = 0, math.Max(1, slices.Max(g.z))
	p.Add(h)
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return "", err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
		l.TextStyle[i].Font.Size = vg.Points(12)
		if g.z[i] > 0.6*h.Max {
			l.TextStyle[i].Color = color.White
		}
	}
	p.Add(l)
	p.NominalX(tiers...)
	p.NominalY(tiers...)
	return svgOf(p, 16*vg.Centimeter, 12*vg.Centimeter)
}

// grid is a square count matrix for the heat map.
type grid struct {
	n int
	z []float64
}

func (g grid) Dims() (c, r int)   { return g.n, g.n }
func (g grid) Z(c, r int) float64 { return g.z[r*g.n+c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// blues runs from white (no intents) to a deep blue (#084594), darker
// than the candidate's colour so the two are told apart.
type blues struct{}

func (blues) Colors() []color.Color {
	out := make([]color.Color, 32)
	for i := range out {
		f := float64(i) / float64(len(out)-1)
		out[i] = color.RGBA{R: uint8(255 - 247*f), G: uint8(255 - 186*f), B: uint8(255 - 107*f), A: 0xff}
	}
	return out
}

// toolChangePlot is a horizontal bar per most frequent old → new pair.
func toolChangePlot(changes []ToolChange, n int) (string, error) {
	changes = changes[:min(n, len(changes))]
	p := newPlot("Top tool changes (baseline → candidate)", "intents", "")
	if len(changes) == 0 {
		p.Title.Text += ": none"
		return svgOf(p, 16*vg.Centimeter, 4*vg.Centimeter)
	}
	vals := make(plotter.Values, len(changes))
	names := make([]string, len(changes))
	for i, c := range changes {
		// Most frequent on top: the bars are drawn bottom up.
		j := len(changes) - 1 - i
		vals[j] = float64(c.Count)
		names[j] = clip(orDash(c.From), 28) + " → " + clip(orDash(c.To), 28)
	}
	b, err := plotter.NewBarChart(vals, vg.Points(12))
	if err != nil {
		return "", err
	}
	b.Horizontal, b.Color, b.LineStyle.Width = true, candidateColor, 0
	p.Add(b)
	p.NominalY(names...)
	return svgOf(p, 22*vg.Centimeter, vg.Length(2+0.7*float64(len(changes)))*vg.Centimeter)
}

// sweepPlot draws precision and coverage of a tier for both sides as the
// threshold moves, the candidate's threshold marked.
func sweepPlot(title, xlabel string, base, cand []SweepPoint, threshold float64) (string, error) {
	p := newPlot(title, xlabel, "share")
	// Headroom above 1 keeps the legend off the lines.
	p.Y.Min, p.Y.Max = 0, 1.35
	xy := func(ps []SweepPoint, f func(SweepPoint) float64) plotter.XYs {
		out := make(plotter.XYs, len(ps))
		for i, s := range ps {
			out[i] = plotter.XY{X: s.Threshold, Y: f(s)}
		}
		return out
	}
	prec := func(s SweepPoint) float64 { return s.Precision }
	cov := func(s SweepPoint) float64 { return s.Coverage }
	for _, l := range []struct {
		name   string
		pts    []SweepPoint
		f      func(SweepPoint) float64
		c      color.Color
		dashed bool
	}{
		{"baseline precision", base, prec, baselineColor, false},
		{"baseline coverage", base, cov, baselineColor, true},
		{"candidate precision", cand, prec, candidateColor, false},
		{"candidate coverage", cand, cov, candidateColor, true},
	} {
		if err := addLine(p, l.name, xy(l.pts, l.f), l.c, l.dashed); err != nil {
			return "", err
		}
	}
	if err := mark(p, fmt.Sprintf("candidate threshold %.2f", threshold), threshold); err != nil {
		return "", err
	}
	return svgOf(p, 16*vg.Centimeter, 11*vg.Centimeter)
}

// reliabilityPlot is confidence against observed hit@1 per bin, both sides,
// with the diagonal of perfect calibration.
func reliabilityPlot(base, cand []Bin) (string, error) {
	p := newPlot("Reliability (top confidence vs hit@1)", "confidence", "observed accuracy")
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	diag, err := line(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, markColor, true)
	if err != nil {
		return "", err
	}
	diag.Width = vg.Points(0.8)
	p.Add(diag)
	p.Legend.Add("perfect calibration", diag)
	for _, s := range []struct {
		name string
		bins []Bin
		c    color.Color
	}{{"baseline", base, baselineColor}, {"candidate", cand, candidateColor}} {
		var xys plotter.XYs
		for _, b := range s.bins {
			if b.N > 0 {
				xys = append(xys, plotter.XY{X: b.Confidence, Y: b.Accuracy})
			}
		}
		l, err := line(xys, s.c, false)
		if err != nil {
			return "", err
		}
		if l == nil {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return "", err
		}
		sc.Color = s.c
		p.Add(l, sc)
		p.Legend.Add(s.name, l, sc)
	}
	return svgOf(p, 14*vg.Centimeter, 12*vg.Centimeter)
}

// latencyPlot is the distribution of per-intent latency of both sides on
// shared bins (the slowest 1% folded into the last bin).
func latencyPlot(base, cand []float64) (string, error) {
	p := newPlot("Latency per intent", "milliseconds", "intents")
	all := append(slices.Clone(base), cand...)
	if len(all) == 0 {
		p.Title.Text += ": not recorded"
		return svgOf(p, 16*vg.Centimeter, 4*vg.Centimeter)
	}
	slices.Sort(all)
	hi := quantile(all, 0.99)
	if hi <= 0 {
		hi = all[len(all)-1] + 1e-3
	}
	const bins = 40
	width := hi / bins
	hist := func(v []float64) plotter.XYs {
		if len(v) == 0 {
			return nil
		}
		counts := make([]float64, bins)
		for _, x := range v {
			counts[min(max(int(x/width), 0), bins-1)]++
		}
		xys := make(plotter.XYs, 0, bins+1)
		for i, c := range counts {
			xys = append(xys, plotter.XY{X: float64(i) * width, Y: c})
		}
		return append(xys, plotter.XY{X: hi, Y: counts[bins-1]})
	}
	for _, s := range []struct {
		name string
		v    []float64
		c    color.Color
	}{{"baseline", base, baselineColor}, {"candidate", cand, candidateColor}} {
		l, err := line(hist(s.v), s.c, false)
		if err != nil {
			return "", err
		}
		if l == nil {
			continue
		}
		l.StepStyle = plotter.PostStep
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (n=%d)", s.name, len(s.v)), l)
	}
	p.Y.Min = 0
	return svgOf(p, 16*vg.Centimeter, 10*vg.Centimeter)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

package fit

import (
	"fmt"
	"io"
	"math"

	"github.com/toolyard/toolyard/training/eval"
)

// Activate is routing's default threshold of the activated tier.
const Activate = 0.85

// Figures are one set's calibration figures.
type Figures struct {
	Set  string
	Rows int
	// ECE of the confidence against "the top tool is right" (10 bins).
	ECE float64
	// Activated is the share of rows at Activate or above; Precision the
	// share of those whose top tool is right.
	Activated, Precision float64
	// AUROCRight separates right top tools from wrong ones (NaN when all
	// are one or the other).
	AUROCRight float64
	// AUROCNeed separates rows that need a tool from rows that need none,
	// NoToolQuiet is the share of the latter below 0.5; both NaN for a set
	// in which every row needs a tool.
	AUROCNeed, NoToolQuiet float64
}

// Report computes the figures of each set, in the order sets first appear.
func Report(rows []Row, conf []float64) []Figures {
	var order []string
	by := map[string][]int{}
	for i, r := range rows {
		if _, ok := by[r.Set]; !ok {
			order = append(order, r.Set)
		}
		by[r.Set] = append(by[r.Set], i)
	}
	out := make([]Figures, 0, len(order))
	for _, set := range order {
		var c []float64
		var right, need []bool
		act, actRight, noTool, quiet := 0, 0, 0, 0
		for _, i := range by[set] {
			r := rows[i]
			c, right, need = append(c, conf[i]), append(right, r.Right), append(need, r.Need)
			if conf[i] >= Activate {
				act++
				if r.Right {
					actRight++
				}
			}
			if !r.Need {
				noTool++
				if conf[i] < 0.5 {
					quiet++
				}
			}
		}
		f := Figures{Set: set, Rows: len(c), ECE: eval.ECE(c, right, 10),
			Activated: float64(act) / float64(len(c)), Precision: float64(actRight) / math.Max(1, float64(act)),
			AUROCRight: eval.AUROC(c, right), AUROCNeed: math.NaN(), NoToolQuiet: math.NaN()}
		if noTool > 0 {
			f.AUROCNeed, f.NoToolQuiet = eval.AUROC(c, need), float64(quiet)/float64(noTool)
		}
		out = append(out, f)
	}
	return out
}

// Print writes one line per set.
func Print(w io.Writer, fs []Figures) {
	for _, f := range fs {
		fmt.Fprintf(w, "  %-9s %5d rows  ECE %.3f  activated (>= %.2f) %.3f, right %.3f  AUROC(right) %.3f",
			f.Set, f.Rows, f.ECE, Activate, f.Activated, f.Precision, f.AUROCRight)
		if !math.IsNaN(f.AUROCNeed) {
			fmt.Fprintf(w, "  AUROC(need) %.3f  no-tool below 0.5 %.3f", f.AUROCNeed, f.NoToolQuiet)
		}
		fmt.Fprintln(w)
	}
}

package calibrate

import (
	"sort"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
)

// Metrics are a calibration's figures on one collection's rows.
type Metrics struct {
	Requests int `json:"requests"`
	// WithTool requests have a right tool in the registry; NoTool do not.
	WithTool int `json:"with_tool"`
	NoTool   int `json:"no_tool"`
	// ECE of the top confidence against "the top tool is right" (10 bins),
	// over every request.
	ECE float64 `json:"ece"`
	// Activated is the share of WithTool requests activated (confidence ≥
	// the threshold) with the right tool... or the wrong one: coverage.
	Activated float64 `json:"activated"`
	// Precision is the share of activated requests whose top tool is right.
	Precision float64 `json:"precision"`
	// NoToolActivated is the share of NoTool requests activated.
	NoToolActivated float64 `json:"no_tool_activated"`
	// CoverageAt95 is the largest Activated any threshold reaches with a
	// Precision of at least 0.95, and ThresholdAt95 that threshold.
	CoverageAt95  float64 `json:"coverage_at_95"`
	ThresholdAt95 float64 `json:"threshold_at_95"`
}

// Score measures c on rows at the activation threshold.
func Score(c discover.Calibration, rows []Row, threshold float64) Metrics {
	m := Metrics{Requests: len(rows)}
	conf := make([]float64, len(rows))
	right := make([]bool, len(rows))
	var act, actRight, noAct int
	for i, r := range rows {
		conf[i], right[i] = c.Confidence(r.X), r.Right
		if r.Need {
			m.WithTool++
		} else {
			m.NoTool++
		}
		if conf[i] >= threshold {
			act++
			if r.Right {
				actRight++
			}
			if !r.Need {
				noAct++
			}
		}
	}
	m.ECE = eval.ECE(conf, right, 10)
	if m.WithTool > 0 {
		m.Activated = float64(act-noAct) / float64(m.WithTool)
	}
	if act > 0 {
		m.Precision = float64(actRight) / float64(act)
	}
	if m.NoTool > 0 {
		m.NoToolActivated = float64(noAct) / float64(m.NoTool)
	}
	m.CoverageAt95, m.ThresholdAt95 = coverageAt(conf, rows, 0.95)
	return m
}

// coverageAt sweeps the threshold down the confidences and returns the
// largest coverage of requests with a tool whose precision is ≥ p.
func coverageAt(conf []float64, rows []Row, p float64) (float64, float64) {
	idx := make([]int, len(rows))
	withTool := 0
	for i := range idx {
		idx[i] = i
		if rows[i].Need {
			withTool++
		}
	}
	if withTool == 0 {
		return 0, 0
	}
	sort.Slice(idx, func(a, b int) bool { return conf[idx[a]] > conf[idx[b]] })
	var act, right, covered int
	best, at := 0.0, 1.0
	for k, i := range idx {
		act++
		if rows[i].Right {
			right++
		}
		if rows[i].Need {
			covered++
		}
		// Only between distinct confidences is there a threshold.
		if k+1 < len(idx) && conf[idx[k+1]] == conf[i] {
			continue
		}
		if float64(right) >= p*float64(act) {
			if cov := float64(covered) / float64(withTool); cov > best {
				best, at = cov, conf[i]
			}
		}
	}
	return best, at
}

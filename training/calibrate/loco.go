package calibrate

import (
	"fmt"
	"slices"

	"github.com/toolyard/toolyard/workers/discover"
)

// Fold is one collection scored by a model fitted without it.
type Fold struct {
	LeftOut string  `json:"left_out"`
	Metrics Metrics `json:"metrics"`
}

// LeaveOneOut fits s on every collection but one and scores that one, for
// each collection of rows in turn.
func LeaveOneOut(rows []Row, s Spec, threshold float64) ([]Fold, error) {
	var names []string
	for _, r := range rows {
		if !slices.Contains(names, r.Set) {
			names = append(names, r.Set)
		}
	}
	if len(names) < 2 {
		return nil, fmt.Errorf("calibrate: leave-one-collection-out needs two collections or more, have %v", names)
	}
	folds := make([]Fold, 0, len(names))
	for _, name := range names {
		var fit, test []Row
		for _, r := range rows {
			if r.Set == name {
				test = append(test, r)
			} else {
				fit = append(fit, r)
			}
		}
		c, err := Fit(fit, s)
		if err != nil {
			return nil, fmt.Errorf("calibrate: without %s: %w", name, err)
		}
		folds = append(folds, Fold{LeftOut: name, Metrics: Score(c, test, threshold)})
	}
	return folds, nil
}

// ByCollection scores one model on each collection of rows.
func ByCollection(c discover.Calibration, rows []Row, threshold float64) []Fold {
	var out []Fold
	var names []string
	for _, r := range rows {
		if !slices.Contains(names, r.Set) {
			names = append(names, r.Set)
		}
	}
	for _, name := range names {
		test := slices.DeleteFunc(slices.Clone(rows), func(r Row) bool { return r.Set != name })
		out = append(out, Fold{LeftOut: name, Metrics: Score(c, test, threshold)})
	}
	return out
}

package fit

import (
	"fmt"
	"math/rand/v2"
)

// CrossValidate returns every row's confidence and P(need) from a model
// fitted on the other folds: rows are shuffled by seed and dealt into
// folds, so the figures of one seed against another show how much of a
// difference is the split's.
func CrossValidate(rows []Row, s Spec, folds int, seed uint64) (conf, need []float64, err error) {
	if folds < 2 {
		return nil, nil, fmt.Errorf("cross-validation needs at least 2 folds, got %d", folds)
	}
	perm := rand.New(rand.NewPCG(seed, uint64(len(rows)))).Perm(len(rows))
	conf, need = make([]float64, len(rows)), make([]float64, len(rows))
	for f := range folds {
		var train, test []int
		for i, j := range perm {
			if i%folds == f {
				test = append(test, j)
			} else {
				train = append(train, j)
			}
		}
		fold := make([]Row, len(train))
		for k, j := range train {
			fold[k] = rows[j]
		}
		m, err := Fit(fold, s)
		if err != nil {
			return nil, nil, fmt.Errorf("fold %d: %w", f, err)
		}
		for _, j := range test {
			if conf[j], need[j], err = m.Confidence(rows[j].X); err != nil {
				return nil, nil, err
			}
		}
	}
	return conf, need, nil
}

// Package calibrate fits discovery's confidence model on several request
// collections at once and measures how well it carries over to a registry
// it was not fitted on.
//
// A confidence means "right with probability p" only if that holds on the
// registry at hand: a small, well-described registry (the sample tools),
// a few hundred overlapping plugins (MetaTool) and thousands of API
// functions (Seal-Tools) give the same evidence different meanings. So the
// model is fitted on every collection together, each weighing the same
// whatever its size, on signals that compare across registries (margins,
// coverage shares, name mentions, registry size), and validated
// leave-one-collection-out: fit on the others, score the one left out, so
// every figure is one the model did not see.
//
// 'toolyard eval calibration' prints the leave-one-collection-out table and
// writes the model fitted on all collections; DefaultCalibration in
// workers/discover is that model.
package calibrate

// Package fit fits confidence models on the benchmark dev sets alone,
// cross-validated per set: it regenerates discover.DefaultEncoderCalibration
// (DefaultCalibration is fitted across registries by training/calibrate),
// and runs the experiments that chose their features: other
// features for either factor, other priors, other fold shuffles. It is
// what `toolyard train calibration` runs; the fitting experiments that
// used to be tests of workers/discover with environment knobs are its
// flags now.
//
// Collect ranks each query with the hybrid engine (discover's Explain) and
// keeps the top candidate's signals as a Row; Fit fits P(right | needs a
// tool) on the rows that need a tool and P(needs a tool) on the awareness
// rows, its bias moved to a prior; CrossValidate gives every row the
// confidence of a model fitted without it; Report and Print give the
// figures per set; FormatGo prints a model as the code it ships as.
//
// # What the experiments found
//
// Kept here from the exploratory tests they came from (their code is in
// the history before the move: workers/discover/explore*_test.go). Dev
// sets, hit@1 / recall@5, MetaTool then Seal-Tools, against fusionSoftAdd
// without tool coverage at 0.469 / 0.697, 0.959 / 0.884:
//
//   - A pointwise logistic ranker over every pool feature (relative BM25,
//     coverage, mention, cosine, soft and tool coverage, both sides'
//     reciprocal ranks), 5-fold cross-validated, reaches 0.463 / 0.693 and
//     0.941 / 0.897: re-weighting the evidence there is cannot reach 0.50
//     on MetaTool; it needs new evidence.
//   - The vector side on describing words only (stop words, phrasing and
//     values dropped): 0.352 → 0.381 alone, but 0.473 / 0.700, 0.953 /
//     0.882 fused. Rocchio feedback from the top 3 tool vectors: 0.389
//     alone, 0.462 / 0.696, 0.953 / 0.866 fused. Half the relative BM25:
//     0.479 / 0.698 but 0.949 / 0.852. Tool coverage added: 0.468 / 0.697,
//     0.960 / 0.895 (shipped).
//   - Soft coverage with each query word weighted by how well the pool
//     matches it: no change (0.468 / 0.697, 0.960 / 0.894).
//   - Calibration features for needs-a-tool: tool coverage is the one that
//     helps (shipped); the cosine to the registry centroid,
//     out-of-vocabulary share, query length: ±0.003 AUROC.
//   - P(need) · P(right | need) against one model of "the top tool is
//     right": shipped (need.go); the variants of either factor tried are
//     in calibration.go's doc comments, each a --right / --need / --prior
//     of the command.
//   - Also tried, code not kept: the cosine to the tool's name alone as a
//     fusion term (+0.5·minmax: 0.470 / 0.699 but 0.951 / 0.885); all-but-
//     the-top post-processing of the word vectors for soft matching (mean
//     and top 1–5 principal directions of the 50k most frequent words
//     removed): 0.466–0.467 / 0.697, 0.956–0.960 / 0.894–0.895; a loss
//     weighting the rows the model puts at 0.7 or more three times, and
//     Platt or isotonic recalibration of the product on inner out-of-fold
//     predictions (figures in calibration.go).
package fit

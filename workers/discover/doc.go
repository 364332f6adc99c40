// Package discover is the pure core of the discovery stage: it keeps an
// in-memory index of the tool registry and answers an intent with ranked
// candidates, each carrying a confidence in [0,1] that routing turns into a
// tier.
//
// The keyword side is bleve with BM25 scoring over a tool's name,
// keywords, description, examples and parameters, analysed so that
// identifiers (getTeamStats, google_maps_scraper, disk-usage) match plain
// words. Flat postings of the engine's own (postings.go) add up the same
// BM25 to propose the best tools fast at a million tools; bleve scores the
// proposals, so every score is bleve's. With an embedder (WithEmbedder) a vector side joins it: tool
// vectors, cached by embedder id and manifest content hash, in a vecindex
// index. A hybrid search pools each side's best 50 tools, scores every
// pooled tool on both sides, fuses (fuse.go) and turns each candidate's
// evidence into a probability with a logistic model (calibration.go) that a
// training job can refit and SetCalibration swaps in at run time.
//
// Without an embedder, or when it fails, search is keyword-only with the
// keyword confidence heuristic (confidence.go), and says so in the log.
package discover

// Package discover is the pure core of the discovery stage: it keeps an
// in-memory full-text index of the tool registry and answers an intent with
// ranked candidates, each carrying a confidence in [0,1] that routing turns
// into a tier.
//
// This first version is keyword-only: bleve with BM25 scoring over a tool's
// name, keywords, description, examples and parameters, analysed so that
// identifiers (getTeamStats, google_maps_scraper, disk-usage) match plain
// words. The confidence is an explainable heuristic (see confidence.go), not a
// trained calibration. The API (New, Put, Remove, Search, Discover) is what a
// hybrid BM25+vector engine will keep, so replacing the insides stays local.
package discover

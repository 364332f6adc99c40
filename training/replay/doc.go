// Package replay re-runs recorded intents through a candidate configuration
// in dry run (parse → discover → route → resolve; no executor is ever
// called) and reports what would change against a baseline: the recorded
// decisions, or the same pipeline under another configuration.
//
// The package is pure: it reads audit records and builds the pipeline from
// a stages.Set it is given; the command (cmd/toolyard/replay.go) turns
// flags and configuration files into those sets. Labels come from
// training/labels, the same derivation `toolyard train` learns from, so a
// change of tool or tier on a labelled intent is a gain or a loss.
package replay

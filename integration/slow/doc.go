// Package slow holds the slowest of Toolyard's end-to-end tests: every
// command the docs show run against a real server, and three-node clusters
// that lose a node. They are a package of their own, beside integration, so
// that 'go test ./...' runs them alongside the other packages' tests instead
// of one after another with integration's (whose tests, setting the
// process-wide TOOLYARD_DATA, cannot run in parallel).
package slow

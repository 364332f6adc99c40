//go:build race

package embed

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// allocation counts mean nothing under it.
const raceEnabled = true

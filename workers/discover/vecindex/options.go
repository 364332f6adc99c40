package vecindex

import (
	"fmt"
	"runtime"
)

// Defaults, measured on clustered dimension-100 vectors (see bench_test.go).
// Recall on clustered data depends on the graph's quality more than on
// the search: at 400k vectors, efConstruction 100 instead of 200 halves the
// build but costs four points of recall@10 that even efSearch 512 does not
// win back, and M=24 gained nothing over M=16. A search is cheap next to
// its 5 ms budget, so efSearch buys margin: at 1M, recall@10 is 0.981 at
// efSearch 256 (0.34 ms) and 0.993 at 512 (0.78 ms).
const (
	defaultM              = 16
	defaultEfConstruction = 200
	defaultEfSearch       = 512
	defaultThreshold      = 100_000
	// A goroutine per core pays for itself once a scan costs more than the
	// ~µs it takes to start and join them: about 30k rows at dimension 100.
	defaultParallelScanMin = 32_768
)

type config struct {
	m               int
	efConstruction  int
	efSearch        int
	seed            uint64
	workers         int
	parallelScanMin int
}

func defaultConfig() config {
	return config{
		m:               defaultM,
		efConstruction:  defaultEfConstruction,
		efSearch:        defaultEfSearch,
		seed:            1,
		workers:         runtime.GOMAXPROCS(0),
		parallelScanMin: defaultParallelScanMin,
	}
}

// Option configures an index. One option list configures an Auto and both
// of its indexes, so every constructor validates every option, and an
// index ignores those that do not apply to it (the graph's M for Exact).
type Option func(*config)

// WithM sets the graph's links per node above layer 0 (layer 0 keeps 2·M).
// More links raise recall and memory (8 bytes per link per vector) and slow
// insertion. Default 16.
func WithM(m int) Option { return func(c *config) { c.m = m } }

// WithEfConstruction sets how many candidates an insertion considers when it
// picks a node's links. Higher builds a better graph, more slowly.
// Default 200.
func WithEfConstruction(ef int) Option { return func(c *config) { c.efConstruction = ef } }

// WithEfSearch sets how many candidates a search keeps; it is raised to k
// when k is larger. It trades latency for recall and can be changed later
// with SetEfSearch. Default 512.
func WithEfSearch(ef int) Option { return func(c *config) { c.efSearch = ef } }

// WithSeed seeds the graph's level draws so that builds are reproducible.
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// WithWorkers caps the goroutines a scan or a batch build uses. Default
// GOMAXPROCS; 1 keeps every call on the caller's goroutine, which is what a
// server already busy with concurrent queries wants.
func WithWorkers(n int) Option { return func(c *config) { c.workers = n } }

// WithParallelScanMin sets the size from which a scan (Exact's, or the
// graph's fallback for selective filters) is split across workers.
// Default 32768.
func WithParallelScanMin(n int) Option { return func(c *config) { c.parallelScanMin = n } }

func newConfig(dim int, opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		o(&c)
	}
	switch {
	case dim < 1:
		return c, fmt.Errorf("dimension %d, want at least 1: %w", dim, ErrInvalidOption)
	case c.m < 2:
		// One link per node makes a list, not a navigable graph.
		return c, fmt.Errorf("links per node (M) %d, want at least 2: %w", c.m, ErrInvalidOption)
	case c.efConstruction < 1:
		return c, fmt.Errorf("efConstruction %d, want at least 1: %w", c.efConstruction, ErrInvalidOption)
	case c.efSearch < 1:
		return c, fmt.Errorf("efSearch %d, want at least 1: %w", c.efSearch, ErrInvalidOption)
	case c.workers < 1:
		return c, fmt.Errorf("workers %d, want at least 1: %w", c.workers, ErrInvalidOption)
	case c.parallelScanMin < 1:
		return c, fmt.Errorf("parallel scan minimum %d, want at least 1: %w", c.parallelScanMin, ErrInvalidOption)
	}
	return c, nil
}

package vecindex

import "math"

// Costs behind the filtered-search plan, measured at 100k dimension-100
// vectors on the project machine: an unfiltered graph search scores 6–12
// nodes per unit of ef (1,543 at ef 256), at about 125 ns a node because
// random access misses the cache; scoring an IDSet costs about 170 ns an
// id (two map operations and a miss); a scan about 17 ns a row, streaming.
const (
	visitsPerEf = 8
	visitNs     = 125
	setIDNs     = 170
	scanNs      = 17
)

// The ways a filtered graph search can be answered.
const (
	useGraph = iota
	useScan
	useSet
)

// selectivity is the share of live nodes f allows: a set's size, or a
// predicate's answers on a sample.
func (h *HNSW) selectivity(f Filter, live int) float64 {
	if set, ok := f.(IDSet); ok {
		return min(float64(len(set))/float64(live), 1)
	}
	return h.sampleSelectivity(allowFunc(f))
}

// filteredEf scales ef to the share s of nodes a filter allows. A search
// that keeps e allowed results explores about the region an unfiltered
// one keeping e/s results does, so ef·s allowed results buy the recall ef
// buys unfiltered, at about its cost. Measured at 1M with 1 in 10 allowed:
// keeping 32 gave recall@10 0.994 in 0.7 ms, keeping 512 the same 0.995 in
// 7.2 ms. The floor of 1.5·k holds recall at 0.99 for narrower filters.
func filteredEf(ef, k int, s float64) int {
	return max(int(math.Ceil(float64(ef)*s)), k+k/2)
}

// plan picks the cheapest way to answer a search whose filter allows a
// share s of nodes. The graph scores about visitsPerEf·ef/s nodes to find
// ef allowed ones; with ef from filteredEf that is flat down to a share of
// a few percent, then grows as 1/s until a scan is cheaper: below about
// 0.2% of 1M nodes, 2% of 100k.
func (h *HNSW) plan(f Filter, s float64, ef int) int {
	best, cost := useGraph, visitsPerEf*float64(ef)*visitNs/max(s, 1e-9)
	if scan := h.scanCost(); scan < cost {
		best, cost = useScan, scan
	}
	if set, ok := f.(IDSet); ok && float64(len(set))*setIDNs < cost {
		best = useSet
	}
	return best
}

// scanCost estimates a scan of the graph's slots, split as rows.search
// splits it.
func (h *HNSW) scanCost() float64 {
	n := h.g.slots()
	w := 1
	if n >= h.cfg.parallelScanMin {
		w = h.cfg.workers
	}
	return float64(n) * scanNs / float64(w)
}

// searchBudget is the nodes a graph search may score before it gives up
// and scans: about the time of the scan itself, so a search the plan
// misjudged costs at most two scans. The floor keeps small graphs
// searching.
func searchBudget(slots int) int {
	return max(slots*scanNs/visitNs, 4096)
}

// selectivitySample is how many nodes the plan asks a predicate about:
// enough to tell 0.1% from 1%, for about 20 µs of calls.
const selectivitySample = 1024

// sampleSelectivity estimates the share of live nodes allow accepts from
// pseudo-random slots; evenly spaced ones alias with any periodic pattern
// in the slots (one id in 1,000 read as one in 125, in a benchmark). With
// no hit it guesses half a hit's share.
func (h *HNSW) sampleSelectivity(allow func(string) bool) float64 {
	g := &h.g
	n := uint64(g.slots())
	seen, hits := 0, 0
	for i := range uint64(min(selectivitySample, n)) {
		s := splitmix64(i) % n
		if g.dead[s] {
			continue
		}
		seen++
		if allow(g.ids[s]) {
			hits++
		}
	}
	if hits == 0 {
		return 0.5 / float64(max(seen, 1))
	}
	return float64(hits) / float64(seen)
}

// splitmix64 is a fixed pseudo-random sequence: the same sample every
// search, so a plan is reproducible, without a generator to allocate.
func splitmix64(i uint64) uint64 {
	z := i*0x9e3779b97f4a7c15 + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

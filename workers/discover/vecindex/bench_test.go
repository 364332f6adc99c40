package vecindex

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// Benchmarks at 10k, 100k and 1M clustered dimension-100 vectors (see
// synth_test.go). Each size has its own names so the slow ones run only
// when asked for:
//
//	go test -run '^$' -bench 'Search10k|Search100k' ./workers/discover/vecindex/
//	go test -run '^$' -bench '1M' -benchtime 200x -timeout 60m ./workers/discover/vecindex/
//
// Besides ns/op they report p50-ms and p99-ms per query, recall@10 of the
// graph against exact search on 500 held-out queries, build-s and B/vec
// (heap bytes per stored vector, not counting the id strings, which the
// index shares with its caller). Built indexes are cached for the process,
// so Search1M after Build1M does not build the 1M graph again.

const (
	benchDim     = 100
	benchQueries = 500
	// filteredQueries is fewer because the exact filtered answers they are
	// checked against cost a full scan each.
	filteredQueries = 100
)

type benchEnv struct {
	n     int
	d     *dataset
	ids   []string
	rows  [][]float32
	truth [][]Hit // exact top 10 per query
}

type buildStats struct {
	dur         time.Duration
	bytesPerVec float64
}

var (
	benchMu     sync.Mutex
	benchEnvs   = map[int]*benchEnv{}
	benchExact  = map[int]*Exact{}
	benchGraphs = map[int]*HNSW{}
	benchBuilds = map[string]buildStats{}
)

func env(b *testing.B, n int) *benchEnv {
	b.Helper()
	benchMu.Lock()
	e := benchEnvs[n]
	benchMu.Unlock()
	if e != nil {
		return e
	}
	d := sharedDataset(n, benchQueries, benchDim)
	e = &benchEnv{n: n, d: d, ids: d.ids(), rows: make([][]float32, n)}
	for i := range e.rows {
		e.rows[i] = d.vec(i)
	}
	ex := exactIndex(b, e)
	e.truth = make([][]Hit, d.nq())
	for i := range e.truth {
		e.truth[i] = must(ex.Search(d.query(i), 10, nil))
	}
	benchMu.Lock()
	benchEnvs[n] = e
	benchMu.Unlock()
	return e
}

// measureBuild runs build and reports its time and the heap that what it
// built keeps.
func measureBuild(n int, build func() any) buildStats {
	before := heapAlloc()
	t0 := time.Now()
	built := build()
	dur := time.Since(t0)
	after := heapAlloc()
	runtime.KeepAlive(built)
	return buildStats{dur: dur, bytesPerVec: float64(after-before) / float64(n)}
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// exactIndex loads the environment into an Exact one Put at a time, as a
// registry watch would.
func exactIndex(b *testing.B, e *benchEnv) *Exact {
	benchMu.Lock()
	defer benchMu.Unlock()
	if ex := benchExact[e.n]; ex != nil {
		return ex
	}
	var ex *Exact
	benchBuilds[fmt.Sprint("exact/", e.n)] = measureBuild(e.n, func() any {
		ex = must(NewExact(benchDim))
		for i, id := range e.ids {
			if err := ex.Put(id, e.rows[i]); err != nil {
				b.Fatal(err)
			}
		}
		return ex
	})
	benchExact[e.n] = ex
	return ex
}

func buildGraph(b *testing.B, e *benchEnv) (*HNSW, buildStats) {
	var h *HNSW
	stats := measureBuild(e.n, func() any {
		h = must(NewHNSW(benchDim))
		if err := h.PutBatch(e.ids, e.rows); err != nil {
			b.Fatal(err)
		}
		return h
	})
	benchMu.Lock()
	benchGraphs[e.n] = h
	benchBuilds[fmt.Sprint("hnsw/", e.n)] = stats
	benchMu.Unlock()
	return h, stats
}

func graphIndex(b *testing.B, e *benchEnv) *HNSW {
	benchMu.Lock()
	h := benchGraphs[e.n]
	benchMu.Unlock()
	if h == nil {
		h, _ = buildGraph(b, e)
	}
	return h
}

func reportBuild(b *testing.B, key string) {
	benchMu.Lock()
	s, ok := benchBuilds[key]
	benchMu.Unlock()
	if ok {
		b.ReportMetric(s.dur.Seconds(), "build-s")
		b.ReportMetric(s.bytesPerVec, "B/vec")
	}
}

// latencies times one query per iteration and reports the percentiles.
func latencies(b *testing.B, e *benchEnv, nq int, search func(q []float32) error) {
	lat := make([]time.Duration, 0, 1024)
	i := 0
	for b.Loop() {
		q := e.d.query(i % nq)
		i++
		t0 := time.Now()
		if err := search(q); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	reportPercentiles(b, lat, "")
}

func reportPercentiles(b *testing.B, lat []time.Duration, suffix string) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Nanoseconds()) / 1e6
	}
	b.ReportMetric(pct(0.50), "p50-ms"+suffix)
	b.ReportMetric(pct(0.99), "p99-ms"+suffix)
}

func meanRecall(idx Index, e *benchEnv, nq int, f Filter, truth func(i int) []Hit) float64 {
	var sum float64
	for i := range nq {
		sum += recall(must(idx.Search(e.d.query(i), 10, f)), truth(i))
	}
	return sum / float64(nq)
}

func benchSearch(b *testing.B, n int) {
	e := env(b, n)
	ex := exactIndex(b, e)
	workers := []int{1}
	if n >= defaultParallelScanMin && runtime.GOMAXPROCS(0) > 1 {
		workers = append(workers, runtime.GOMAXPROCS(0))
	}
	for _, w := range workers {
		b.Run(fmt.Sprintf("exact/workers=%d", w), func(b *testing.B) {
			ex.cfg.workers = w
			defer func() { ex.cfg.workers = runtime.GOMAXPROCS(0) }()
			latencies(b, e, benchQueries, func(q []float32) error {
				_, err := ex.Search(q, 10, nil)
				return err
			})
			reportBuild(b, fmt.Sprint("exact/", n))
		})
	}
	h := graphIndex(b, e)
	defer h.SetEfSearch(defaultEfSearch)
	for _, ef := range []int{64, 128, 256, 512} { // 512 is the default
		b.Run(fmt.Sprintf("hnsw/ef=%d", ef), func(b *testing.B) {
			h.SetEfSearch(ef)
			latencies(b, e, benchQueries, func(q []float32) error {
				_, err := h.Search(q, 10, nil)
				return err
			})
			b.ReportMetric(meanRecall(h, e, benchQueries, nil, func(i int) []Hit { return e.truth[i] }), "recall@10")
			reportBuild(b, fmt.Sprint("hnsw/", n))
		})
	}
}

func BenchmarkSearch10k(b *testing.B)  { benchSearch(b, 10_000) }
func BenchmarkSearch100k(b *testing.B) { benchSearch(b, 100_000) }
func BenchmarkSearch1M(b *testing.B)   { benchSearch(b, 1_000_000) }

func benchBuild(b *testing.B, n int) {
	e := env(b, n)
	b.Run("exact", func(b *testing.B) {
		var s buildStats
		for b.Loop() {
			s = measureBuild(n, func() any {
				ex := must(NewExact(benchDim))
				for i, id := range e.ids {
					_ = ex.Put(id, e.rows[i])
				}
				return ex
			})
		}
		b.ReportMetric(float64(s.dur.Nanoseconds())/float64(n), "ns/vec")
		b.ReportMetric(s.bytesPerVec, "B/vec")
	})
	b.Run("hnsw", func(b *testing.B) {
		var s buildStats
		for b.Loop() {
			_, s = buildGraph(b, e)
		}
		b.ReportMetric(float64(s.dur.Nanoseconds())/float64(n), "ns/vec")
		b.ReportMetric(s.bytesPerVec, "B/vec")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
	})
}

func BenchmarkBuild10k(b *testing.B)  { benchBuild(b, 10_000) }
func BenchmarkBuild100k(b *testing.B) { benchBuild(b, 100_000) }
func BenchmarkBuild1M(b *testing.B)   { benchBuild(b, 1_000_000) }

// benchPut times a registry update until it is searchable: Put of a new id,
// then a search that must return it first. The id is removed afterwards,
// untimed, so the index keeps its size.
func benchPut(b *testing.B, n int) {
	e := env(b, n)
	for _, kind := range []struct {
		name string
		idx  Index
	}{{"exact", exactIndex(b, e)}, {"hnsw", graphIndex(b, e)}} {
		b.Run(kind.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, 1024)
			misses := 0
			i := 0
			for b.Loop() {
				id := fmt.Sprint("put-", i)
				v := e.d.query(i % benchQueries)
				i++
				t0 := time.Now()
				if err := kind.idx.Put(id, v); err != nil {
					b.Fatal(err)
				}
				hits := must(kind.idx.Search(v, 1, nil))
				lat = append(lat, time.Since(t0))
				if len(hits) == 0 || hits[0].ID != id {
					misses++
				}
				b.StopTimer()
				kind.idx.Remove(id)
				b.StartTimer()
			}
			reportPercentiles(b, lat, "")
			b.ReportMetric(float64(misses), "misses")
		})
	}
}

func BenchmarkPut10k(b *testing.B)  { benchPut(b, 10_000) }
func BenchmarkPut100k(b *testing.B) { benchPut(b, 100_000) }
func BenchmarkPut1M(b *testing.B)   { benchPut(b, 1_000_000) }

// benchFiltered searches the graph with a scope that allows one id in
// every `every`, as a set and as a predicate.
func benchFiltered(b *testing.B, n int) {
	e := env(b, n)
	ex := exactIndex(b, e)
	h := graphIndex(b, e)
	for _, every := range []int{10, 100, 1000} {
		set := IDSet{}
		for i := 0; i < n; i += every {
			set[e.ids[i]] = struct{}{}
		}
		truth := make([][]Hit, filteredQueries)
		for i := range truth {
			truth[i] = must(ex.Search(e.d.query(i), 10, AllowFunc(set.Allow)))
		}
		for _, f := range []struct {
			name string
			f    Filter
		}{{"set", set}, {"func", AllowFunc(set.Allow)}} {
			b.Run(fmt.Sprintf("1in%d/%s", every, f.name), func(b *testing.B) {
				latencies(b, e, filteredQueries, func(q []float32) error {
					_, err := h.Search(q, 10, f.f)
					return err
				})
				b.ReportMetric(meanRecall(h, e, filteredQueries, f.f, func(i int) []Hit { return truth[i] }), "recall@10")
			})
		}
	}
}

func BenchmarkFiltered100k(b *testing.B) { benchFiltered(b, 100_000) }
func BenchmarkFiltered1M(b *testing.B)   { benchFiltered(b, 1_000_000) }

// BenchmarkAutoSwitch100k loads 100k vectors into an Auto with the default
// threshold, so the last Put starts the background graph build, and times
// searches until the graph takes over: the exact index keeps answering
// meanwhile. Run it with -benchtime 1x.
func BenchmarkAutoSwitch100k(b *testing.B) {
	const n = defaultThreshold
	e := env(b, n)
	for b.Loop() {
		a := must(NewAuto(benchDim, n))
		for i, id := range e.ids {
			if err := a.Put(id, e.rows[i]); err != nil {
				b.Fatal(err)
			}
		}
		t0 := time.Now()
		var lat []time.Duration
		for i := 0; !a.Approximate(); i++ {
			q0 := time.Now()
			must(a.Search(e.d.query(i%benchQueries), 10, nil))
			lat = append(lat, time.Since(q0))
		}
		b.ReportMetric(time.Since(t0).Seconds(), "switch-s")
		reportPercentiles(b, lat, "-during-build")
		b.ReportMetric(meanRecall(a, e, benchQueries, nil, func(i int) []Hit { return e.truth[i] }), "recall@10")
	}
}

package synth

import (
	"context"
	"errors"
	"fmt"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// Discovery speed on synthetic registries: per-query latency (p50/p99),
// index build time and memory per tool, and put → searchable latency, for
// hybrid discovery with the local embedder and keyword-only beside it, and
// up to 10k tools hybrid with the USE-lite sentence encoder too (encoding
// a million tools would take hours).
//
//	go test -run '^$' -bench 'Discovery/tools=(1k|10k|100k)' -benchtime 200x ./workers/discover/synth/
//	go test -run '^$' -bench 'Discovery/tools=1M' -benchtime 200x -timeout 60m ./workers/discover/synth/
func BenchmarkDiscovery(b *testing.B) {
	sizes := []struct {
		name string
		n    int
	}{{"1k", 1_000}, {"10k", 10_000}, {"100k", 100_000}, {"1M", 1_000_000}}
	local, err := embed.NewLocal()
	if errors.Is(err, embed.ErrUnavailable) {
		evaltest.Unavailable(b, "word vectors (make embeddings): hybrid figures need them", err)
	}
	if err != nil {
		b.Fatal(err)
	}
	encoder, err := embed.NewUSELite()
	if err != nil && !errors.Is(err, embed.ErrUnavailable) {
		b.Fatal(err)
	}
	type mode struct {
		name string
		opts []discover.Option
	}
	for _, size := range sizes {
		// Generated on first use: a run of the small sizes must not pay
		// for a million manifests it never indexes.
		var tools []schemas.Manifest
		var queries []string
		modes := []mode{
			{"keyword", nil},
			{"hybrid", []discover.Option{discover.WithEmbedder(local), discover.WithMode(discover.ModeHybrid)}},
		}
		if encoder != nil && size.n <= 10_000 {
			modes = append(modes, mode{"encoder", []discover.Option{discover.WithEmbedder(local), discover.WithEncoder(encoder), discover.WithMode(discover.ModeHybrid)}})
		}
		for _, mode := range modes {
			b.Run(fmt.Sprintf("tools=%s/%s", size.name, mode.name), func(b *testing.B) {
				if tools == nil {
					tools = Tools(size.n, 1)
					queries = Queries(tools, 500, 2)
				}
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				start := time.Now()
				e, err := discover.New(tools, mode.opts...)
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				build := time.Since(start)
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				writeHeapProfile(b, size.name+"-"+mode.name)

				ctx := context.Background()
				// b.Loop, not b.N: with b.N the testing package calls this
				// function twice (once with N=1), building the index twice,
				// which at a million tools costs ten minutes.
				var lat []time.Duration
				for i := 0; b.Loop(); i++ {
					t0 := time.Now()
					if _, err := e.Search(ctx, queries[i%len(queries)], 10, nil); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
				}
				b.StopTimer()
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
				b.ReportMetric(ms(lat[(len(lat)*99)/100]), "p99-ms")
				b.ReportMetric(build.Seconds(), "build-s")
				b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(size.n), "heap-B/tool")
				b.ReportMetric(ms(putToSearchable(b, e)), "put-to-found-ms")
				if hwm := peakRSS(); hwm > 0 {
					// The process's peak so far: run one size per process
					// for a figure that is that size's alone.
					b.ReportMetric(float64(hwm)/(1<<20), "peak-rss-MB")
				}
			})
		}
	}
}

// putToSearchable is how long a new tool takes from Put to being the top
// result for its own description.
func putToSearchable(b *testing.B, e *discover.Engine) time.Duration {
	m := schemas.Manifest{ID: "bench/zyxwv_quantum_teapot", Name: "zyxwv_quantum_teapot",
		Description: "Brew a quantum teapot of zyxwv tea for the benchmark.", Type: "tool"}
	start := time.Now()
	if err := e.Put(m); err != nil {
		b.Fatal(err)
	}
	for {
		cs, err := e.Search(context.Background(), "brew a quantum teapot of zyxwv tea", 1, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(cs) > 0 && cs[0].ToolID == m.ID {
			return time.Since(start)
		}
		if time.Since(start) > time.Minute {
			b.Fatal("a put tool was not searchable within a minute")
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

package resolve

import (
	"context"
	"syscall"
	"testing"
	"time"
)

func BenchmarkResolve(b *testing.B) {
	r := routed(`run the google maps scraper for tech companies in location Berlin, limit 50 tags=b2b,saas verbose=yes`)
	ctx := context.Background()
	if _, err := Resolve(ctx, r, scraper); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := Resolve(ctx, r, scraper); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time per op, GC included: on shared machines wall time per op
	// also counts the time other processes held the cores.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkExtractPairs(b *testing.B) {
	text := `scrape maps query='coffee shops' location: Berlin, limit=50 tags=a,b,c verbose: yes`
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		extractPairs(text)
	}
}

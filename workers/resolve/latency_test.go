package resolve

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/registry"
)

// job is one intent and the tool it is resolved against.
type job struct {
	r schemas.Routed
	m schemas.Manifest
}

// BenchmarkResolveLatency resolves the sample tools' examples and the
// prose of the phrase tests, one intent per operation, and reports the
// median and 99th percentile time per intent (target: p99 ≤ 2 ms).
func BenchmarkResolveLatency(b *testing.B) {
	tools, err := sample.Tools()
	if err != nil {
		b.Fatal(err)
	}
	var jobs []job
	for _, m := range tools {
		for _, ex := range m.Examples {
			jobs = append(jobs, job{routed(ex), m})
		}
	}
	for _, tt := range []struct {
		m    schemas.Manifest
		text string
	}{
		{booking, "Book a facial treatment at Tranquil Wellness Center for John Smith on June 24, 2002, at 09:16."},
		{rooms, "Find rooms in New York from November 25, 2013, to January 7, 2014."},
		{salary, "salary benchmark for a Marketing Manager position in Bangalore with 15 years of experience"},
		{scraper, "run the google maps scraper for tech companies in location Berlin, limit 50 tags=b2b,saas verbose=yes"},
		{attack, "Attack with the attacker ID '8EugX' and target ID '0lqxP'"},
	} {
		jobs = append(jobs, job{routed(tt.text), tt.m})
	}
	benchJobs(b, jobs)
}

// BenchmarkResolveSealTools resolves every single-call query of the
// Seal-Tools dev set against its gold tool (4,076 tools with JSON Schema
// parameters): real prose against real schemas. Skipped when the public
// benchmark data is not checked out next to the repository.
func BenchmarkResolveSealTools(b *testing.B) {
	dir := evaltest.Path(b, "sealtools")
	tools, err := registry.LoadFile(filepath.Join(dir, "tools.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	qs, err := eval.LoadQueries(filepath.Join(dir, "queries.dev.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	byID := make(map[string]schemas.Manifest, len(tools))
	for _, m := range tools {
		byID[m.ID] = m
	}
	var jobs []job
	for _, q := range qs {
		if len(q.GoldCalls) != 1 {
			continue
		}
		if m, ok := byID[q.GoldCalls[0].Tool]; ok {
			jobs = append(jobs, job{routed(q.Query), m})
		}
	}
	benchJobs(b, jobs)
}

// benchJobs runs the jobs round-robin, one per operation, timing each.
// Schemas are compiled once before timing starts, as the resolve stage's
// cache does for a working set of tools.
func benchJobs(b *testing.B, jobs []job) {
	if len(jobs) == 0 {
		b.Fatal("no intents to resolve")
	}
	ctx := context.Background()
	for _, j := range jobs {
		_, _ = Resolve(ctx, j.r, j.m)
	}
	lat := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	i := 0
	for b.Loop() {
		j := jobs[i%len(jobs)]
		i++
		start := time.Now()
		_, _ = Resolve(ctx, j.r, j.m)
		if len(lat) < cap(lat) {
			lat = append(lat, time.Since(start))
		}
	}
	b.StopTimer()
	// Wall-clock percentiles on a shared machine include time other
	// processes held the cores; CPU time per intent does not.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(i), "cpu-ns/intent")
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Nanoseconds()) }
	b.ReportMetric(pct(0.50), "p50-ns/intent")
	b.ReportMetric(pct(0.99), "p99-ns/intent")
	b.ReportMetric(float64(len(jobs)), "intents")
}

// BenchmarkResolveAdversarial: long intents built to make the prose
// rules work hardest (many quotes, names, identifiers, dates, nouns):
// time grows with the text, not with its square.
func BenchmarkResolveAdversarial(b *testing.B) {
	for _, tc := range []struct {
		name string
		unit string
		m    schemas.Manifest
	}{
		{"quotes", `game "a" `, game},
		{"names", "Game Alpha Beta ", booking},
		{"ids", "robot ID x1 ", robot},
		{"dates", "from May 1, 2020 ", rooms},
		{"nouns", "the cardio workout of the game named X ", workout},
		{"addresses", "in Los Angeles, California, ", realEstate},
		{"named", "the word x ", reverse},
		{"ordered", "2 and ", getSum},
		{"paths", "the directory a/b.txt *.go ", searchFiles},
	} {
		for _, n := range []int{100, 1000} {
			text := strings.Repeat(tc.unit, n)
			b.Run(fmt.Sprintf("%s/%dB", tc.name, len(text)), func(b *testing.B) {
				r := routed(text)
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					_, _ = Resolve(context.Background(), r, tc.m)
				}
			})
		}
	}
}

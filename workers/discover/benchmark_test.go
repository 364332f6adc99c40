package discover

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkSearch measures one Search over synthetic registries of 1k and
// 10k tools, cycling through agent-style intents.
func BenchmarkSearch(b *testing.B) {
	queries := syntheticQueries(256)
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			e, err := New(syntheticTools(n))
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := e.Search(ctx, queries[i%len(queries)], 10, nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkPut measures an incremental update at 10k tools, background
// compactions included.
func BenchmarkPut(b *testing.B) {
	tools := syntheticTools(10000)
	e, err := New(tools[:9000])
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	i := 0
	for b.Loop() {
		if err := e.Put(tools[9000+i%1000]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkNew measures indexing a whole registry.
func BenchmarkNew(b *testing.B) {
	tools := syntheticTools(10000)
	for b.Loop() {
		e, err := New(tools)
		if err != nil {
			b.Fatal(err)
		}
		_ = e.Close()
	}
}

// BenchmarkSearchAfterUpdates shows what uncompacted updates cost a search
// at 10k tools, the trade-off behind WithCompactAfter.
func BenchmarkSearchAfterUpdates(b *testing.B) {
	tools := syntheticTools(10000)
	queries := syntheticQueries(256)
	for _, updates := range []int{0, 64, 256} {
		b.Run(fmt.Sprintf("updates=%d", updates), func(b *testing.B) {
			e, err := New(tools, WithCompactAfter(1<<30))
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			for i := range updates {
				m := tools[i]
				m.Description += " (revised)"
				if err := e.Put(m); err != nil {
					b.Fatal(err)
				}
			}
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if _, err := e.Search(ctx, queries[i%len(queries)], 10, nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

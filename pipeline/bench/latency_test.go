package bench

import (
	"sync"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // recorded out of order
	}
	for _, tc := range []struct {
		name string
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{"empty", nil, 0.5, 0},
		{"one", ms(7), 0.99, 7 * time.Millisecond},
		{"median of odd", ms(3, 1, 2), 0.5, 2 * time.Millisecond},
		{"median of even takes the lower", ms(4, 1, 3, 2), 0.5, 2 * time.Millisecond},
		{"p99 of 100", ms(hundred...), 0.99, 99 * time.Millisecond},
		{"p50 of 100", ms(hundred...), 0.50, 50 * time.Millisecond},
		{"max", ms(hundred...), 1, 100 * time.Millisecond},
		{"p0 is the minimum", ms(5, 9, 2), 0, 2 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l Latencies
			for _, d := range tc.in {
				l.Add(d)
			}
			if got := l.Percentile(tc.p); got != tc.want {
				t.Errorf("Percentile(%v) of %v = %v, want %v", tc.p, tc.in, got, tc.want)
			}
		})
	}
}

func TestLatenciesConcurrentAdds(t *testing.T) {
	var l Latencies
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				l.Add(time.Duration(i))
			}
		}()
	}
	wg.Wait()
	if l.Len() != 8000 {
		t.Fatalf("recorded %d, want 8000", l.Len())
	}
	if got := l.Percentile(1); got != 999 {
		t.Errorf("max %v, want 999ns", got)
	}
}

func TestRate(t *testing.T) {
	for _, tc := range []struct {
		n    int
		d    time.Duration
		want float64
	}{
		{1000, time.Second, 1000},
		{500, 250 * time.Millisecond, 2000},
		{10, 0, 0},
		{0, time.Second, 0},
	} {
		if got := Rate(tc.n, tc.d); got != tc.want {
			t.Errorf("Rate(%d, %v) = %v, want %v", tc.n, tc.d, got, tc.want)
		}
	}
}

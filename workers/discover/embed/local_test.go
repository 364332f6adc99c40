package embed

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestLocalVectorsAreUnitOrZero(t *testing.T) {
	l := testLocal(t)
	for _, text := range []string{"weather forecast", "getTeamStats", "zzqx unknown", "The THE weather"} {
		if n := norm2(embedQuery(t, l, text)); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: squared norm %g, want 1", text, n)
		}
	}
	for _, text := range []string{"", "   ", "!!! ???", "42 2024", "a b", "the The"} {
		if n := norm2(embedQuery(t, l, text)); n != 0 {
			t.Errorf("%q has nothing to embed but got squared norm %g", text, n)
		}
	}
}

func TestLocalSimilarity(t *testing.T) {
	l := testLocal(t)
	for _, tc := range []struct{ query, near, far string }{
		{"will it rain", "weather forecast", "google maps scraper"},
		{"a map of the town", "google maps scraper", "get weather forecast"},
		{"play a song", "YouTube mp3", "weather forecast"},
	} {
		q, near, far := embedQuery(t, l, tc.query), embedQuery(t, l, tc.near), embedQuery(t, l, tc.far)
		if dot(q, near) <= dot(q, far) {
			t.Errorf("%q: cosine to %q %.3f not above %q %.3f", tc.query, tc.near, dot(q, near), tc.far, dot(q, far))
		}
	}
}

// Identifiers, word splits and digits must embed like the words they hold.
func TestLocalTokenEquivalence(t *testing.T) {
	l := testLocal(t)
	for _, tc := range []struct {
		name string
		a, b string
	}{
		{"camelCase", "getWeatherForecast", "get weather forecast"},
		{"snake_case", "google_maps_scraper", "google maps scraper"},
		{"kebab-case", "weather-forecast", "weather forecast"},
		{"acronym", "MAPScraper", "map scraper"},
		{"case", "WEATHER Forecast", "weather forecast"},
		{"known whole word first", "YouTube", "youtube"},
		{"numbers dropped", "limit 50 maps", "limit maps"},
		{"digits kept when known", "mp3", "mp3"},
		{"letters split from digits", "ipv6", "ipv"},
		{"sub-words", "airquality", "air quality"},
		{"sub-words in an identifier", "getAirqualityForecast", "get air quality forecast"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := embedQuery(t, l, tc.a), embedQuery(t, l, tc.b)
			if d := dot(a, b); d < 0.9999 {
				t.Errorf("cosine(%q, %q) = %.5f, want 1", tc.a, tc.b, d)
			}
		})
	}
}

func TestLocalUnknownWords(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []LocalOption
		text    string
		nonzero bool
	}{
		{"n-grams", nil, "zzqxw", true},
		{"n-grams off", []LocalOption{WithNgramWeight(0)}, "zzqxw", false},
		{"too short for n-grams", nil, "zq", false},
		{"unsplittable without sub-words", []LocalOption{WithSubwords(false), WithNgramWeight(0)}, "airquality", false},
		{"beyond the vocabulary limit", []LocalOption{WithVocabLimit(2), WithNgramWeight(0)}, "weather", false},
		{"within the vocabulary limit", []LocalOption{WithVocabLimit(3), WithNgramWeight(0)}, "weather", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := embedQuery(t, testLocal(t, tc.opts...), tc.text)
			if got := norm2(v) > 0; got != tc.nonzero {
				t.Errorf("%q: nonzero = %v, want %v", tc.text, got, tc.nonzero)
			}
		})
	}
}

func TestLocalCommonComponentRemoved(t *testing.T) {
	l := testLocal(t)
	v := embedQuery(t, l, "the weather")
	if math.Abs(float64(v[3])) > 1e-6 {
		t.Errorf("component along the common direction = %g, want 0", v[3])
	}
	kept := embedQuery(t, testLocal(t, WithCommonComponents(0)), "the weather")
	if kept[3] == 0 {
		t.Error("with no components removed the function-word axis vanished anyway")
	}
}

func TestLocalDocumentsMatchQueries(t *testing.T) {
	l := testLocal(t)
	texts := []string{"weather forecast", "", "google maps scraper", "getTeamStats"}
	docs, err := l.EmbedDocuments(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(docs), len(texts))
	}
	for i, text := range texts {
		if !slices.Equal(docs[i], embedQuery(t, l, text)) {
			t.Errorf("%q: document vector differs from query vector", text)
		}
	}
}

func TestLocalConcurrent(t *testing.T) {
	l := testLocal(t)
	texts := []string{"weather forecast", "google maps scraper", "getTeamStats", "zzqxw airquality"}
	want := make([][]float32, len(texts))
	for i, text := range texts {
		want[i] = embedQuery(t, l, text)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 200 {
				i := (g + k) % len(texts)
				v, err := l.EmbedQuery(context.Background(), texts[i])
				if err != nil || !slices.Equal(v, want[i]) {
					errs <- texts[i]
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for text := range errs {
		t.Errorf("%q embedded differently under concurrency", text)
	}
}

func TestLocalAllocatesOnlyTheResult(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	l := testLocal(t)
	ctx := context.Background()
	text := "getWeatherForecast for the google_maps scraper airquality zzqxw, limit 50"
	if _, err := l.EmbedQuery(ctx, text); err != nil { // warm the pool
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = l.EmbedQuery(ctx, text) }); n > 1 {
		t.Errorf("EmbedQuery made %v allocations, want 1 (the vector)", n)
	}
}

func TestLocalID(t *testing.T) {
	base := testLocal(t).ID()
	if !strings.HasPrefix(base, "local:test-vectors@0:v") {
		t.Errorf("id %q does not name the vectors", base)
	}
	if again := testLocal(t).ID(); again != base {
		t.Errorf("id not stable: %q then %q", base, again)
	}
	seen := map[string]string{base: "default"}
	for name, opt := range map[string]LocalOption{
		"sif":    WithSIF(1e-3),
		"common": WithCommonComponents(2),
		"ngram":  WithNgramWeight(0.5),
		"vocab":  WithVocabLimit(5),
		"split":  WithSubwords(false),
	} {
		id := testLocal(t, opt).ID()
		if prev, dup := seen[id]; dup {
			t.Errorf("%s and %s share the id %q", name, prev, id)
		}
		seen[id] = name
	}
}

func TestLocalOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  LocalOption
	}{
		{"sif negative", WithSIF(-1)},
		{"sif NaN", WithSIF(math.NaN())},
		{"common negative", WithCommonComponents(-1)},
		{"common beyond the file", WithCommonComponents(3)},
		{"ngram negative", WithNgramWeight(-1)},
		{"vocab negative", WithVocabLimit(-1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewLocal(WithVectors(testVectors(t)), tc.opt); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func TestLocalUnavailable(t *testing.T) {
	_, err := NewLocal(WithVectors([]byte("not vectors")))
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("NewLocal over garbage = %v, want ErrUnavailable", err)
	}
}

func TestLocalCanceled(t *testing.T) {
	l := testLocal(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.EmbedQuery(ctx, "weather"); !errors.Is(err, context.Canceled) {
		t.Errorf("EmbedQuery = %v, want context.Canceled", err)
	}
	if _, err := l.EmbedDocuments(ctx, []string{"weather"}); !errors.Is(err, context.Canceled) {
		t.Errorf("EmbedDocuments = %v, want context.Canceled", err)
	}
}

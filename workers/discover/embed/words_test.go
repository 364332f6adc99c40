package embed

import (
	"testing"

	"github.com/toolyard/toolyard/training/eval/evaltest"
)

func TestWordVector(t *testing.T) {
	l, err := NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	cos := func(a, b string) float64 {
		va, vb := l.WordVector(a), l.WordVector(b)
		if va == nil || vb == nil {
			t.Fatalf("no vector for %q or %q", a, b)
		}
		var s float64
		for i := range va {
			s += float64(va[i]) * float64(vb[i])
		}
		return s
	}
	if c := cos("Weather", "weather"); c < 0.999 {
		t.Errorf("cos(Weather, weather) = %.3f, want 1", c)
	}
	if near, far := cos("weather", "forecast"), cos("weather", "guitar"); near <= far {
		t.Errorf("cos(weather, forecast) %.3f <= cos(weather, guitar) %.3f", near, far)
	}
	if l.WordVector("qzxqzxqzx") != nil || l.WordVector("") != nil {
		t.Error("unknown word has a vector")
	}
	if r, ok := l.WordRank("the"); !ok || r > 5 {
		t.Errorf("rank of the = %d, %v", r, ok)
	}
}

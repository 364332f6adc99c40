package vecindex

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDotKernels checks the selected kernel against a float64 reference at
// every length around the kernel's 32- and 8-wide steps.
func TestDotKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := 0; n <= 80; n++ {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
			want += float64(a[i]) * float64(b[i])
		}
		for name, f := range map[string]func(a, b []float32) float32{"dot": dot, "generic": dotGeneric} {
			if got := f(a, b); math.Abs(float64(got)-want) > 1e-4*(1+math.Abs(want)) {
				t.Errorf("%s(n=%d) = %v, want %v", name, n, got, want)
			}
		}
	}
}

func BenchmarkDot(b *testing.B) {
	for _, dim := range []int{100, 384, 1536} {
		x, y := make([]float32, dim), make([]float32, dim)
		for i := range x {
			x[i], y[i] = float32(i%7), float32(i%5)
		}
		b.Run("dim="+itoa(dim), func(b *testing.B) {
			for b.Loop() {
				sinkScore = dot(x, y)
			}
		})
		b.Run("generic/dim="+itoa(dim), func(b *testing.B) {
			for b.Loop() {
				sinkScore = dotGeneric(x, y)
			}
		})
	}
}

var sinkScore float32

// Dot3 is three Dots, bit for bit, at every length (the 32-, 8- and
// scalar parts of the kernel).
func TestDot3IsThreeDots(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vec := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	for n := 1; n <= 140; n++ {
		a0, a1, a2, b := vec(n), vec(n), vec(n), vec(n)
		var out [3]float32
		Dot3(a0, a1, a2, b, &out)
		for i, a := range [][]float32{a0, a1, a2} {
			if want := Dot(a, b); math.Float32bits(out[i]) != math.Float32bits(want) {
				t.Fatalf("n=%d: Dot3[%d] = %v, Dot = %v", n, i, out[i], want)
			}
		}
	}
}

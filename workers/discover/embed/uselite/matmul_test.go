package uselite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func randomMatrix(r *rand.Rand, n int) []float32 {
	m := make([]float32, n)
	for i := range m {
		m[i] = r.Float32() - 0.5
	}
	return m
}

// allKernels is every kernel this machine runs, then plain Go (nil).
func allKernels() []*kernel { return append(kernels(), nil) }

func kernelName(k *kernel) string {
	if k == nil {
		return "go"
	}
	return k.name
}

// TestMatMulKernelsAgree holds every kernel to a float64 reference, on
// row counts that do and do not fill the kernels' four-row blocks and on
// widths the kernels cannot take.
func TestMatMulKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := []struct{ n, in, out int }{
		{1, 256, 512}, {3, 256, 768}, {4, 512, 1536}, {5, 1, 64},
		{17, 1536, 512}, {128, 512, 512}, {2, 7, 40}, {6, 33, 80},
	}
	for _, kn := range allKernels() {
		for _, s := range shapes {
			t.Run(fmt.Sprintf("%s/%dx%dx%d", kernelName(kn), s.n, s.in, s.out), func(t *testing.T) {
				x, w := randomMatrix(r, s.n*s.in), randomMatrix(r, s.in*s.out)
				y := randomMatrix(r, s.n*s.out) // a product adds to what y holds
				want := make([]float64, len(y))
				for i := range s.n {
					for c := range s.out {
						v := float64(y[i*s.out+c])
						for k := range s.in {
							v += float64(x[i*s.in+k]) * float64(w[k*s.out+c])
						}
						want[i*s.out+c] = v
					}
				}
				matmulWith(kn, y, x, w, s.n, s.in, s.out)
				for i, v := range y {
					if math.Abs(float64(v)-want[i]) > 1e-4*math.Sqrt(float64(s.in))+1e-5 {
						t.Fatalf("element %d (row %d, column %d): got %v, want %v", i, i/s.out, i%s.out, v, want[i])
					}
				}
			})
		}
	}
}

// BenchmarkMatMul times one product of the encoder's largest shape for a
// 20-piece text, with each kernel this machine runs and in plain Go.
func BenchmarkMatMul(b *testing.B) {
	const n, in, out = 20, 512, 1536
	r := rand.New(rand.NewPCG(1, 2))
	x, w := randomMatrix(r, n*in), randomMatrix(r, in*out)
	y := make([]float32, n*out)
	for _, kn := range allKernels() {
		b.Run(kernelName(kn), func(b *testing.B) {
			for b.Loop() {
				matmulWith(kn, y, x, w, n, in, out)
			}
		})
	}
}

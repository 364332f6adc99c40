//go:build amd64 && !purego

package vecindex

import "golang.org/x/sys/cpu"

// hasAVX2 selects the FMA kernel: 8 lanes and fused multiply-adds make a
// dimension-100 dot product about 5× faster than the portable loop, and
// the dot product is nearly all of both a scan and a graph search.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotAVX2(a, b *float32, n int) float32

func dot(a, b []float32) float32 {
	if hasAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		return dotAVX2(&a[0], &b[0], len(a))
	}
	return dotGeneric(a, b)
}

//go:build !amd64 || purego

package vecindex

func dot(a, b []float32) float32 { return dotGeneric(a, b) }

func prefetch(*float32, int) {}

func dot3(a0, a1, a2, b []float32, out *[3]float32) {
	out[0], out[1], out[2] = dotGeneric(a0, b), dotGeneric(a1, b), dotGeneric(a2, b)
}

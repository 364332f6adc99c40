//go:build !amd64 || purego

package vecindex

func dot(a, b []float32) float32 { return dotGeneric(a, b) }

func prefetch(*float32, int) {}

//go:build !amd64

package uselite

func kernels() []*kernel { return nil }

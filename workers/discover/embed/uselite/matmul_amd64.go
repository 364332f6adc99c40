package uselite

import "golang.org/x/sys/cpu"

// gemm4x64 is the AVX-512 kernel: 4 rows × 64 columns, sixteen zmm
// accumulators.
//
//go:noescape
func gemm4x64(k int, x *float32, xstride uintptr, w *float32, wstride uintptr, y *float32, ystride uintptr)

// gemm4x16 is the AVX2 + FMA kernel: 4 rows × 16 columns, eight ymm
// accumulators.
//
//go:noescape
func gemm4x16(k int, x *float32, xstride uintptr, w *float32, wstride uintptr, y *float32, ystride uintptr)

var (
	avx512 = &kernel{name: "avx512", width: 64, run: gemm4x64}
	avx2   = &kernel{name: "avx2", width: 16, run: gemm4x16}
)

// kernels lists the kernels this processor and OS can run, fastest first.
func kernels() []*kernel {
	var ks []*kernel
	// x/sys/cpu reports a feature only when the OS also saves its
	// registers.
	if cpu.X86.HasAVX512F {
		ks = append(ks, avx512)
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, avx2)
	}
	return ks
}

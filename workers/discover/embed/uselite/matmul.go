package uselite

// The encoder's time is nearly all matrix products (x·W for a few to 128
// rows against 256–1536-wide weights), so they get a register-blocked
// kernel in assembly where the processor allows (matmul_amd64.s): each
// step loads a strip of W once and multiply-adds it into four rows at a
// time. On this project's 2-core Xeon a 20×512 by 512×1536 product takes
// 0.29 ms with the AVX-512 kernel and 4.9 ms in plain Go (go test -bench
// MatMul). The libraries measured slower, with a throwaway benchmark on
// the same shapes: gonum's blas32.Gemm 1.5 ms, vek's AVX2 MatMul 0.97 ms
// using both cores.

// kernel is a micro-kernel: y[r][c] += Σ_k x[r][k]·w[k][c] for r < 4 and c
// below its width, x, w and y addressed by pointer and row stride in bytes.
type kernel struct {
	name  string
	width int // columns per call
	run   func(k int, x *float32, xstride uintptr, w *float32, wstride uintptr, y *float32, ystride uintptr)
}

// rows is how many rows of x every kernel call takes.
const rows = 4

// best is the fastest kernel this processor runs, nil for plain Go.
var best = fastestKernel()

// matmul adds x·w to y, where x is n × in, w in × out and y n × out, all
// row-major.
func matmul(y, x, w []float32, n, in, out int) {
	matmulWith(best, y, x, w, n, in, out)
}

func matmulWith(kn *kernel, y, x, w []float32, n, in, out int) {
	if kn == nil || out%kn.width != 0 || n == 0 {
		matmulGo(y, x, w, n, in, out)
		return
	}
	// Kernels take rows four at a time. Column strips outermost: a strip
	// of w (in × width) stays in cache while every row block passes over
	// it.
	full := n / rows * rows
	for c := 0; c < out; c += kn.width {
		for r := 0; r < full; r += rows {
			kn.run(in, &x[r*in], uintptr(in*4), &w[c], uintptr(out*4), &y[r*out+c], uintptr(out*4))
		}
	}
	if full == n {
		return
	}
	// The short last block goes through four-row copies, zero-padded:
	// copying just these rows, not the whole matrices.
	tail := n - full
	xt := make([]float32, rows*in)
	yt := make([]float32, rows*out)
	copy(xt, x[full*in:n*in])
	copy(yt, y[full*out:n*out])
	for c := 0; c < out; c += kn.width {
		kn.run(in, &xt[0], uintptr(in*4), &w[c], uintptr(out*4), &yt[c], uintptr(out*4))
	}
	copy(y[full*out:n*out], yt[:tail*out])
}

// matmulGo is the portable product.
func matmulGo(y, x, w []float32, n, in, out int) {
	for t := range n {
		row := y[t*out : (t+1)*out]
		for k, a := range x[t*in : (t+1)*in] {
			if a == 0 {
				continue
			}
			axpy(row, w[k*out:(k+1)*out], a)
		}
	}
}

// axpy adds a·w to y.
func axpy(y, w []float32, a float32) {
	w = w[:len(y)]
	for i := range y {
		y[i] += a * w[i]
	}
}

func fastestKernel() *kernel {
	if ks := kernels(); len(ks) > 0 {
		return ks[0]
	}
	return nil
}

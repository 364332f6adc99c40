#include "textflag.h"

// ARGS loads both kernels' arguments: CX the steps, SI x, R8 its row
// stride (R11 three strides), DI w, R9 its row stride, DX and R12 y, R10
// its row stride.
#define ARGS \
	MOVQ k+0(FP), CX; \
	MOVQ x+8(FP), SI; \
	MOVQ xstride+16(FP), R8; \
	MOVQ w+24(FP), DI; \
	MOVQ wstride+32(FP), R9; \
	MOVQ y+40(FP), DX; \
	MOVQ ystride+48(FP), R10; \
	LEAQ (R8)(R8*2), R11; \
	MOVQ DX, R12

#define ROW(off, a, b, c, d) \
	VMOVUPS (off), a; VMOVUPS 64(off), b; VMOVUPS 128(off), c; VMOVUPS 192(off), d

#define STORE(off, a, b, c, d) \
	VMOVUPS a, (off); VMOVUPS b, 64(off); VMOVUPS c, 128(off); VMOVUPS d, 192(off)

// gemm4x64 adds x·w to y for 4 rows of x and 64 columns of w (strides in
// bytes): sixteen zmm accumulators, each step loading a 64-wide strip of w
// once and broadcasting one value of each row.
//
// func gemm4x64(k int, x *float32, xstride uintptr, w *float32, wstride uintptr, y *float32, ystride uintptr)
TEXT ·gemm4x64(SB), NOSPLIT, $0-56
	ARGS
	ROW(R12, Z0, Z1, Z2, Z3)
	ADDQ R10, R12
	ROW(R12, Z4, Z5, Z6, Z7)
	ADDQ R10, R12
	ROW(R12, Z8, Z9, Z10, Z11)
	ADDQ R10, R12
	ROW(R12, Z12, Z13, Z14, Z15)
	TESTQ CX, CX
	JZ done

loop:
	VMOVUPS (DI), Z16
	VMOVUPS 64(DI), Z17
	VMOVUPS 128(DI), Z18
	VMOVUPS 192(DI), Z19
	VBROADCASTSS (SI), Z20
	VBROADCASTSS (SI)(R8*1), Z21
	VBROADCASTSS (SI)(R8*2), Z22
	VBROADCASTSS (SI)(R11*1), Z23
	VFMADD231PS Z16, Z20, Z0
	VFMADD231PS Z17, Z20, Z1
	VFMADD231PS Z18, Z20, Z2
	VFMADD231PS Z19, Z20, Z3
	VFMADD231PS Z16, Z21, Z4
	VFMADD231PS Z17, Z21, Z5
	VFMADD231PS Z18, Z21, Z6
	VFMADD231PS Z19, Z21, Z7
	VFMADD231PS Z16, Z22, Z8
	VFMADD231PS Z17, Z22, Z9
	VFMADD231PS Z18, Z22, Z10
	VFMADD231PS Z19, Z22, Z11
	VFMADD231PS Z16, Z23, Z12
	VFMADD231PS Z17, Z23, Z13
	VFMADD231PS Z18, Z23, Z14
	VFMADD231PS Z19, Z23, Z15
	ADDQ $4, SI
	ADDQ R9, DI
	DECQ CX
	JNZ loop

done:
	MOVQ DX, R12
	STORE(R12, Z0, Z1, Z2, Z3)
	ADDQ R10, R12
	STORE(R12, Z4, Z5, Z6, Z7)
	ADDQ R10, R12
	STORE(R12, Z8, Z9, Z10, Z11)
	ADDQ R10, R12
	STORE(R12, Z12, Z13, Z14, Z15)
	VZEROUPPER
	RET

#define ROW16(off, a, b) \
	VMOVUPS (off), a; VMOVUPS 32(off), b

#define STORE16(off, a, b) \
	VMOVUPS a, (off); VMOVUPS b, 32(off)

// gemm4x16 is gemm4x64 for AVX2 + FMA: 4 rows × 16 columns, eight ymm
// accumulators.
//
// func gemm4x16(k int, x *float32, xstride uintptr, w *float32, wstride uintptr, y *float32, ystride uintptr)
TEXT ·gemm4x16(SB), NOSPLIT, $0-56
	ARGS
	ROW16(R12, Y0, Y1)
	ADDQ R10, R12
	ROW16(R12, Y2, Y3)
	ADDQ R10, R12
	ROW16(R12, Y4, Y5)
	ADDQ R10, R12
	ROW16(R12, Y6, Y7)
	TESTQ CX, CX
	JZ done16

loop16:
	VMOVUPS (DI), Y8
	VMOVUPS 32(DI), Y9
	VBROADCASTSS (SI), Y10
	VBROADCASTSS (SI)(R8*1), Y11
	VBROADCASTSS (SI)(R8*2), Y12
	VBROADCASTSS (SI)(R11*1), Y13
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y1
	VFMADD231PS Y8, Y11, Y2
	VFMADD231PS Y9, Y11, Y3
	VFMADD231PS Y8, Y12, Y4
	VFMADD231PS Y9, Y12, Y5
	VFMADD231PS Y8, Y13, Y6
	VFMADD231PS Y9, Y13, Y7
	ADDQ $4, SI
	ADDQ R9, DI
	DECQ CX
	JNZ loop16

done16:
	MOVQ DX, R12
	STORE16(R12, Y0, Y1)
	ADDQ R10, R12
	STORE16(R12, Y2, Y3)
	ADDQ R10, R12
	STORE16(R12, Y4, Y5)
	ADDQ R10, R12
	STORE16(R12, Y6, Y7)
	VZEROUPPER
	RET

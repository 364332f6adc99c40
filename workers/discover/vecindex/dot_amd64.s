//go:build amd64 && !purego

#include "textflag.h"

// func dotAVX2(a, b *float32, n int) float32
//
// Four 8-lane accumulators hide the FMA latency; 8-wide and scalar loops
// take the rest of a dimension that is not a multiple of 32.
TEXT ·dotAVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop32

loop8:
	CMPQ CX, $8
	JL   reduce
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop8

reduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0

tail:
	TESTQ CX, CX
	JE    done
	VMOVSS (SI), X1
	VFMADD231SS (DI), X1, X0
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JMP  tail

done:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET
// func prefetch(p *float32, n int)
//
// Asks for every cache line of an n-float vector without waiting for them.
TEXT ·prefetch(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	SHLQ $2, CX
	ADDQ SI, CX

loop:
	PREFETCHT0 (SI)
	ADDQ $64, SI
	CMPQ SI, CX
	JL   loop
	RET

// func dot3AVX2(a0, a1, a2, b *float32, n int, out *[3]float32)
//
// Three dot products against one b, each summed in exactly dotAVX2's order
// (four 8-lane accumulators over 32-float blocks, the 8-float loop into the
// first, the same reduction, then the scalar tail), so every result is
// bit-for-bit dotAVX2's; b is read once for the three. Y0-Y3 accumulate
// a0·b, Y4-Y7 a1·b, Y8-Y11 a2·b; Y12-Y15 hold b's block.
TEXT ·dot3AVX2(SB), NOSPLIT, $0-48
	MOVQ a0+0(FP), AX
	MOVQ a1+8(FP), BX
	MOVQ a2+16(FP), DX
	MOVQ b+24(FP), DI
	MOVQ n+32(FP), CX
	MOVQ out+40(FP), R8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	VMOVUPS 64(DI), Y14
	VMOVUPS 96(DI), Y15
	VFMADD231PS (AX), Y12, Y0
	VFMADD231PS 32(AX), Y13, Y1
	VFMADD231PS 64(AX), Y14, Y2
	VFMADD231PS 96(AX), Y15, Y3
	VFMADD231PS (BX), Y12, Y4
	VFMADD231PS 32(BX), Y13, Y5
	VFMADD231PS 64(BX), Y14, Y6
	VFMADD231PS 96(BX), Y15, Y7
	VFMADD231PS (DX), Y12, Y8
	VFMADD231PS 32(DX), Y13, Y9
	VFMADD231PS 64(DX), Y14, Y10
	VFMADD231PS 96(DX), Y15, Y11
	ADDQ $128, AX
	ADDQ $128, BX
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop32

loop8:
	CMPQ CX, $8
	JL   reduce
	VMOVUPS (DI), Y12
	VFMADD231PS (AX), Y12, Y0
	VFMADD231PS (BX), Y12, Y4
	VFMADD231PS (DX), Y12, Y8
	ADDQ $32, AX
	ADDQ $32, BX
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop8

reduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	VADDPS Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPS X5, X4, X4
	VHADDPS X4, X4, X4
	VHADDPS X4, X4, X4
	VADDPS Y9, Y8, Y8
	VADDPS Y11, Y10, Y10
	VADDPS Y10, Y8, Y8
	VEXTRACTF128 $1, Y8, X9
	VADDPS X9, X8, X8
	VHADDPS X8, X8, X8
	VHADDPS X8, X8, X8

tail:
	TESTQ CX, CX
	JE    done
	VMOVSS (DI), X12
	VFMADD231SS (AX), X12, X0
	VFMADD231SS (BX), X12, X4
	VFMADD231SS (DX), X12, X8
	ADDQ $4, AX
	ADDQ $4, BX
	ADDQ $4, DX
	ADDQ $4, DI
	DECQ CX
	JMP  tail

done:
	VZEROUPPER
	MOVSS X0, 0(R8)
	MOVSS X4, 4(R8)
	MOVSS X8, 8(R8)
	RET

//go:build amd64 && !purego

#include "textflag.h"

// The classes of 16 bytes in X, one bit a byte in R (see byteMap); T is scratch.
// A byte is <= 0x20 when the smaller of it and 0x20 (X8) is itself.
#define LOW(X, T, R) MOVO X, T; PMINUB X8, T; PCMPEQB X, T; PMOVMSKB T, R
// A byte equal to C.
#define EQ(X, C, T, R) MOVO X, T; PCMPEQB C, T; PMOVMSKB T, R
// D := a byte's digit flag: b-'0' (X10) is at most 9 (X11), as the smaller of it and 9 is itself.
#define DIGIT(X, D, R) MOVO X, D; PSUBB X10, D; MOVO D, X14; PMINUB X11, X14; PCMPEQB X14, D; PMOVMSKB D, R
// D (a digit flag) := a digit or '/' (X12).
#define OR_SLASH(X, D, R) MOVO X, X14; PCMPEQB X12, X14; POR X14, D; PMOVMSKB D, R
// D := '/' (X12) or '=' (X13).
#define SLASH_EQ(X, D, R) MOVO X, X14; PCMPEQB X12, X14; MOVO X, D; PCMPEQB X13, D; POR X14, D; PMOVMSKB D, R
// AX := the four 16-bit masks in AX, BX, DX, DI as one 64-bit word, AX's lowest.
#define JOIN SHLQ $16, BX; SHLQ $32, DX; SHLQ $48, DI; ORQ BX, AX; ORQ DI, DX; ORQ DX, AX

#define BCAST(V, X) MOVQ V, AX; MOVQ AX, X; PUNPCKLQDQ X, X

// func classifyBlocks(p *byte, blocks int, low, nl, digit, dos, slashEq *uint64)
TEXT ·classifyBlocks(SB), NOSPLIT, $0-56
	MOVQ p+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ low+16(FP), R8
	MOVQ nl+24(FP), R9
	MOVQ digit+32(FP), R10
	MOVQ dos+40(FP), R11
	MOVQ slashEq+48(FP), R12
	BCAST($0x2020202020202020, X8)
	BCAST($0x0a0a0a0a0a0a0a0a, X9)
	BCAST($0x3030303030303030, X10)
	BCAST($0x0909090909090909, X11)
	BCAST($0x2f2f2f2f2f2f2f2f, X12)
	BCAST($0x3d3d3d3d3d3d3d3d, X13)
	XORQ R13, R13
	TESTQ CX, CX
	JZ done

loop:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3

	LOW(X0, X4, AX); LOW(X1, X5, BX); LOW(X2, X6, DX); LOW(X3, X7, DI)
	JOIN
	MOVQ AX, (R8)(R13*8)

	EQ(X0, X9, X4, AX); EQ(X1, X9, X5, BX); EQ(X2, X9, X6, DX); EQ(X3, X9, X7, DI)
	JOIN
	MOVQ AX, (R9)(R13*8)

	DIGIT(X0, X4, AX); DIGIT(X1, X5, BX); DIGIT(X2, X6, DX); DIGIT(X3, X7, DI)
	JOIN
	MOVQ AX, (R10)(R13*8)

	OR_SLASH(X0, X4, AX); OR_SLASH(X1, X5, BX); OR_SLASH(X2, X6, DX); OR_SLASH(X3, X7, DI)
	JOIN
	MOVQ AX, (R11)(R13*8)

	SLASH_EQ(X0, X4, AX); SLASH_EQ(X1, X5, BX); SLASH_EQ(X2, X6, DX); SLASH_EQ(X3, X7, DI)
	JOIN
	MOVQ AX, (R12)(R13*8)

	ADDQ $64, SI
	INCQ R13
	CMPQ R13, CX
	JB loop

done:
	RET

@ Thumb and ARM-state code in one executable, and data in the code: the
@ words after tdata's return hold the bytes of Thumb and ARM-state returns.
	.syntax unified
	.arch	armv7-a
	.text
	.globl	_start
	.p2align 2
	.thumb
	.thumb_func
	.type	_start, %function
_start:
	movs	r0, #1			@ 2001
	pop	{r4, pc}		@ bd10: gadgets at _start and _start+2
	.size	_start, .-_start

	.p2align 2
	.arm
	.type	afun, %function
afun:
	mov	r0, r1			@ e1a00001
	bx	lr			@ e12fff1e: gadgets at afun and afun+4
	.size	afun, .-afun

	.thumb
	.thumb_func
	.type	tdata, %function
tdata:
	bx	lr			@ 4770: one gadget
	.p2align 2
	.word	0x47704770		@ data: two Thumb bx lr if decoded
	.word	0xe12fff1e		@ data: an ARM-state bx lr if decoded
	.size	tdata, .-tdata

	.text
	.globl	asm_plus_one
	.type	asm_plus_one,@function
asm_plus_one:
	leal	1(%rdi), %eax
	ret
	.section	.note.GNU-stack,"",@progbits

#define FACTOR_SHIFT 1
	.text
	.globl	pp_times_two
	.type	pp_times_two,@function
pp_times_two:
	movl	%edi, %eax
	shll	$FACTOR_SHIFT, %eax
	ret
	.section	.note.GNU-stack,"",@progbits

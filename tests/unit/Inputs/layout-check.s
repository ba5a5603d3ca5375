# A golden master and rewrites of it, for LayoutCheckTest. CASE selects:
#   0  the golden master: _start calls f and h; a table holds f and a label
#      inside g (a computed goto's); _start's LSDA has a landing pad;
#      h is exported;
#   1  a sound rewrite: f and g moved to slots 4 and 5 (g without its first
#      NOP, as BOLT drops NOPs), their old code trapped, every reference
#      updated;
#   2  as 1, but _start still calls the old f;
#   3  as 1, but the table still points to the old f;
#   4  as 1, but the landing pad is in the old f's trapped code;
#   5  as 1, but the label inside g translated by its old offset, which
#      lands inside an instruction of the new g;
#   6  as 1, but the exported h names trapped code;
#   7  as 1, but the label inside g points to g's start.
# Every case has the same layout: each function in a 64-byte slot.
        .text
        .p2align 6, 0xcc
        .globl _start
        .type _start,@function
_start:
        .cfi_startproc
        .cfi_lsda 0x1b, .Llsda
.if CASE == 2
        call .Lold_f
.else
        call f
.endif
.Lcall_end:
.if CASE == 6
        call f          # h is gone: only its exported name is stale
.else
        call h
.endif
        ud2
.Lpad:
        ud2
        .cfi_endproc
        .size _start, .-_start

        .p2align 6, 0xcc
.if CASE == 0
        .type f,@function
f:
        movl $7, %eax
        ret
        .size f, .-f
.else
.Lold_f:
        .fill 6, 1, 0xcc
.endif

        .p2align 6, 0xcc
.if CASE == 0
        .type g,@function
g:
        nop
        nop
.Lg_label:
        movl $1, %eax
        ret
        .size g, .-g
.else
        .fill 9, 1, 0xcc
.endif

        .p2align 6, 0xcc
        .globl h
.if CASE == 6
        .type h,@object
h:
        .fill 1, 1, 0xcc
.else
        .type h,@function
h:
        ret
        .size h, .-h
.endif

        .p2align 6, 0xcc
.if CASE == 0
        .fill 6, 1, 0xcc
.else
        .type f,@function
f:
        movl $7, %eax
        ret
        .size f, .-f
.endif

        .p2align 6, 0xcc
.if CASE == 0
        .fill 8, 1, 0xcc
.else
        .type g,@function
g:
        nop
.Lg_label:
        movl $1, %eax
        ret
        .size g, .-g
.endif
        .p2align 6, 0xcc

        .section .data.rel.ro,"aw",@progbits
        .p2align 3
table:
.if CASE == 3
        .quad .Lold_f
.else
        .quad f
.endif
.if CASE == 5
        .quad g + 2
.elseif CASE == 7
        .quad g
.else
        .quad .Lg_label
.endif

        .section .gcc_except_table,"a",@progbits
.Llsda:
        .byte 0xff
        .byte 0xff
        .byte 0x01
        .uleb128 .Lcs_end - .Lcs_begin
.Lcs_begin:
        .uleb128 0
        .uleb128 .Lcall_end - _start
.if CASE == 4
        .uleb128 .Lold_f - _start
.else
        .uleb128 .Lpad - _start
.endif
        .byte 0
.Lcs_end:

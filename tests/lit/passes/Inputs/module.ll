; A module for the IR passes (funcs, globals, frames) and the whole
; pipeline: five functions, six global variables in .data, .bss and
; .rodata (one over-aligned), and a function with four stack slots.
source_filename = "module.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g_a = global i32 1, align 4
@g_b = global i32 0, align 4
@g_c = global [4 x i64] zeroinitializer, align 32
@g_d = constant i32 7, align 4
@g_e = global i64 5, align 8
@g_f = global i16 0, align 2

declare void @use(ptr)

define i32 @f_one(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @f_two(i32 %x) {
  %r = mul i32 %x, 2
  ret i32 %r
}

define i32 @f_three(i32 %x) {
  %r = sub i32 %x, 3
  ret i32 %r
}

define i32 @f_four(i32 %x) {
  %r = xor i32 %x, 4
  ret i32 %r
}

define void @f_frame() {
  %s_a = alloca i32, align 4
  %s_b = alloca [16 x i8], align 16
  %s_c = alloca i64, align 8
  %s_d = alloca [3 x i32], align 4
  call void @use(ptr %s_a)
  call void @use(ptr %s_b)
  call void @use(ptr %s_c)
  call void @use(ptr %s_d)
  ret void
}

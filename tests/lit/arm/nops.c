// NOP insertion on 32-bit ARM (Debian armhf) puts three no-op forms
// between instructions, in each instruction set: Thumb (-mthumb, Debian's
// default) nop, nop.w and mov r8, r8; ARM state (clang's default) nop,
// mov r0, r0 and mov r8, r8. Never inside an IT block. Compiling needs no
// cross libraries.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.thumb.s
// RUN: %FileCheck --check-prefix=THUMB %s < %t.thumb.s
// RUN: %divcc --target=arm-linux-gnueabihf -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.arm.s
// RUN: %FileCheck --check-prefix=ARM %s < %t.arm.s
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=two %s -o %t.two.s
// RUN: %not diff -q %t.thumb.s %t.two.s
//
// The same seed gives the same code.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.thumb.s %t.again.s
//
// IT blocks stay whole: with a NOP before every instruction, each IT
// instruction is still followed by the instructions it predicates.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.thumb.o
// RUN: python3 %S/Inputs/it_blocks.py %t.thumb.o | %FileCheck --check-prefix=IT %s
// IT: it blocks: {{[1-9][0-9]*}}
// IT-NEXT: nops outside: {{[1-9][0-9]*}}
// IT-NEXT: broken: 0
//
// Off when not listed, and probability 0 inserts nothing: the code is
// clang's, in both instruction sets.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -S -O2 -fdiversify=funcs -frandom-seed=one %s -o %t.off.s
// RUN: %FileCheck --check-prefix=OFF %s < %t.off.s
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -S -O2 -fno-diversify %s -o %t.none.s
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -S -O2 %s -o %t.clang.s
// RUN: diff %t.clang.s %t.none.s
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fno-diversify %s -o %t.none.o
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -c -O2 %s -o %t.clang.o
// RUN: cmp %t.clang.o %t.none.o
// RUN: %divcc --target=arm-linux-gnueabihf -c -O0 -fno-diversify %s -o %t.none-arm.o
// RUN: %clang --target=arm-linux-gnueabihf -c -O0 %s -o %t.clang-arm.o
// RUN: cmp %t.clang-arm.o %t.none-arm.o
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.zero.s
// RUN: diff %t.none.s %t.zero.s
//
// The machine verifier accepts the code of every transformation, at -O0
// and -O2, in both instruction sets.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v2.o
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O0 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v0.o
// RUN: %divcc --target=arm-linux-gnueabihf -c -O2 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.va2.o
// RUN: %divcc --target=arm-linux-gnueabihf -c -O0 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.va0.o

// Golden masters are for targets divtool rerandomize can lay out again.
// RUN: %not %divcc --target=arm-linux-gnueabihf -O2 -fdiversify-golden %s -o %t.golden 2>&1 | %FileCheck --check-prefix=GOLDEN %s
// GOLDEN: divcc: error: -fdiversify-golden: divtool rerandomize (LLVM BOLT) lays out x86-64 and AArch64 programs only, not arm-unknown-linux-gnueabihf

// THUMB-DAG: {{^}}	nop{{$}}
// THUMB-DAG: {{^}}	nop.w{{$}}
// THUMB-DAG: {{^}}	mov	r8, r8{{$}}
// ARM-DAG: {{^}}	nop{{$}}
// ARM-DAG: {{^}}	mov	r0, r0{{$}}
// ARM-DAG: {{^}}	mov	r8, r8{{$}}

// OFF-NOT: {{^}}	nop
// OFF-NOT: r8, r8

int clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

int select3(int a, int b, int c) {
  if (a > b) {
    c += a;
    b ^= c;
  } else {
    c -= b;
  }
  return b * c;
}

long long mix(long long a, int n) {
  for (int i = 0; i < n; ++i)
    a = a * 6364136223846793005ULL + (unsigned)i;
  return a;
}

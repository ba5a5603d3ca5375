// `saves` on 32-bit ARM (ARMDiversityTarget::freeCalleeSaveChoices): a
// function's push and pop take up to two callee-saved registers more than
// it modifies, where that costs no instruction and no byte: a pair where
// it saves an even number, one where an odd number (which the frame
// lowering pads itself, with a register or a `sub sp`), in Thumb low
// registers unless it saves a high one already. Two seeds draw other lists,
// the same seed the same; with the lists and the frame offsets they move
// undone (Inputs/undo_saves.py), each function is clang-19's, instruction
// for instruction, in Thumb and in ARM state, under the machine verifier;
// -g changes no code; and the program prints what clang-19's prints.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -c -O2 %s -o %t/clang-thumb.o
// RUN: %clang --target=arm-linux-gnueabihf -marm -c -O2 %s -o %t/clang-arm.o
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fdiversify=saves -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/thumb-one.o
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fdiversify=saves -frandom-seed=two -mllvm -verify-machineinstrs %s -o %t/thumb-two.o
// RUN: %divcc --target=arm-linux-gnueabihf -marm -c -O2 -fdiversify=saves -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/arm-one.o
// RUN: %divcc --target=arm-linux-gnueabihf -marm -c -O2 -fdiversify=saves -frandom-seed=two -mllvm -verify-machineinstrs %s -o %t/arm-two.o
// RUN: python3 %S/Inputs/undo_saves.py %t/thumb-one.o %t/clang-thumb.o | %FileCheck --check-prefix=UNDONE %s
// RUN: python3 %S/Inputs/undo_saves.py %t/thumb-two.o %t/clang-thumb.o | %FileCheck --check-prefix=UNDONE %s
// RUN: python3 %S/Inputs/undo_saves.py %t/arm-one.o %t/clang-arm.o | %FileCheck --check-prefix=UNDONE %s
// RUN: python3 %S/Inputs/undo_saves.py %t/arm-two.o %t/clang-arm.o | %FileCheck --check-prefix=UNDONE %s
// UNDONE: 9 functions, {{[1-9]}} saving other registers than clang's, 0 otherwise changed
//
// The lists of the two seeds differ; a seed gives the same object again.
// RUN: llvm-objcopy -O binary --only-section=.text %t/thumb-one.o %t/thumb-one.text
// RUN: llvm-objcopy -O binary --only-section=.text %t/thumb-two.o %t/thumb-two.text
// RUN: %not cmp -s %t/thumb-one.text %t/thumb-two.text
// RUN: llvm-objcopy -O binary --only-section=.text %t/arm-one.o %t/arm-one.text
// RUN: llvm-objcopy -O binary --only-section=.text %t/arm-two.o %t/arm-two.text
// RUN: %not cmp -s %t/arm-one.text %t/arm-two.text
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fdiversify=saves -frandom-seed=one %s -o %t/thumb-again.o
// RUN: cmp %t/thumb-one.o %t/thumb-again.o
//
// What each function may take, over many seeds (Thumb): a leaf saves
// nothing and gets nothing; one_call saves LR alone, which the frame
// lowering pairs with r7: any one low register; three_live saves five with
// no low register left and pads with `sub sp`: one high register takes the
// padding's place, and the `sub sp` goes.
// RUN: sh -c 'for s in 1 2 3 4 5 6 7 8 9 10 11 12; do %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fdiversify=saves -frandom-seed=$s %s -o %t/s$s.o && llvm-objdump-19 -d --no-show-raw-insn %t/s$s.o || exit 1; done' > %t/seeds.txt
// RUN: %FileCheck --check-prefix=SEEDS %s < %t/seeds.txt
// RUN: %FileCheck --check-prefix=PADDED %s < %t/seeds.txt
// SEEDS-DAG: push {r4, lr}
// SEEDS-DAG: push {r5, lr}
// SEEDS-DAG: push {r6, lr}
// SEEDS-DAG: push {r7, lr}
// SEEDS-DAG: push.w {r4, r5, r6, r7, r{{8|9|10|11}}, lr}
// PADDED-NOT: push {r4, r5, r6, r7, lr}
// PADDED-NOT: sub sp, #0x4
//
// -g draws the same registers; at -O0, which has no `saves`, the verifier
// passes.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -g -fdiversify=saves -frandom-seed=one %s -o %t/thumb-g.o
// RUN: llvm-objcopy -O binary --only-section=.text %t/thumb-g.o %t/thumb-g.text
// RUN: cmp %t/thumb-one.text %t/thumb-g.text
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O0 -fdiversify=saves -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/thumb-o0.o
//
// Under qemu: both states, two seeds and the default set print what
// clang-19's build does.
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -fuse-ld=lld -O2 %s -o %t/clang
// RUN: %qemu-armhf %t/clang > %t/clang.out
// RUN: %FileCheck --check-prefix=OUT %s < %t/clang.out
// OUT: 13 17 158 24 188 147 98 28
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O2 -fdiversify=saves -frandom-seed=one %s -o %t/thumb-one
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O2 -fdiversify=saves -frandom-seed=two %s -o %t/thumb-two
// RUN: %divcc --target=arm-linux-gnueabihf -marm -O2 -fdiversify=saves -frandom-seed=one %s -o %t/arm-one
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O2 -fdiversify -frandom-seed=three %s -o %t/default
// RUN: %qemu-armhf %t/thumb-one | diff %t/clang.out -
// RUN: %qemu-armhf %t/thumb-two | diff %t/clang.out -
// RUN: %qemu-armhf %t/arm-one | diff %t/clang.out -
// RUN: %qemu-armhf %t/default | diff %t/clang.out -

#include <stdio.h>

__attribute__((noinline)) int g(int x) { return x * 3 + 1; }
__attribute__((noinline)) int leaf(int a, int b) { return a * b + 1; }
__attribute__((noinline)) int one_call(int a) { return g(a) + 1; }
__attribute__((noinline)) int two_live(int a, int b) {
  return g(a) + g(b) * a + b;
}
__attribute__((noinline)) int three_live(int a, int b, int c) {
  return g(a) * b + g(c) * a + b * c;
}
__attribute__((noinline)) int with_locals(int n) {
  volatile int buf[8];
  for (int i = 0; i < 8; ++i)
    buf[i] = g(i + n);
  int s = 0;
  for (int i = 0; i < 8; ++i)
    s += buf[i];
  return s;
}
__attribute__((noinline)) int many(int a, int b, int c, int d) {
  int x = g(a), y = g(b), z = g(c), w = g(d);
  return ((x + y) ^ (z * w)) + a + b + c + d;
}
__attribute__((noinline)) int stack_args(int a, int b, int c, int d, int e,
                                         int f) {
  return g(a + e) + g(b + f) * c + d;
}

int main(void) {
  printf("%d %d %d %d %d %d %d %d\n", leaf(3, 4), one_call(5), two_live(6, 7),
         three_live(1, 2, 3), with_locals(4), many(1, 2, 3, 4),
         stack_args(1, 2, 3, 4, 5, 6), g(9));
  return 0;
}

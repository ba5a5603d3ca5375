// Trap gaps on AArch64: udf #0 after branches, returns, tail calls and
// calls that do not return; the C and C++ programs of the x86 tests run
// under qemu-user with the output clang's builds give.
// REQUIRES: aarch64-run
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang --target=aarch64-linux-gnu -fuse-ld=lld -O2 %S/../transforms/gaps.c -o %t/clang
// RUN: %qemu-aarch64 %t/clang 5 > %t/clang.out
// RUN: %divcc --target=aarch64-linux-gnu -fuse-ld=lld -O2 -fdiversify=gaps,nops,sched -frandom-seed=1 -mllvm -verify-machineinstrs %S/../transforms/gaps.c -o %t/one
// RUN: %qemu-aarch64 %t/one 5 | diff %t/clang.out -
// RUN: python3 %S/../transforms/Inputs/trap_runs.py %t/one | %FileCheck %s
// CHECK: jump: {{[0-9]+}} return: {{[1-9][0-9]*}} call: {{[0-9]+}} other: 0
//
// RUN: %clang --driver-mode=g++ --target=aarch64-linux-gnu -fuse-ld=lld -O2 %S/../transforms/gaps-eh.cpp -o %t/eh-clang
// RUN: %qemu-aarch64 %t/eh-clang > %t/eh-clang.out
// RUN: %divxx --target=aarch64-linux-gnu -fuse-ld=lld -O2 -fdiversify=gaps,blocks -frandom-seed=2 -mllvm -verify-machineinstrs %S/../transforms/gaps-eh.cpp -o %t/eh
// RUN: %qemu-aarch64 %t/eh | diff %t/eh-clang.out -
// RUN: python3 %S/../transforms/Inputs/trap_runs.py %t/eh | %FileCheck %s --check-prefix=EH
// EH: return: {{[1-9][0-9]*}} call: {{[1-9][0-9]*}} other: 0

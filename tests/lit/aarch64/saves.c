// saves on AArch64: each function stores its callee-saved registers in
// another order, in stp/ldp pairs of general-purpose registers and of D
// registers, with the frame record (x29, x30) kept together and FP
// pointing at it. Every function saves clang's registers with as many
// stores and pairs, every epilogue loads each from the slot its prologue
// stored it in, and the CFI gives each that slot (callee_saves_aarch64.py
// reads the assembly). Compiling needs no cross libraries; saves-run.test
// runs the programs under qemu-user.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fno-diversify %s -o %t/plain.s
// RUN: %clang --target=aarch64-linux-gnu -S -O2 %s -o %t/clang.s
// RUN: diff %t/clang.s %t/plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=saves -frandom-seed=1 %s -o %t/one.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=saves -frandom-seed=2 %s -o %t/two.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/plain.s %t/one.s %t/two.s | %FileCheck %s
// CHECK:      functions: [[N:[0-9]+]]
// CHECK-NEXT: cfi matches saves: yes
// CHECK-NEXT: restores match saves: yes
// CHECK-NEXT: frame record: yes
// CHECK-NEXT: functions: [[N]]
// CHECK-NEXT: cfi matches saves: yes
// CHECK-NEXT: restores match saves: yes
// CHECK-NEXT: frame record: yes
// CHECK-NEXT: same registers: yes
// CHECK-NEXT: same stores and pairs: yes
// CHECK-NEXT: functions saving two or more: [[M:[0-9]+]], in another order: {{[1-9][0-9]*}}
// CHECK-NEXT: functions: [[N]]
// CHECK-NEXT: cfi matches saves: yes
// CHECK-NEXT: restores match saves: yes
// CHECK-NEXT: frame record: yes
// CHECK-NEXT: same registers: yes
// CHECK-NEXT: same stores and pairs: yes
// CHECK-NEXT: functions saving two or more: [[M]], in another order: {{[1-9][0-9]*}}
// RUN: %not diff -q %t/one.s %t/two.s
//
// The two seeds order keep() differently (the stores of its prologue).
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/one.s | grep "^keep:" > %t/one.keep
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/two.s | grep "^keep:" > %t/two.keep
// RUN: %not diff -q %t/one.keep %t/two.keep
//
// The same seed gives the same bytes; -g changes no byte of the code.
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=saves -frandom-seed=1 %s -o %t/one.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=saves -frandom-seed=1 %s -o %t/again.o
// RUN: cmp %t/one.o %t/again.o
// RUN: %divcc --target=aarch64-linux-gnu -c -g -O2 -fdiversify=saves -frandom-seed=1 %s -o %t/debug.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/one.o %t/one.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/debug.o %t/debug.text
// RUN: cmp %t/one.text %t/debug.text
//
// Without saves listed, clang's order.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=funcs,gaps -frandom-seed=1 %s -o %t/unlisted.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/plain.s %t/unlisted.s | %FileCheck %s --check-prefix=UNLISTED
// UNLISTED: in another order: 0
//
// -O0 runs no shrink-wrapping, after which saves runs: the code is
// clang's.
// RUN: %divcc --target=aarch64-linux-gnu -S -O0 -fno-diversify %s -o %t/o0-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O0 -fdiversify=saves -frandom-seed=1 %s -o %t/o0-saves.s
// RUN: diff %t/o0-plain.s %t/o0-saves.s
//
// The machine verifier accepts the code at -O0 and -O2, with and without
// a frame pointer, with branch protection, and with the shadow call stack.
// RUN: %divcc --target=aarch64-linux-gnu -c -O0 -fdiversify=saves -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/v0.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=saves -frandom-seed=2 -mllvm -verify-machineinstrs %s -o %t/v2.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fomit-frame-pointer -fdiversify=saves -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/nofp.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fdiversify=saves -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/fp.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -mbranch-protection=standard -fdiversify=saves -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/pac.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fsanitize=shadow-call-stack -ffixed-x18 -fdiversify=saves -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/scs.o
//
// The same checks in those modes: a frame record in every function with
// -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer (leaf() too), none
// with -fomit-frame-pointer (x29 is an ordinary register), return
// addresses signed with paciasp before the stores, LR kept on the shadow
// call stack too, and -Os.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-diversify %s -o %t/fp-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fdiversify=saves -frandom-seed=1 %s -o %t/fp.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/fp-plain.s %t/fp.s | %FileCheck %s --check-prefix=MODE
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fomit-frame-pointer -fno-diversify %s -o %t/nofp-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fomit-frame-pointer -fdiversify=saves -frandom-seed=1 %s -o %t/nofp.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/nofp-plain.s %t/nofp.s | %FileCheck %s --check-prefix=MODE
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -mbranch-protection=standard -fno-diversify %s -o %t/pac-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -mbranch-protection=standard -fdiversify=saves -frandom-seed=1 %s -o %t/pac.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/pac-plain.s %t/pac.s | %FileCheck %s --check-prefix=MODE
// RUN: %FileCheck %s --check-prefix=PAC < %t/pac.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fsanitize=shadow-call-stack -ffixed-x18 -fno-diversify %s -o %t/scs-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fsanitize=shadow-call-stack -ffixed-x18 -fdiversify=saves -frandom-seed=1 %s -o %t/scs.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/scs-plain.s %t/scs.s | %FileCheck %s --check-prefix=MODE
// RUN: %divcc --target=aarch64-linux-gnu -S -Os -fno-diversify %s -o %t/os-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -Os -fdiversify=saves -frandom-seed=1 %s -o %t/os.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/os-plain.s %t/os.s | %FileCheck %s --check-prefix=MODE
// MODE:      cfi matches saves: yes
// MODE-NEXT: restores match saves: yes
// MODE-NEXT: frame record: yes
// MODE:      cfi matches saves: yes
// MODE-NEXT: restores match saves: yes
// MODE-NEXT: frame record: yes
// MODE-NEXT: same registers: yes
// MODE-NEXT: same stores and pairs: yes
// MODE-NEXT: functions saving two or more: {{[0-9]+}}, in another order: {{[1-9][0-9]*}}
//
// Left alone: minsize functions whose registers the homogeneous prologue
// and epilogue helpers save (-homogeneous-prolog-epilog), which pair them
// by list position; the Win64 convention, Swift's async context and SME's
// streaming-mode changes (Inputs/saves-special.c). The SVE convention's
// general-purpose registers are reordered, its Z and P registers not.
// RUN: %divcc --target=aarch64-linux-gnu -S -Oz -mllvm -homogeneous-prolog-epilog -fno-diversify %s -o %t/hom-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -S -Oz -mllvm -homogeneous-prolog-epilog -fdiversify=saves -frandom-seed=1 %s -o %t/hom.s
// RUN: diff %t/hom-plain.s %t/hom.s
// RUN: %divcc --target=aarch64-linux-gnu -march=armv9-a+sve+sme -S -O2 -fno-diversify %S/Inputs/saves-special.c -o %t/special-plain.s
// RUN: %divcc --target=aarch64-linux-gnu -march=armv9-a+sve+sme -S -O2 -fdiversify=saves -frandom-seed=1 %S/Inputs/saves-special.c -o %t/special.s
// RUN: %divcc --target=aarch64-linux-gnu -march=armv9-a+sve+sme -c -O2 -fdiversify=saves -frandom-seed=1 -mllvm -verify-machineinstrs %S/Inputs/saves-special.c -o %t/special.o
// RUN: awk '/^(win64|swift_async|streaming|streaming_body|streaming_caller):/,/cfi_endproc/' %t/special-plain.s > %t/alone-plain.s
// RUN: awk '/^(win64|swift_async|streaming|streaming_body|streaming_caller):/,/cfi_endproc/' %t/special.s > %t/alone.s
// RUN: %FileCheck %s --check-prefix=ALONE < %t/alone.s
// ALONE-COUNT-5: .cfi_endproc
// RUN: diff %t/alone-plain.s %t/alone.s
// RUN: awk '/^sve:/,/cfi_endproc/' %t/special-plain.s > %t/sve-plain.s
// RUN: awk '/^sve:/,/cfi_endproc/' %t/special.s > %t/sve.s
// RUN: python3 %S/../passes/Inputs/callee_saves_aarch64.py %t/sve-plain.s %t/sve.s | %FileCheck %s --check-prefix=MODE
//
// With branch protection, keep() signs its return address first.
// PAC-LABEL: {{^}}keep:
// PAC:       {{hint #25|paciasp}}
// PAC-NEXT:  .cfi_negate_ra_state
// PAC-NEXT:  {{stp|str}}

// No headers, so that compiling needs no cross libraries: the few
// declarations glibc's would give, jmp_buf with its AArch64 layout.
int printf(const char *, ...);
long atol(const char *);
void *memset(void *, int, unsigned long);
typedef struct {
  unsigned long long Regs[22];
  int MaskWasSaved;
  unsigned long Mask[16];
} jmp_buf[1];
int setjmp(jmp_buf) __attribute__((returns_twice));
void longjmp(jmp_buf, int) __attribute__((noreturn));

__attribute__((noinline)) long g(long x) { return x * 2654435761u % 1000003; }
__attribute__((noinline)) double h(double x) { return x * 0.5 + 1.0; }

// Six general-purpose and three D registers across calls: an even
// number of general-purpose registers, so the frame record goes after an
// even number of them.
__attribute__((noinline)) long keep(long a, long b, long c, double x,
                                    double y) {
  long p = g(a), q = g(b), r = g(c);
  double u = h(x), v = h(y);
  return ((p + q) ^ (r * a)) + b * c + (long)(u * v - x * y);
}

// Seven: one stays unpaired whatever the order.
__attribute__((noinline)) long odd(long a, long b, long c, long d) {
  long x = g(a), y = g(b), z = g(c), w = g(d);
  return ((x + y) ^ (z * w)) + a + b + c + d;
}

// One callee-saved register besides the frame record.
__attribute__((noinline)) long one(long a) { return g(a) + a; }

// A frame too large for the scaled offsets: one more register saved as a
// scavenging scratch.
__attribute__((noinline)) long big(long a, long b) {
  char buf[4000];
  memset(buf, (int)a, sizeof buf);
  long p = g(a + buf[100]), q = g(b + buf[3999]);
  return p * q + a + b + buf[7];
}

// A variable-length array: the epilogue restores SP from FP.
__attribute__((noinline)) long vla(long n, long a) {
  long v[n];
  for (long i = 0; i < n; ++i)
    v[i] = g(a + i);
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += v[i] * (i + 1);
  return s + g(s);
}

// A leaf function short of registers: it saves x29 and x30 as ordinary
// registers, with no frame record unless -mno-omit-leaf-frame-pointer.
#define STEP(k, a, b) s##a = s##a * 31 + p[i + k] + (s##b ^ k);
__attribute__((noinline)) long leaf(const long *p, long n) {
  long s0 = 0, s1 = 1, s2 = 2, s3 = 3, s4 = 4, s5 = 5, s6 = 6, s7 = 7,
       s8 = 8, s9 = 9, s10 = 10, s11 = 11, s12 = 12, s13 = 13, s14 = 14,
       s15 = 15, s16 = 16, s17 = 17, s18 = 18, s19 = 19, s20 = 20, s21 = 21;
  for (long i = 0; i + 22 <= n; i += 22) {
    STEP(0, 0, 21) STEP(1, 1, 0) STEP(2, 2, 1) STEP(3, 3, 2) STEP(4, 4, 3)
    STEP(5, 5, 4) STEP(6, 6, 5) STEP(7, 7, 6) STEP(8, 8, 7) STEP(9, 9, 8)
    STEP(10, 10, 9) STEP(11, 11, 10) STEP(12, 12, 11) STEP(13, 13, 12)
    STEP(14, 14, 13) STEP(15, 15, 14) STEP(16, 16, 15) STEP(17, 17, 16)
    STEP(18, 18, 17) STEP(19, 19, 18) STEP(20, 20, 19) STEP(21, 21, 20)
  }
  return s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s5 ^ s6 ^ s7 ^ s8 ^ s9 ^ s10 ^ s11 ^ s12 ^
         s13 ^ s14 ^ s15 ^ s16 ^ s17 ^ s18 ^ s19 ^ s20 ^ s21;
}

// longjmp out of a function that saved registers: setjmp's buffer, not
// the epilogue, restores them.
static jmp_buf Env;
__attribute__((noinline)) long thrower(long a, long b, long c) {
  long x = g(a), y = g(b), z = g(c);
  if ((x ^ y ^ z) % 3 == 0)
    longjmp(Env, 1);
  return x + y + z + a * b * c;
}

int main(int argc, char **argv) {
  long seed = argc > 1 ? atol(argv[1]) : 7;
  long data[70];
  for (int i = 0; i < 70; ++i)
    data[i] = g(seed + i);
  long sum = 0;
  for (long i = 0; i < 30; ++i) {
    // Live across the calls in callee-saved registers.
    long k1 = seed * i, k2 = seed + i * 3, k3 = i ^ seed;
    double d1 = (double)i / 3, d2 = (double)seed * 1.5;
    sum += keep(seed + i, i, k1, d1, d2);
    sum += odd(i, k1, k2, k3);
    sum += one(k2);
    sum += big(i, k3);
    sum += vla(i % 9 + 1, k1);
    sum += leaf(data, 70);
    if (setjmp(Env) == 0)
      sum += thrower(i, k2, k3);
    else
      sum += 1000;
    sum += k1 * 3 + k2 * 5 + k3 * 7 + (long)(d1 * d2);
  }
  printf("sum %ld\n", sum);
  return 0;
}

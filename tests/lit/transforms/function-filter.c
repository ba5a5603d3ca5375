// -fdiversify-skip=T:FUNCS and -fdiversify-only=T:FUNCS turn a per-function
// transformation off for some functions: those get the code they would have
// without it, and every other function keeps exactly the code it had (each
// function draws from its own stream).
//
// On regs.c's two functions, mix and leaf: the whole file with regs, and
// with regs skipped for mix.
// RUN: %clang -S -O2 %S/regs.c -o %t.clang.s
// RUN: %divcc -S -O2 -fdiversify=regs -frandom-seed=one %S/regs.c -o %t.regs.s
// RUN: %divcc -S -O2 -fdiversify=regs -fdiversify-skip=regs:mix -frandom-seed=one %S/regs.c -o %t.skip.s
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.clang.s > %t.clang.mix
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.clang.s > %t.clang.leaf
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.regs.s > %t.regs.mix
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.regs.s > %t.regs.leaf
//
// regs changes both functions, so each check below could fail.
// RUN: %not diff -q %t.clang.mix %t.regs.mix
// RUN: %not diff -q %t.clang.leaf %t.regs.leaf
//
// Skipped: mix is clang's, leaf is as with regs everywhere.
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.skip.s | diff %t.clang.mix -
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.skip.s | diff %t.regs.leaf -
//
// Only mix: the other way round.
// RUN: %divcc -S -O2 -fdiversify=regs -fdiversify-only=regs:mix -frandom-seed=one %S/regs.c -o %t.only.s
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.only.s | diff %t.regs.mix -
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.only.s | diff %t.clang.leaf -
//
// A list from a file (one name a line), and 'all' for every per-function
// transformation: with sched, regs and nops skipped for mix, mix is
// clang's, and leaf is what the three make of it without the filter.
// RUN: printf 'mix\n\n' > %t.list
// RUN: %divcc -S -O2 -fdiversify=sched,regs,nops -frandom-seed=one %S/regs.c -o %t.three.s
// RUN: %divcc -S -O2 -fdiversify=sched,regs,nops -fdiversify-skip=all:@%t.list -frandom-seed=one %S/regs.c -o %t.three-skip.s
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.three-skip.s | diff %t.clang.mix -
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.three.s > %t.three.leaf
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.three-skip.s | diff %t.three.leaf -
//
// An -fdiversify-only= list that names no function of the file: clang's
// code throughout.
// RUN: %divcc -S -O2 -fdiversify=regs -fdiversify-only=regs:elsewhere -frandom-seed=one %S/regs.c -o %t.none.s
// RUN: diff %t.clang.s %t.none.s
//
// DIVCC_OPTIONS gives the same options to every divcc of a build, after
// the command line's: the same output as on the command line.
// RUN: env DIVCC_OPTIONS="-fdiversify=regs  -fdiversify-skip=regs:mix" %divcc -S -O2 -fno-diversify -frandom-seed=one %S/regs.c -o %t.env.s
// RUN: diff %t.skip.s %t.env.s
//
// frames at -O0 (every local in memory), on this file's function keep:
// skipped, keep's frame is clang's.
// RUN: %clang -S -O0 %s -o %t.clang0.s
// RUN: %divcc -S -O0 -fdiversify=frames -frandom-seed=two %s -o %t.frames.s
// RUN: %divcc -S -O0 -fdiversify=frames -fdiversify-skip=frames:keep -frandom-seed=two %s -o %t.frames-skip.s
// RUN: sed -n '/^keep:/,/^\.Lfunc_end/p' %t.clang0.s > %t.clang0.keep
// RUN: sed -n '/^keep:/,/^\.Lfunc_end/p' %t.frames.s > %t.frames.keep
// RUN: %not diff -q %t.clang0.keep %t.frames.keep
// RUN: sed -n '/^keep:/,/^\.Lfunc_end/p' %t.frames-skip.s | diff %t.clang0.keep -

void consume(char *, int *, long *);

int keep(int n) {
  char buffer[24];
  int count = n;
  long total = 2L * n;
  consume(buffer, &count, &total);
  return count + (int)total + buffer[0];
}

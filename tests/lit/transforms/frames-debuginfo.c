// Permuting the stack slots keeps the variables' debug locations. At -O1+
// clang tracks assignments: each alloca carries a DIAssignID whose
// dbg_assign record must stay right behind it, or the variable (here both
// arrays, which share one slot) loses its location.
// RUN: %divcc -c -O2 -g -fdiversify=frames -frandom-seed=1 %s -o %t.1.o
// RUN: llvm-dwarfdump --debug-info %t.1.o | grep -A1 DW_OP_fbreg | %FileCheck %s
// RUN: %divcc -c -O2 -g -fdiversify=frames -frandom-seed=2 %s -o %t.2.o
// RUN: llvm-dwarfdump --debug-info %t.2.o | grep -A1 DW_OP_fbreg | %FileCheck %s
// RUN: %divcc -c -O2 -g -fdiversify=frames -frandom-seed=3 %s -o %t.3.o
// RUN: llvm-dwarfdump --debug-info %t.3.o | grep -A1 DW_OP_fbreg | %FileCheck %s
// RUN: %divcc -c -O2 -g -fdiversify=frames -frandom-seed=4 %s -o %t.4.o
// RUN: llvm-dwarfdump --debug-info %t.4.o | grep -A1 DW_OP_fbreg | %FileCheck %s
//
// The same as clang's locations.
// RUN: %clang -c -O2 -g %s -o %t.clang.o
// RUN: llvm-dwarfdump --debug-info %t.clang.o | grep -A1 DW_OP_fbreg | %FileCheck %s

// CHECK-DAG: DW_AT_name ("text")
// CHECK-DAG: DW_AT_name ("buf")

void fill(char *, int);
int sum(const char *, int);

int main(void) {
  int total = 0;
  for (int i = 0; i < 3; ++i) {
    char buf[64];
    fill(buf, i);
    buf[i] = 0;
    total += sum(buf, i);
  }
  char text[32];
  fill(text, 5);
  text[1] = 'x';
  total += sum(text, 5);
  return total;
}

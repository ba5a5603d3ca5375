// The program of the tests of longer encodings (`prefixes` on RISC-V with
// C, riscv64/prefixes.test, and in Thumb, arm/prefixes.test): loads and
// stores of every width, shifts, additions, a switch, indirect calls, a
// byte swap, null tests, and functions that save registers.

#include <stdio.h>

struct Account {
  long Balance, Limit;
  int Flags;
  double Rate;
};

__attribute__((noinline)) long settle(struct Account *A, const long *V,
                                      int N) {
  long T = 0;
  for (int I = 0; I < N; ++I)
    T += V[I] * 3 + (V[I] >> 2) - (V[I] << 5);
  A->Balance += T;
  A->Limit = A->Balance ^ T;
  A->Flags = (int)(T & 63);
  A->Rate = A->Rate * 2.0 + 1.0;
  return T + A->Limit;
}

__attribute__((noinline)) int classify(int X) {
  switch (X & 7) {
  case 0: return X + 11;
  case 1: return X * 3;
  case 2: return X ^ 0x55;
  case 3: return X - 7;
  case 4: return X << 2;
  case 5: return X >> 1;
  default: return -X;
  }
}

__attribute__((noinline)) unsigned pack(const unsigned char *B,
                                        const unsigned short *H, int N) {
  unsigned R = 0;
  for (int I = 0; I < N; ++I)
    R = (R << 3) ^ (unsigned)(signed char)B[I] ^ H[I] ^ (R >> 7);
  return R + (unsigned)__builtin_bswap32(R);
}

struct Node {
  struct Node *Next;
  int Value;
};

// Null tests that Thumb-2 writes as cbz/cbnz.
__attribute__((noinline)) int total(const struct Node *N, const int *Extra) {
  int S = 0;
  while (N) {
    S += N->Value;
    N = N->Next;
  }
  if (!Extra)
    return S;
  return S + *Extra;
}

static long twice(long X) { return 2 * X; }
static long square(long X) { return X * X; }
long (*const Ops[])(long) = {twice, square};

int main(int Argc, char **Argv) {
  (void)Argv;
  struct Account A = {1, 2, 3, 4.0};
  long V[16];
  for (int I = 0; I < 16; ++I)
    V[I] = I * Argc + 5;
  long R = settle(&A, V, 16);
  int C = 0;
  for (int I = 0; I < 40; ++I)
    C += classify(I * Argc);
  long O = 0;
  for (int I = 0; I < 10; ++I)
    O += Ops[I & 1](I);
  unsigned char B[8] = {1, 200, 3, 150, 5, 6, 7, 255};
  unsigned short H[8] = {1000, 2, 60000, 4, 5, 6, 7, 8};
  struct Node L[3] = {{&L[1], 4}, {&L[2], 5}, {0, 6}};
  printf("%ld %ld %ld %d %g %d %ld %u %d %d\n", R, A.Balance, A.Limit,
         A.Flags, A.Rate, C, O, pack(B, H, 8 / Argc), total(L, &C),
         total(L, Argc > 5 ? &C : 0));
  return 0;
}

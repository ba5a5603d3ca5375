// A small program for divtool rerandomize: exceptions, a jump table,
// function pointers, a static constructor and a local function per file.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

static std::vector<int> Table;
struct Init {
  Init() {
    for (int I = 0; I < 64; ++I)
      Table.push_back((I * 37) % 61);
  }
} TheInit;

static int classify(int X) {
  switch (X % 7) {
  case 0: return X * 3;
  case 1: return X + 11;
  case 2: return X ^ 0x55;
  case 3: return X - 7;
  case 4: return X * X % 97;
  case 5: return X / 3;
  default: return -X;
  }
}

__attribute__((noinline)) int check(int X) {
  if (X % 13 == 5)
    throw std::runtime_error("bad " + std::to_string(X));
  return classify(X);
}

static bool byDigitSum(int A, int B) {
  return A % 10 != B % 10 ? A % 10 < B % 10 : A < B;
}

int main() {
  long Sum = 0;
  for (int X : Table) {
    try {
      Sum += check(X);
    } catch (const std::exception &E) {
      std::printf("caught %s\n", E.what());
    }
  }
  std::vector<int> Sorted = Table;
  std::sort(Sorted.begin(), Sorted.end(), byDigitSum);
  for (int I = 0; I < 8; ++I)
    std::printf("%d ", Sorted[I]);
  std::printf("\nsum %ld\n", Sum);
  return 0;
}

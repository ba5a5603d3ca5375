// The bundled example: a small program with a few functions, loops and a
// switch, so that every transformation has something to move.
#include <stdio.h>
#include <string.h>

static unsigned crc32(const char *s) {
  unsigned crc = 0xFFFFFFFFu;
  for (; *s; ++s) {
    crc ^= (unsigned char)*s;
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
  }
  return ~crc;
}

static const char *classify(int n) {
  switch (n % 5) {
  case 0: return "fizz";
  case 1: return "one";
  case 2: return "two";
  case 3: return "three";
  default: return "four";
  }
}

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
  const char *words[] = {"code", "reuse", "attacks", "need", "gadgets"};
  for (size_t i = 0; i < sizeof words / sizeof *words; ++i)
    printf("%-8s crc32=%08x %s\n", words[i], crc32(words[i]),
           classify((int)strlen(words[i])));
  printf("fib(25) = %ld\n", fib(25));
  return 0;
}

// Calls each of libgcc's soft-float routines (tests/lit/transforms/
// softfp.test) by name, on special values and pseudo-random bit patterns,
// in each rounding mode, and prints per routine and mode a hash of every
// result and of the exception flags each call raised. A build whose
// routines compute anything else than libgcc's prints another line.

#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef long double TF;
typedef __int128 TI;
typedef unsigned __int128 UTI;
typedef long CMP; // GCC's word_mode: what __libgcc_cmp_return__ means

TF __addtf3(TF, TF), __subtf3(TF, TF), __multf3(TF, TF), __divtf3(TF, TF);
TF __negtf2(TF);
CMP __eqtf2(TF, TF), __getf2(TF, TF), __letf2(TF, TF), __unordtf2(TF, TF);
int __fixtfsi(TF);
long __fixtfdi(TF);
TI __fixtfti(TF);
unsigned __fixunstfsi(TF);
unsigned long __fixunstfdi(TF);
UTI __fixunstfti(TF);
TF __floatsitf(int), __floatditf(long), __floattitf(TI);
TF __floatunsitf(unsigned), __floatunditf(unsigned long), __floatuntitf(UTI);
TF __extendsftf2(float), __extenddftf2(double);
float __trunctfsf2(TF);
double __trunctfdf2(TF);
#ifdef __aarch64__
TF __extendhftf2(_Float16);
_Float16 __trunctfhf2(TF);
TI __fixhfti(_Float16);
UTI __fixunshfti(_Float16);
_Float16 __floattihf(TI), __floatuntihf(UTI);
#endif
#ifdef __riscv
float __divsf3(float, float);
double __divdf3(double, double);
#endif

static uint64_t State = 0x9e3779b97f4a7c15u;
static uint64_t next(void) {
  State ^= State << 13;
  State ^= State >> 7;
  State ^= State << 17;
  return State;
}

static uint64_t Hash;
static void mix(const void *P, size_t N) {
  const unsigned char *B = P;
  for (size_t I = 0; I < N; ++I)
    Hash = (Hash ^ B[I]) * 0x100000001b3u;
}
#define MIX(V)                                                                 \
  do {                                                                         \
    __typeof__(V) Value_ = (V);                                                \
    int Flags_ = fetestexcept(FE_ALL_EXCEPT);                                  \
    mix(&Value_, sizeof Value_);                                               \
    mix(&Flags_, sizeof Flags_);                                               \
    feclearexcept(FE_ALL_EXCEPT);                                              \
  } while (0)

// Quad-precision values: the special ones, then random bit patterns with
// exponents drawn near 1, near the extremes and anywhere.
static const uint64_t Special[][2] = {
    {0, 0},                                       // +0
    {0, 0x8000000000000000u},                     // -0
    {0, 0x3fff000000000000u},                     // 1
    {0, 0xbfff000000000000u},                     // -1
    {0, 0x7fff000000000000u},                     // +inf
    {0, 0xffff000000000000u},                     // -inf
    {0, 0x7fff800000000000u},                     // quiet NaN
    {1, 0x7fff000000000000u},                     // signaling NaN
    {1, 0},                                       // smallest subnormal
    {0xffffffffffffffffu, 0x0000ffffffffffffu},   // largest subnormal
    {0xffffffffffffffffu, 0x7ffeffffffffffffu},   // largest finite
    {0x5555555555555555u, 0x3ffd555555555555u},   // 1/3
    {0, 0x403e000000000000u},                     // 2^63
    {0, 0x407e000000000000u},                     // 2^127
    {0x8000000000000000u, 0x401dffffffffffffu},   // just below 2^31
};
enum { SpecialCount = sizeof Special / sizeof Special[0], Count = 160 };

static TF quad(int I) {
  uint64_t Bits[2];
  if (I < SpecialCount) {
    Bits[0] = Special[I][0];
    Bits[1] = Special[I][1];
  } else {
    Bits[0] = next();
    Bits[1] = next();
    uint64_t Exponent = I % 3 == 0   ? 0x3fff - 70 + next() % 140
                        : I % 3 == 1 ? (next() & 1 ? next() % 200
                                                   : 0x7ffe - next() % 200)
                                     : next() % 0x7fff;
    Bits[1] = (Bits[1] & 0x8000ffffffffffffu) | Exponent << 48;
  }
  TF Value;
  memcpy(&Value, Bits, sizeof Value);
  return Value;
}

static void report(const char *Routine, const char *Mode) {
  printf("%-16s %-10s %016llx\n", Routine, Mode, (unsigned long long)Hash);
  Hash = 0xcbf29ce484222325u;
}

int main(void) {
  static const struct {
    int Mode;
    const char *Name;
  } Modes[] = {{FE_TONEAREST, "nearest"},
               {FE_UPWARD, "upward"},
               {FE_DOWNWARD, "downward"},
               {FE_TOWARDZERO, "zero"}};
  Hash = 0xcbf29ce484222325u;
  for (unsigned M = 0; M < sizeof Modes / sizeof Modes[0]; ++M) {
    if (fesetround(Modes[M].Mode))
      return 1;
    const char *Mode = Modes[M].Name;
    feclearexcept(FE_ALL_EXCEPT);
#define BINARY(Routine)                                                        \
  for (int I = 0; I < Count; ++I)                                              \
    for (int J = 0; J < Count; J += 7)                                         \
      MIX(Routine(quad(I), quad(J)));                                          \
  report(#Routine, Mode);
    BINARY(__addtf3) BINARY(__subtf3) BINARY(__multf3) BINARY(__divtf3)
    BINARY(__eqtf2) BINARY(__getf2) BINARY(__letf2) BINARY(__unordtf2)
#define UNARY(Routine, Argument)                                               \
  for (int I = 0; I < Count; ++I)                                              \
    MIX(Routine(Argument));                                                    \
  report(#Routine, Mode);
    UNARY(__negtf2, quad(I))
    UNARY(__fixtfsi, quad(I)) UNARY(__fixtfdi, quad(I))
    UNARY(__fixtfti, quad(I)) UNARY(__fixunstfsi, quad(I))
    UNARY(__fixunstfdi, quad(I)) UNARY(__fixunstfti, quad(I))
    UNARY(__floatsitf, (int)next()) UNARY(__floatditf, (long)next())
    UNARY(__floattitf, (TI)next() << 64 | next())
    UNARY(__floatunsitf, (unsigned)next())
    UNARY(__floatunditf, (unsigned long)next())
    UNARY(__floatuntitf, (UTI)next() << (next() % 64) | next())
    UNARY(__extendsftf2, (float)quad(I)) UNARY(__extenddftf2, (double)quad(I))
    UNARY(__trunctfsf2, quad(I)) UNARY(__trunctfdf2, quad(I))
#ifdef __aarch64__
    UNARY(__extendhftf2, (_Float16)(float)quad(I))
    UNARY(__trunctfhf2, quad(I))
    UNARY(__fixhfti, (_Float16)(float)quad(I))
    UNARY(__fixunshfti, (_Float16)(float)quad(I))
    UNARY(__floattihf, (TI)next() << (next() % 64) | next())
    UNARY(__floatuntihf, (UTI)next() << (next() % 64) | next())
#endif
#ifdef __riscv
    for (int I = 0; I < Count; ++I)
      MIX(__divsf3((float)next(), (float)(int)next()));
    report("__divsf3", Mode);
    for (int I = 0; I < Count; ++I)
      MIX(__divdf3((double)(long)next(), (double)next()));
    report("__divdf3", Mode);
#endif
  }
  return 0;
}

// Functions whose frames saves on AArch64 leaves alone (win64, swift_async,
// streaming, streaming_body, streaming_caller), and one it reorders with
// SVE registers saved too (sve). Compiled with -march=armv9-a+sve+sme.
#include <arm_sve.h>

extern long g(long);
extern void s(long) __arm_streaming;

// The Win64 convention: FP before LR, and X18 saved.
__attribute__((ms_abi)) long win64(long a, long b, long c) {
  long p = g(a), q = g(b), r = g(c);
  return p * q + r + a + b + c;
}

// Swift's async context extends the frame record.
__attribute__((swiftasynccall)) long
swift_async(void *ctx __attribute__((swift_async_context)), long a, long b,
            long c) {
  long p = g(a), q = g(b), r = g(c);
  return p * q + r + a + b + c + (long)ctx;
}

// SME: VG is saved next to LR when the streaming mode changes.
long streaming(long a, long b, long c) __arm_streaming {
  long p = g(a), q = g(b), r = g(c);
  return p * q + r + a + b + c;
}

__arm_locally_streaming long streaming_body(long a, long b, long c) {
  long p = g(a), q = g(b), r = g(c);
  return p * q + r + a + b + c;
}

long streaming_caller(long a, long b, long c) {
  long p = g(a), q = g(b);
  s(p);
  long r = g(c);
  return p * q + r + a + b + c;
}

// The SVE calling convention saves Z and P registers in their own area;
// the general-purpose registers are reordered.
extern svint32_t vg(svint32_t);
svint32_t sve(svint32_t x, long a, long b, long c) {
  long p = g(a), q = g(b), r = g(c);
  svint32_t y = vg(x);
  return svadd_n_s32_x(svptrue_b32(), svmul_s32_x(svptrue_b32(), x, y),
                       (int)(p * q + r));
}

/* Bitfields: signed/unsigned fields, fields straddling storage units, zero
 * width separators, _Bool fields, packed structs, read-modify-write of
 * neighbours, bitfield structs passed by value, and a packed header codec. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct flags {
    unsigned a : 1;
    unsigned b : 3;
    unsigned c : 5;
    unsigned d : 7;
    unsigned e : 16;
};

struct sfields {
    int x : 4;        /* -8..7 */
    int y : 12;
    signed int z : 9;
    unsigned w : 7;
};

struct straddle {
    uint64_t lo : 40;
    uint64_t mid : 20;   /* crosses no unit but shares with lo */
    uint64_t hi : 4;
    unsigned : 0;        /* force alignment to next unit */
    unsigned tail : 3;
    _Bool flag : 1;
};

struct __attribute__((packed)) pkt {
    uint8_t version : 4;
    uint8_t ihl : 4;
    uint16_t length;
    uint32_t id : 19;
    uint32_t frag : 13;
    uint8_t ttl;
};

static uint64_t g_sum = 3;
static void acc(uint64_t v) { g_sum = g_sum * 0x100000001b3ull + v; }

__attribute__((noinline)) static struct flags bump(struct flags f) {
    f.a ^= 1;
    f.b += 5;     /* wraps mod 8 */
    f.c -= 1;     /* wraps mod 32 when 0 */
    f.d = f.d * 3 + 1;
    f.e += 40000;
    return f;
}

__attribute__((noinline)) static int sum_signed(const struct sfields *s) {
    return s->x + s->y + s->z + (int)s->w;
}

static void encode(uint8_t out[8], unsigned version, unsigned ihl, unsigned len, unsigned id,
                   unsigned frag, unsigned ttl) {
    struct pkt p;
    memset(&p, 0, sizeof p);
    p.version = version & 15;
    p.ihl = ihl & 15;
    p.length = (uint16_t)len;
    p.id = id & 0x7ffff;
    p.frag = frag & 0x1fff;
    p.ttl = (uint8_t)ttl;
    memcpy(out, &p, sizeof p);
}

int main(void) {
    printf("sizes flags=%zu sfields=%zu straddle=%zu pkt=%zu\n", sizeof(struct flags),
           sizeof(struct sfields), sizeof(struct straddle), sizeof(struct pkt));

    struct flags f;
    memset(&f, 0, sizeof f);
    for (int i = 0; i < 12; i++) {
        f = bump(f);
        printf("flags a=%u b=%u c=%2u d=%3u e=%5u\n", f.a, f.b, f.c, f.d, f.e);
        acc(f.a + f.b * 2u + f.c * 16u + f.d * 512u + (uint64_t)f.e * 65536u);
    }

    struct sfields s;
    memset(&s, 0, sizeof s);
    int total = 0;
    for (int i = -8; i < 8; i += 3) {
        s.x = i;
        s.y = i * 200;
        s.z = -i * 30;
        s.w = (unsigned)(i + 8) * 7;
        total += sum_signed(&s);
        printf("sfields x=%d y=%d z=%d w=%u\n", s.x, s.y, s.z, s.w);
    }
    printf("signed total %d\n", total);
    acc((uint64_t)(int64_t)total);

    struct straddle st;
    memset(&st, 0, sizeof st);
    st.lo = 0xFFFFFFFFFFull;
    st.mid = 0xABCDE;
    st.hi = 9;
    st.tail = 5;
    st.flag = 1;
    st.lo += 1;  /* wraps to 0 in 40 bits, must not disturb mid */
    printf("straddle lo=%llx mid=%llx hi=%u tail=%u flag=%d\n", (unsigned long long)st.lo,
           (unsigned long long)st.mid, (unsigned)st.hi, st.tail, st.flag);
    st.mid++;
    st.hi--;
    st.flag = !st.flag;
    printf("straddle lo=%llx mid=%llx hi=%u tail=%u flag=%d\n", (unsigned long long)st.lo,
           (unsigned long long)st.mid, (unsigned)st.hi, st.tail, st.flag);
    acc(st.mid + st.hi + st.tail + st.flag);

    uint8_t buf[8];
    encode(buf, 4, 5, 1500, 0x5ABCD, 0x1234, 64);
    printf("pkt bytes:");
    for (size_t i = 0; i < sizeof(struct pkt); i++) {
        printf(" %02x", buf[i]);
        acc(buf[i]);
    }
    printf("\n");
    struct pkt back;
    memcpy(&back, buf, sizeof back);
    printf("decoded v=%u ihl=%u len=%u id=%x frag=%x ttl=%u\n", back.version, back.ihl, back.length,
           back.id, back.frag, back.ttl);

    /* bitfield as loop counter and in arithmetic promotions */
    struct { unsigned n : 3; } cyc = {0};
    unsigned seen = 0;
    for (int i = 0; i < 20; i++) {
        seen = seen * 8 % 1000003 + cyc.n;
        cyc.n++;
    }
    printf("cyclic counter hash %u\n", seen);
    acc(seen);

    printf("checksum %016llx\n", (unsigned long long)g_sum);
    return 0;
}

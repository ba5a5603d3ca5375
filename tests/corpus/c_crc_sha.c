/* Bit manipulation kernels: table-driven and bitwise CRC32, SHA-256 (rotates,
 * big-endian packing), Adler-32, FNV-1a, popcount/clz/ctz/bswap builtins and
 * a bit-reversal, checked against known test vectors. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t crc_table[256];

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32_table(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static uint32_t crc32_bitwise(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}

static uint32_t adler32(const uint8_t *p, size_t n) {
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521;
        b = (b + a) % 65521;
    }
    return b << 16 | a;
}

/* ---- SHA-256 ---- */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

struct sha256 { uint32_t h[8]; uint8_t buf[64]; size_t len; uint64_t total; };

static void sha_block(struct sha256 *s, const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
    uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + S1 + ch + K[i] + w[i];
        uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + mj;
        h = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
    s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha_init(struct sha256 *s) {
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, iv, sizeof iv);
    s->len = 0;
    s->total = 0;
}

static void sha_update(struct sha256 *s, const uint8_t *p, size_t n) {
    s->total += n;
    while (n) {
        size_t take = 64 - s->len < n ? 64 - s->len : n;
        memcpy(s->buf + s->len, p, take);
        s->len += take;
        p += take;
        n -= take;
        if (s->len == 64) {
            sha_block(s, s->buf);
            s->len = 0;
        }
    }
}

static void sha_final(struct sha256 *s, uint8_t out[32]) {
    uint64_t bits = s->total * 8;
    uint8_t pad = 0x80;
    sha_update(s, &pad, 1);
    uint8_t zero = 0;
    while (s->len != 56)
        sha_update(s, &zero, 1);
    uint8_t lenb[8];
    for (int i = 0; i < 8; i++)
        lenb[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha_update(s, lenb, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(s->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)s->h[i];
    }
}

static void sha_hex(const void *data, size_t n, char hex[65]) {
    struct sha256 s;
    uint8_t d[32];
    sha_init(&s);
    sha_update(&s, data, n);
    sha_final(&s, d);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static uint32_t bitrev32(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}

int main(void) {
    crc_init();
    const char *vectors[] = {"", "a", "abc", "123456789", "The quick brown fox jumps over the lazy dog",
                             "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"};
    uint64_t cs = 0;
    for (int i = 0; i < 6; i++) {
        const uint8_t *p = (const uint8_t *)vectors[i];
        size_t n = strlen(vectors[i]);
        uint32_t c1 = crc32_table(p, n), c2 = crc32_bitwise(p, n), ad = adler32(p, n);
        char hex[65];
        sha_hex(p, n, hex);
        printf("[%.12s] crc %08x %s adler %08x\n  sha256 %s\n", vectors[i], c1, c1 == c2 ? "=" : "!", ad, hex);
        cs = cs * 31 + c1 + ad + (uint64_t)hex[0] * hex[63];
    }

    /* a million-bit-ish buffer, hashed incrementally in odd chunk sizes */
    static uint8_t big[50000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 2654435761u >> 13);
    struct sha256 s;
    uint8_t d[32];
    sha_init(&s);
    for (size_t off = 0, chunk = 1; off < sizeof big; off += chunk, chunk = chunk * 3 % 997 + 1)
        sha_update(&s, big + off, chunk < sizeof big - off ? chunk : sizeof big - off);
    sha_final(&s, d);
    char hex1[65], hex2[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex1 + 2 * i, 3, "%02x", d[i]);
    sha_hex(big, sizeof big, hex2);
    printf("big sha %s chunked-equal %d\n", hex1, strcmp(hex1, hex2) == 0);
    printf("big crc %08x\n", crc32_table(big, sizeof big));
    cs = cs * 31 + crc32_table(big, sizeof big);

    /* builtins */
    uint64_t vals[] = {1, 0x80, 0xff00ff00ff00ff00ull, 0x0123456789abcdefull, 0x8000000000000000ull, 12345};
    for (int i = 0; i < 6; i++) {
        uint64_t v = vals[i];
        printf("%016llx pop=%d clz=%d ctz=%d bswap=%016llx rev32=%08x parity=%d\n", (unsigned long long)v,
               __builtin_popcountll(v), __builtin_clzll(v), __builtin_ctzll(v),
               (unsigned long long)__builtin_bswap64(v), bitrev32((uint32_t)v), __builtin_parityll(v));
        cs = cs * 31 + (uint64_t)__builtin_popcountll(v) + bitrev32((uint32_t)v);
    }
    /* rotates recognised as rol/ror */
    uint32_t r = 0xdeadbeefu;
    for (int i = 1; i < 32; i += 5)
        r = rotr(r, i) ^ (r << 3);
    printf("rotate mix %08x\n", r);
    cs = cs * 31 + r;

    printf("checksum %016llx\n", (unsigned long long)cs);
    return 0;
}

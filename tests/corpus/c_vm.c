/* A tiny register virtual machine: 32-bit encoded instructions decoded with
 * shifts/masks, switch dispatch in a hot loop, CALL/RET with a return stack,
 * memory loads/stores; runs a sieve, fibonacci and a recursive program. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { LI, ADD, SUB, MUL, DIVU, MODU, AND, OR, XOR, SHL, SHR, LD, ST, BEQ, BNE, BLT, JMP, CALL, RET, OUT, HALT, ADDI };

#define R(op, a, b, c) ((uint32_t)(op) << 24 | (uint32_t)(a) << 16 | (uint32_t)(b) << 8 | (uint32_t)(c))
#define I(op, a, imm) ((uint32_t)(op) << 24 | (uint32_t)(a) << 16 | ((uint32_t)(imm) & 0xffffu))

struct vm {
    uint32_t reg[16];
    uint32_t mem[1024];
    uint32_t rstack[256];
    int rsp;
    uint64_t outhash;
    int nout;
    long steps;
};

static int run(struct vm *m, const uint32_t *prog, int len, int verbose) {
    int pc = 0;
    for (;;) {
        if (pc < 0 || pc >= len)
            return -1;
        uint32_t ins = prog[pc++];
        unsigned op = ins >> 24, a = (ins >> 16) & 0xff, b = (ins >> 8) & 0xff, c = ins & 0xff;
        int16_t imm = (int16_t)(ins & 0xffff);
        uint32_t *r = m->reg;
        m->steps++;
        switch (op) {
        case LI: r[a] = (uint32_t)(int32_t)imm; break;
        case ADDI: r[a] += (uint32_t)(int32_t)imm; break;
        case ADD: r[a] = r[b] + r[c]; break;
        case SUB: r[a] = r[b] - r[c]; break;
        case MUL: r[a] = r[b] * r[c]; break;
        case DIVU: r[a] = r[c] ? r[b] / r[c] : 0; break;
        case MODU: r[a] = r[c] ? r[b] % r[c] : 0; break;
        case AND: r[a] = r[b] & r[c]; break;
        case OR: r[a] = r[b] | r[c]; break;
        case XOR: r[a] = r[b] ^ r[c]; break;
        case SHL: r[a] = r[b] << (r[c] & 31); break;
        case SHR: r[a] = r[b] >> (r[c] & 31); break;
        case LD: r[a] = m->mem[(r[b] + c) & 1023]; break;
        case ST: m->mem[(r[b] + c) & 1023] = r[a]; break;
        case BEQ: if (r[a] == r[b]) pc += (int8_t)c; break;
        case BNE: if (r[a] != r[b]) pc += (int8_t)c; break;
        case BLT: if ((int32_t)r[a] < (int32_t)r[b]) pc += (int8_t)c; break;
        case JMP: pc += imm; break;
        case CALL:
            if (m->rsp >= 256)
                return -2;
            m->rstack[m->rsp++] = (uint32_t)pc;
            pc += imm;
            break;
        case RET:
            if (m->rsp == 0)
                return -3;
            pc = (int)m->rstack[--m->rsp];
            break;
        case OUT:
            if (verbose)
                printf("  out r%u = %u\n", a, r[a]);
            m->outhash = m->outhash * 1000003u + r[a];
            m->nout++;
            break;
        case HALT: return 0;
        default: return -4;
        }
    }
}

static void reset(struct vm *m) {
    memset(m, 0, sizeof *m);
}

int main(void) {
    static struct vm m;
    uint64_t cs = 0;

    /* Fibonacci: print F(0)..F(24) */
    const uint32_t fib[] = {
        I(LI, 1, 0), I(LI, 2, 1), I(LI, 3, 0), I(LI, 4, 25),
        /* 4 */ R(OUT, 1, 0, 0), R(ADD, 5, 1, 2), R(ADD, 1, 2, 0), R(ADD, 2, 5, 0),
        I(ADDI, 3, 1), R(BLT, 3, 4, (uint8_t)-6), R(HALT, 0, 0, 0),
    };
    reset(&m);
    int rc = run(&m, fib, sizeof fib / 4, 0);
    printf("fib rc=%d outputs=%d hash=%llu steps=%ld\n", rc, m.nout, (unsigned long long)m.outhash, m.steps);
    cs = cs * 31 + m.outhash;

    /* Sieve of Eratosthenes on mem[0..999], print count of primes < 1000 */
    const uint32_t sieve2[] = {
        /* 0 */ I(LI, 1, 2), I(LI, 9, 1000), I(LI, 10, 1), I(LI, 0, 0),
        /* 4 */ R(MUL, 2, 1, 1),
        /* 5 */ R(BLT, 2, 9, 1),          /* if r2 < 1000 -> 7 */
        /* 6 */ I(JMP, 0, 8),             /* -> 15 (count) */
        /* 7 */ R(LD, 3, 1, 0),
        /* 8 */ R(BNE, 3, 0, 4),          /* composite -> 13 */
        /* 9 */ R(ST, 10, 2, 0),
        /* 10 */ R(ADD, 2, 2, 1),
        /* 11 */ R(BLT, 2, 9, (uint8_t)-3), /* -> 9 */
        /* 12 */ I(JMP, 0, 0),
        /* 13 */ I(ADDI, 1, 1),
        /* 14 */ I(JMP, 0, -11),          /* -> 4 */
        /* 15 */ I(LI, 1, 2), I(LI, 4, 0),
        /* 17 */ R(LD, 3, 1, 0), R(BNE, 3, 0, 1), I(ADDI, 4, 1),
        /* 20 */ I(ADDI, 1, 1), R(BLT, 1, 9, (uint8_t)-5),
        /* 22 */ R(OUT, 4, 0, 0), R(HALT, 0, 0, 0),
    };
    reset(&m);
    rc = run(&m, sieve2, sizeof sieve2 / 4, 1);
    printf("sieve rc=%d steps=%ld\n", rc, m.steps);
    cs = cs * 31 + m.outhash + (uint64_t)m.steps;

    /* Recursive sum via CALL/RET: f(n) = n + f(n-1), f(0) = 0, using mem as data stack */
    const uint32_t rec[] = {
        /* 0 */ I(LI, 1, 100), I(LI, 15, 0), I(LI, 0, 0),
        /* 3 */ I(CALL, 0, 2),             /* -> 6 */
        /* 4 */ R(OUT, 2, 0, 0), R(HALT, 0, 0, 0),
        /* 6: f */ R(BNE, 1, 0, 2),        /* n != 0 -> 9 */
        /* 7 */ I(LI, 2, 0), R(RET, 0, 0, 0),
        /* 9 */ R(ST, 1, 15, 0), I(ADDI, 15, 1),  /* push n */
        /* 11 */ I(ADDI, 1, -1), I(CALL, 0, -7),  /* f(n-1) -> 6 */
        /* 13 */ I(ADDI, 15, -1), R(LD, 1, 15, 0), /* pop n */
        /* 15 */ R(ADD, 2, 2, 1), R(RET, 0, 0, 0),
    };
    reset(&m);
    rc = run(&m, rec, sizeof rec / 4, 1);
    printf("recursive rc=%d steps=%ld rsp=%d\n", rc, m.steps, m.rsp);
    cs = cs * 31 + m.outhash + (uint64_t)m.steps;

    /* xorshift PRNG in the VM, shifts and xors */
    const uint32_t xs[] = {
        /* 0 */ I(LI, 1, 12345), I(LI, 5, 13), I(LI, 6, 17), I(LI, 7, 5), I(LI, 8, 0), I(LI, 9, 10),
        /* 6 */ R(SHL, 2, 1, 5), R(XOR, 1, 1, 2), R(SHR, 2, 1, 6), R(XOR, 1, 1, 2),
        /* 10 */ R(SHL, 2, 1, 7), R(XOR, 1, 1, 2), R(OUT, 1, 0, 0), I(ADDI, 8, 1),
        /* 14 */ R(BLT, 8, 9, (uint8_t)-9), R(HALT, 0, 0, 0),
    };
    reset(&m);
    rc = run(&m, xs, sizeof xs / 4, 1);
    printf("xorshift rc=%d\n", rc);
    cs = cs * 31 + m.outhash;

    /* error paths: bad opcode, return with empty stack, pc out of range */
    const uint32_t bad1[] = {R(99, 0, 0, 0)};
    const uint32_t bad2[] = {R(RET, 0, 0, 0)};
    const uint32_t bad3[] = {I(JMP, 0, 100)};
    reset(&m);
    int e1 = run(&m, bad1, 1, 0);
    int e2 = run(&m, bad2, 1, 0);
    int e3 = run(&m, bad3, 1, 0);
    printf("errors %d %d %d\n", e1, e2, e3);
    cs = cs * 31 + (uint64_t)(e1 * 100 + e2 * 10 + e3 + 1000);

    printf("checksum %llu\n", (unsigned long long)cs);
    return 0;
}

/* A big switch-based state machine: a character-at-a-time JSON number /
 * string / literal scanner with ~25 states inside a loop, plus an event-driven
 * protocol FSM (enum states x enum events, nested switches). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum st {
    S_START, S_MINUS, S_ZERO, S_INT, S_DOT, S_FRAC, S_EXP, S_EXP_SIGN, S_EXP_DIGITS,
    S_STR, S_STR_ESC, S_STR_U1, S_STR_U2, S_STR_U3, S_STR_U4,
    S_T, S_TR, S_TRU, S_F, S_FA, S_FAL, S_FALS, S_N, S_NU, S_NUL,
    S_PUNCT, S_DONE_NUM, S_DONE_STR, S_DONE_LIT, S_ERROR
};

struct scan_stats { int numbers, strings, literals, puncts, errors, escapes; uint64_t hash; };

static int is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static void scan(const char *s, struct scan_stats *st) {
    enum st state = S_START;
    const char *p = s;
    const char *tok = s;
    for (;;) {
        char c = *p;
        st->hash = st->hash * 131 + (uint64_t)state;
        switch (state) {
        case S_START:
            tok = p;
            if (c == 0) return;
            if (c == ' ' || c == '\n' || c == '\t') { p++; break; }
            if (c == '-') { state = S_MINUS; p++; break; }
            if (c == '0') { state = S_ZERO; p++; break; }
            if (c >= '1' && c <= '9') { state = S_INT; p++; break; }
            if (c == '"') { state = S_STR; p++; break; }
            if (c == 't') { state = S_T; p++; break; }
            if (c == 'f') { state = S_F; p++; break; }
            if (c == 'n') { state = S_N; p++; break; }
            if (strchr("{}[]:,", c)) { state = S_PUNCT; p++; break; }
            state = S_ERROR;
            break;
        case S_MINUS:
            if (c == '0') { state = S_ZERO; p++; }
            else if (c >= '1' && c <= '9') { state = S_INT; p++; }
            else state = S_ERROR;
            break;
        case S_ZERO:
            if (c == '.') { state = S_DOT; p++; }
            else if (c == 'e' || c == 'E') { state = S_EXP; p++; }
            else state = S_DONE_NUM;
            break;
        case S_INT:
            if (c >= '0' && c <= '9') p++;
            else if (c == '.') { state = S_DOT; p++; }
            else if (c == 'e' || c == 'E') { state = S_EXP; p++; }
            else state = S_DONE_NUM;
            break;
        case S_DOT:
            if (c >= '0' && c <= '9') { state = S_FRAC; p++; } else state = S_ERROR;
            break;
        case S_FRAC:
            if (c >= '0' && c <= '9') p++;
            else if (c == 'e' || c == 'E') { state = S_EXP; p++; }
            else state = S_DONE_NUM;
            break;
        case S_EXP:
            if (c == '+' || c == '-') { state = S_EXP_SIGN; p++; }
            else if (c >= '0' && c <= '9') { state = S_EXP_DIGITS; p++; }
            else state = S_ERROR;
            break;
        case S_EXP_SIGN:
            if (c >= '0' && c <= '9') { state = S_EXP_DIGITS; p++; } else state = S_ERROR;
            break;
        case S_EXP_DIGITS:
            if (c >= '0' && c <= '9') p++; else state = S_DONE_NUM;
            break;
        case S_STR:
            if (c == 0) state = S_ERROR;
            else if (c == '"') { state = S_DONE_STR; p++; }
            else if (c == '\\') { state = S_STR_ESC; p++; }
            else p++;
            break;
        case S_STR_ESC:
            st->escapes++;
            if (c == 'u') { state = S_STR_U1; p++; }
            else if (c && strchr("\"\\/bfnrt", c)) { state = S_STR; p++; }
            else state = S_ERROR;
            break;
        case S_STR_U1: if (is_hex(c)) { state = S_STR_U2; p++; } else state = S_ERROR; break;
        case S_STR_U2: if (is_hex(c)) { state = S_STR_U3; p++; } else state = S_ERROR; break;
        case S_STR_U3: if (is_hex(c)) { state = S_STR_U4; p++; } else state = S_ERROR; break;
        case S_STR_U4: if (is_hex(c)) { state = S_STR; p++; } else state = S_ERROR; break;
        case S_T: if (c == 'r') { state = S_TR; p++; } else state = S_ERROR; break;
        case S_TR: if (c == 'u') { state = S_TRU; p++; } else state = S_ERROR; break;
        case S_TRU: if (c == 'e') { state = S_DONE_LIT; p++; } else state = S_ERROR; break;
        case S_F: if (c == 'a') { state = S_FA; p++; } else state = S_ERROR; break;
        case S_FA: if (c == 'l') { state = S_FAL; p++; } else state = S_ERROR; break;
        case S_FAL: if (c == 's') { state = S_FALS; p++; } else state = S_ERROR; break;
        case S_FALS: if (c == 'e') { state = S_DONE_LIT; p++; } else state = S_ERROR; break;
        case S_N: if (c == 'u') { state = S_NU; p++; } else state = S_ERROR; break;
        case S_NU: if (c == 'l') { state = S_NUL; p++; } else state = S_ERROR; break;
        case S_NUL: if (c == 'l') { state = S_DONE_LIT; p++; } else state = S_ERROR; break;
        case S_PUNCT: st->puncts++; state = S_START; break;
        case S_DONE_NUM: st->numbers++; printf("    num  %.*s\n", (int)(p - tok), tok); state = S_START; break;
        case S_DONE_STR: st->strings++; printf("    str  %.*s\n", (int)(p - tok), tok); state = S_START; break;
        case S_DONE_LIT: st->literals++; printf("    lit  %.*s\n", (int)(p - tok), tok); state = S_START; break;
        case S_ERROR:
            st->errors++;
            printf("    err  at offset %d ('%c')\n", (int)(p - s), c ? c : '0');
            if (c == 0) return;
            p++;   /* skip bad char and resync */
            state = S_START;
            break;
        }
    }
}

/* Event-driven connection FSM. */
enum cstate { CLOSED, LISTEN, SYN_RCVD, ESTABLISHED, FIN_WAIT, CLOSE_WAIT, LAST_ACK, TIME_WAIT, NCSTATES };
enum event { EV_OPEN, EV_SYN, EV_ACK, EV_DATA, EV_FIN, EV_CLOSE, EV_TIMEOUT, EV_RST };
static const char *cnames[] = {"CLOSED", "LISTEN", "SYN_RCVD", "ESTABLISHED", "FIN_WAIT", "CLOSE_WAIT", "LAST_ACK", "TIME_WAIT"};

static enum cstate step(enum cstate s, enum event e, int *bytes) {
    if (e == EV_RST)
        return CLOSED;
    switch (s) {
    case CLOSED:
        switch (e) { case EV_OPEN: return LISTEN; default: return CLOSED; }
    case LISTEN:
        switch (e) { case EV_SYN: return SYN_RCVD; case EV_CLOSE: return CLOSED; default: return LISTEN; }
    case SYN_RCVD:
        switch (e) { case EV_ACK: return ESTABLISHED; case EV_TIMEOUT: return LISTEN; default: return SYN_RCVD; }
    case ESTABLISHED:
        switch (e) {
        case EV_DATA: *bytes += 100; return ESTABLISHED;
        case EV_FIN: return CLOSE_WAIT;
        case EV_CLOSE: return FIN_WAIT;
        default: return ESTABLISHED;
        }
    case FIN_WAIT:
        switch (e) { case EV_FIN: case EV_ACK: return TIME_WAIT; default: return FIN_WAIT; }
    case CLOSE_WAIT:
        switch (e) { case EV_CLOSE: return LAST_ACK; case EV_DATA: *bytes += 1; return CLOSE_WAIT; default: return CLOSE_WAIT; }
    case LAST_ACK:
        switch (e) { case EV_ACK: return CLOSED; default: return LAST_ACK; }
    case TIME_WAIT:
        switch (e) { case EV_TIMEOUT: return CLOSED; default: return TIME_WAIT; }
    default:
        return CLOSED;
    }
}

int main(void) {
    const char *docs[] = {
        "{\"a\": 1, \"b\": [true, false, null], \"c\": -0.5e+10}",
        "[0, -12, 3.25, 6.02E23, 1e-7, \"esc\\n\\\"q\\\"\", \"\\u00e9t\\u00E9\"]",
        "[01, 1., -, tru, \"bad\\x\", nul, 7]",
        "\"unterminated",
    };
    uint64_t cs = 0;
    for (int i = 0; i < 4; i++) {
        struct scan_stats st = {0, 0, 0, 0, 0, 0, 0};
        printf("doc %d:\n", i);
        scan(docs[i], &st);
        printf("  numbers=%d strings=%d literals=%d puncts=%d errors=%d escapes=%d trace=%016llx\n", st.numbers,
               st.strings, st.literals, st.puncts, st.errors, st.escapes, (unsigned long long)st.hash);
        cs = cs * 31 + st.hash;
    }

    /* drive the connection FSM with a pseudo-random event stream */
    uint32_t x = 12345;
    enum cstate s = CLOSED;
    int bytes = 0, visits[NCSTATES] = {0};
    for (int i = 0; i < 5000; i++) {
        x = x * 1103515245u + 12345u;
        enum event e = (enum event)((x >> 16) % 8);
        if (e == EV_RST && (x >> 8) % 5 != 0)
            e = EV_DATA;   /* make resets rarer */
        s = step(s, e, &bytes);
        visits[s]++;
        cs = cs * 7 + (uint64_t)s;
    }
    printf("fsm final=%s bytes=%d\n", cnames[s], bytes);
    for (int i = 0; i < NCSTATES; i++)
        printf("  %-12s %d\n", cnames[i], visits[i]);
    printf("checksum %016llx\n", (unsigned long long)cs);
    return 0;
}

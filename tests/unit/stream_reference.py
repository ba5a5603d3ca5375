#!/usr/bin/python3
"""An independent, pure-Python model of divcc's random streams.

Written from the specifications only (RFC 5869 HKDF-SHA256, RFC 8439
ChaCha20) and from divcc's documented choices: a label's stream key is
HKDF-SHA256 of the secret and the label, as tests/divtest/hkdf.py spells
out, and

  stream = ChaCha20 keystream (key = stream key, nonce = 0, block counter
           from 0), read as little-endian u64 words.

It uses only the standard library (struct here; hmac and hashlib in
tests/divtest/hkdf.py, the HKDF half) and none of divcc's or OpenSSL's
ChaCha20. It prints one line per (secret, label, word range);
divcc-stream-dump prints the same lines from divcc's own code, and the
ctest `stream-matches-python-reference` compares the two outputs (run with
tests/ on PYTHONPATH: PYTHONPATH=tests python3 tests/unit/stream_reference.py).
Keep CASES in step with the table in StreamDump.cpp.
"""

import struct
import sys

from divtest import hkdf

# ------------------------------------------------------------- ChaCha20

MASK = 0xFFFFFFFF


def _rotl(v, c):
    return ((v << c) & MASK) | (v >> (32 - c))


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_block(key, counter, nonce=bytes(12)):
    state = ([0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
             + list(struct.unpack("<8I", key)) + [counter]
             + list(struct.unpack("<3I", nonce)))
    w = state[:]
    for _ in range(10):
        _quarter(w, 0, 4, 8, 12); _quarter(w, 1, 5, 9, 13)
        _quarter(w, 2, 6, 10, 14); _quarter(w, 3, 7, 11, 15)
        _quarter(w, 0, 5, 10, 15); _quarter(w, 1, 6, 11, 12)
        _quarter(w, 2, 7, 8, 13); _quarter(w, 3, 4, 9, 14)
    return struct.pack("<16I", *[(w[i] + state[i]) & MASK for i in range(16)])


def stream_words(key, first, count):
    """Words first .. first+count-1 of the stream under key."""
    words = []
    for index in range(first, first + count):
        block = chacha20_block(key, index // 8)
        words.append(struct.unpack_from("<Q", block, 8 * (index % 8))[0])
    return words


# ----------------------------------------------------------------- cases

# (secret, transformation, module, function, first word, word count)
CASES = [
    (b"SECRETVALUE", b"nops", b"foo.c", b"main", 0, 8),
    (b"SECRETVALUE", b"funcs", b"foo.c", b"", 0, 8),
    (b"SECRETVALUE", b"nops", b"foo.c", b"mainx", 0, 8),
    (b"SECRETVALUE", b"nops", b"bar.c", b"main", 0, 8),
    (b"SECRETVALUF", b"nops", b"foo.c", b"main", 0, 8),
    (bytes(range(256)), b"nops", b"dir/a b.cpp", b"_ZN3foo3barEv", 0, 8),
    (b"x", b"", b"", b"", 0, 8),
    (b"k", b"ab", b"c", b"", 0, 8),
    (b"k", b"a", b"bc", b"", 0, 8),
    (b"\xff" * 100, b"funcs", b"m" * 300, b"f\xc3\xa9", 0, 8),
    # Across the 256-byte buffer refills of RandomStream (words 32 and 64).
    (b"SECRETVALUE", b"nops", b"foo.c", b"main", 28, 16),
    (b"SECRETVALUE", b"nops", b"foo.c", b"main", 60, 12),
]


def main():
    for secret, trans, module, function, first, count in CASES:
        key = hkdf.stream_key(secret, trans, module, function)
        words = stream_words(key, first, count)
        sys.stdout.write(
            "secret=%s t=%s m=%s f=%s words[%d..%d]: %s\n"
            % (secret.hex(), trans.hex(), module.hex(), function.hex(), first,
               first + count - 1, " ".join("%016x" % w for w in words)))


if __name__ == "__main__":
    main()

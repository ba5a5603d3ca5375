"""divcc's key derivation, written from RFC 5869 (HKDF-SHA256) and divcc's
documented choices (random/SecretSeed.cpp), to check divcc against:

  master key (PRK) = HKDF-Extract(salt = "divcc master key v1", IKM = secret)
  stream key       = HKDF-Expand(PRK, info = encode(label), L = 32)
  encode(label)    = "divcc stream v1"
                     || len(transformation) as u32 big-endian || transformation
                     || len(module)         as u32 big-endian || module
                     || len(function)       as u32 big-endian || function

Standard library only (hmac, hashlib, struct): none of divcc's code."""

import hashlib
import hmac
import struct

SALT = b"divcc master key v1"
LABEL_PREFIX = b"divcc stream v1"


def extract(salt, ikm):
    """HKDF-Extract (RFC 5869, 2.2) with SHA-256."""
    return hmac.new(salt, ikm, hashlib.sha256).digest()


def expand(prk, info, length):
    """HKDF-Expand (RFC 5869, 2.3) with SHA-256."""
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


def _bytes(field):
    return field.encode() if isinstance(field, str) else bytes(field)


def encode_label(transformation, module, function):
    """A stream's label as HKDF's info; the fields are bytes or text."""
    info = LABEL_PREFIX
    for field in (transformation, module, function):
        data = _bytes(field)
        info += struct.pack(">I", len(data)) + data
    return info


def master_key(secret):
    """The master key divcc derives from a seed (what -fdiversify-key= carries)."""
    return extract(SALT, secret)


def stream_key(secret, transformation, module, function):
    """The 32-byte key of the stream a label names, under a seed."""
    return expand(master_key(secret), encode_label(transformation, module, function), 32)


def variant_seed(master_secret, variant):
    """A population variant's seed, as divtool derives it
    (registry/Registry.h): streamKey("population", "variant", ID)."""
    return stream_key(master_secret, "population", "variant", variant)

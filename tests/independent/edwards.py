"""edwards25519 and the ElGamal deck on it (SPEC §C9), in pure Python from the SPEC's text and
RFC 8032; wire.py checks Ed25519 public keys (§C2.1) with its decoding and addition.

Points are kept in extended coordinates (X, Y, Z, T) with x = X/Z, y = Y/Z, x·y = T/Z, and added
by RFC 8032 §5.1.4's formulas; 32-byte encodings are decoded by §5.1.3 and checked as §C9.1 says.
"""

from __future__ import annotations

import functools
import hashlib
import hmac

from . import canon

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, -1, P) % P
D2 = 2 * D % P
SQRT_MINUS_ONE = pow(2, (P - 1) // 4, P)
NEUTRAL = (0, 1, 1, 0)


def add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e1 = (y1 - x1) * (y2 - x2) % P
    e2 = (y1 + x1) * (y2 + x2) % P
    e3 = D2 * t1 % P * t2 % P
    e4 = 2 * z1 * z2 % P
    e, f, g, h = e2 - e1, e4 - e3, e4 + e3, e2 + e1
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def negate(a):
    x, y, z, t = a
    return (-x % P, y, z, -t % P)


def double(a):
    """2·a (RFC 8032 §5.1.4's doubling: fewer products than adding a to itself)."""
    x1, y1, z1, _t1 = a
    h1 = x1 * x1 % P
    h2 = y1 * y1 % P
    h3 = 2 * z1 * z1 % P
    h = h1 + h2
    e = h - (x1 + y1) * (x1 + y1) % P
    g = h1 - h2
    f = h3 + g
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _doubled_four_times(a):
    """16·a: four doublings, the first three without the T coordinate only an addition reads."""
    x, y, z = a[0], a[1], a[2]
    for _ in range(3):
        h1 = x * x % P
        h2 = y * y % P
        h = h1 + h2
        e = h - (x + y) * (x + y) % P
        g = h1 - h2
        f = 2 * z * z % P + g
        x, y, z = e * f % P, g * h % P, f * g % P
    return double((x, y, z, None))


def _nibbles(k: int) -> list[int]:
    """k's 4-bit digits, most significant first."""
    digits = []
    while k:
        digits.append(k & 15)
        k >>= 4
    return digits[::-1]


def _multiples(a) -> list:
    """[0·a, 1·a, …, 15·a]."""
    table = [NEUTRAL, a]
    for _ in range(14):
        table.append(add(table[-1], a))
    return table


def combination(pairs) -> tuple:
    """Σ k·a over (k, a) in ``pairs``, k ≥ 0 (Straus: one chain of doublings shared by every term,
    4 bits at a time)."""
    pairs = [(k, a) for k, a in pairs if k]
    if not pairs:
        return NEUTRAL
    digits = [_nibbles(k) for k, _a in pairs]
    width = max(len(d) for d in digits)
    digits = [[0] * (width - len(d)) + d for d in digits]
    tables = [_multiples(a) for _k, a in pairs]
    result = NEUTRAL
    for position in range(width):
        if position:
            result = _doubled_four_times(result)
        for table, ds in zip(tables, digits):
            if ds[position]:
                result = add(result, table[ds[position]])
    return result


def multiply(k: int, a):
    """k·a for any k ≥ 0 (not reduced mod ℓ: multiplying by ℓ is the group check)."""
    return combination([(k, a)])


@functools.lru_cache(maxsize=64)
def _fixed_table(encoding: bytes) -> list:
    """For a point used many times (the base point, a deal's joint key): j·16^i·P for every
    4-bit digit j and i < 64, so that a product needs no doublings."""
    a = decode(encoding)
    rows = []
    for _ in range(64):
        rows.append(_multiples(a))
        a = double(double(double(double(a))))
    return rows


def multiply_fixed(k: int, encoding: bytes):
    """k·P for k in [0, 2²⁵⁶), P the (valid) point of ``encoding``, by :func:`_fixed_table`."""
    assert 0 <= k < 1 << 256
    rows = _fixed_table(encoding)
    result = NEUTRAL
    i = 0
    while k:
        if k & 15:
            result = add(result, rows[i][k & 15])
        k >>= 4
        i += 1
    return result


def same(a, b) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def encode(a) -> bytes:
    inverse = pow(a[2], -1, P)
    x, y = a[0] * inverse % P, a[1] * inverse % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def decode(data: bytes):
    """The curve point of an encoding, or None (RFC 8032 §5.1.3, with y < p required)."""
    if not isinstance(data, bytes) or len(data) != 32:
        return None
    return _decode(data)


@functools.lru_cache(maxsize=1 << 15)
def _decode(data: bytes):
    # (Kept: a nonce or a key is decoded again by every proof and pass that names it; its square
    # root is two exponentiations.)
    y = int.from_bytes(data, "little") & ((1 << 255) - 1)
    sign = data[31] >> 7
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if v * x * x % P == u:
        pass
    elif v * x * x % P == -u % P:
        x = x * SQRT_MINUS_ONE % P
    else:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def valid(data) -> bool:
    """§C9.1: canonical, on the curve, in the prime-order group, not the neutral element."""
    return isinstance(data, bytes) and _valid(data)


@functools.lru_cache(maxsize=1 << 14)
def _valid(data: bytes) -> bool:
    # (Kept: a deck key, a nonce or a share is checked again by every proof that names it.)
    point = decode(data)
    return point is not None and not same(point, NEUTRAL) and same(multiply(L, point), NEUTRAL)


BASE_ENCODING = bytes.fromhex("58" + "66" * 31)
BASE = decode(BASE_ENCODING)


def multiply_base(k: int):
    return multiply_fixed(k % L, BASE_ENCODING)


def point(data: bytes):
    assert valid(data), data.hex()
    return decode(data)


def card_point(deck_domain: str, name: str) -> tuple[int, bytes, list[bytes]]:
    """(counter, point, rejected candidates), §C9.2."""
    rejected = []
    counter = 0
    while True:
        hashed = b"p2pgames/v1/edwards-card\x00" + canon.encode([deck_domain, name, counter])
        candidate = hashlib.sha256(hashed).digest()
        decoded = decode(candidate)
        if decoded is not None:
            eight = multiply(8, decoded)
            if not same(eight, NEUTRAL):
                return counter, encode(eight), rejected
        rejected.append(candidate)
        counter += 1


def scalar(data: bytes) -> int:
    value = int.from_bytes(data, "little")
    assert len(data) == 32 and 0 < value < L
    return value


def draw_scalar(source) -> int:
    """§C9.1's draw: 32 bytes little-endian, the low 253 bits, again until in [1, ℓ − 1]."""
    while True:
        value = int.from_bytes(source(32), "little") & ((1 << 253) - 1)
        if 0 < value < L:
            return value


def injected(data: bytes):
    offset = 0

    def take(count: int) -> bytes:
        nonlocal offset
        offset += count
        assert offset <= len(data)
        return data[offset - count : offset]

    return take


def _challenge(domain: bytes, context: bytes, points: list[bytes]) -> int:
    return int.from_bytes(hashlib.sha512(domain + canon.encode([context, points])).digest(), "little") % L


def _read_proof(proof: bytes):
    if len(proof) != 64:
        return None
    e, s = int.from_bytes(proof[:32], "little"), int.from_bytes(proof[32:], "little")
    return None if e >= L or s >= L else (e, s)


def key_proof(secret: int, context: bytes, w: int) -> bytes:
    key = encode(multiply(secret, BASE))
    e = _challenge(b"p2pgames/v1/edwards-key-proof\x00", context, [key, encode(multiply(w, BASE))])
    return e.to_bytes(32, "little") + ((w + e * secret) % L).to_bytes(32, "little")


def key_proof_holds(key: bytes, proof: bytes, context: bytes) -> bool:
    read = _read_proof(proof)
    if read is None or not valid(key):
        return False
    e, s = read
    a = add(multiply_base(s), multiply(e, negate(decode(key))))
    return _challenge(b"p2pgames/v1/edwards-key-proof\x00", context, [key, encode(a)]) == e


def share_proof(secret: int, nonce: bytes, context: bytes, w: int) -> bytes:
    c1 = point(nonce)
    key = encode(multiply(secret, BASE))
    share = encode(multiply(secret, c1))
    e = _challenge(
        b"p2pgames/v1/edwards-share-proof\x00",
        context,
        [key, nonce, share, encode(multiply(w, BASE)), encode(multiply(w, c1))],
    )
    return e.to_bytes(32, "little") + ((w + e * secret) % L).to_bytes(32, "little")


def share_proof_holds(key: bytes, nonce: bytes, share: bytes, proof: bytes, context: bytes) -> bool:
    read = _read_proof(proof)
    if read is None or not (valid(key) and valid(nonce) and valid(share)):
        return False
    e, s = read
    a1 = add(multiply_base(s), multiply(e, negate(decode(key))))
    a2 = combination([(s, decode(nonce)), (e, negate(decode(share)))])
    return _challenge(b"p2pgames/v1/edwards-share-proof\x00", context, [key, nonce, share, encode(a1), encode(a2)]) == e


def shares_weights(key: bytes, nonces: list[bytes], shares: list[bytes], context: bytes) -> tuple[bytes, list[int]]:
    """§C9.3, batched share proof: seed = H(weights domain ‖ canon([context, Y, nonces, shares])),
    z_i = H(seed ‖ canon(i)) mod ℓ."""
    seed = hashlib.sha512(b"p2pgames/v1/edwards-shares-weights\x00" + canon.encode([context, key, nonces, shares])).digest()
    return seed, [int.from_bytes(hashlib.sha512(seed + canon.encode(i)).digest(), "little") % L for i in range(len(nonces))]


def shares_proof(secret: int, nonces: list[bytes], context: bytes, w: int) -> tuple[list[bytes], bytes]:
    """§C9.3: a holder's shares of ``nonces`` (each valid) and their one batched proof, for its
    key ``secret``·G, with the fresh scalar ``w``: (shares, proof)."""
    key = encode(multiply_base(secret))
    shares = [encode(multiply(secret, point(nonce))) for nonce in nonces]
    seed, weights = shares_weights(key, list(nonces), shares, context)
    m = combination([(weight, decode(nonce)) for weight, nonce in zip(weights, nonces)])
    z = combination([(weight, decode(share)) for weight, share in zip(weights, shares)])
    points = [key, encode(m), encode(z), encode(multiply_base(w)), encode(multiply(w, m))]
    e = _challenge(b"p2pgames/v1/edwards-shares-proof\x00", canon.encode([context, seed]), points)
    return shares, e.to_bytes(32, "little") + ((w + e * secret) % L).to_bytes(32, "little")


def shares_proof_holds(key: bytes, nonces: list[bytes], shares: list[bytes], proof: bytes, context: bytes) -> bool:
    """§C9.3: one proof that every shares[i] = x·nonces[i] for the x of key = x·G."""
    if not all(isinstance(x, bytes) for x in (key, *nonces, *shares, proof, context)):
        return False
    return _shares_proof_holds(key, tuple(nonces), tuple(shares), proof, context)


@functools.lru_cache(maxsize=1 << 12)
def _shares_proof_holds(key: bytes, nonces: tuple, shares: tuple, proof: bytes, context: bytes) -> bool:
    # (Kept: the tests verify one game's transcripts again and again, each seat's and each way.)
    read = _read_proof(proof)
    if read is None or not nonces or len(nonces) != len(shares) or not all(valid(p) for p in (key, *nonces, *shares)):
        return False
    e, s = read
    seed, weights = shares_weights(key, list(nonces), list(shares), context)
    m = combination([(weight, decode(nonce)) for weight, nonce in zip(weights, nonces)])
    z = combination([(weight, decode(share)) for weight, share in zip(weights, shares)])
    if same(m, NEUTRAL) or same(z, NEUTRAL):
        return False
    a1 = add(multiply_base(s), multiply(e, negate(decode(key))))
    a2 = combination([(s, m), (e, negate(z))])
    points = [key, encode(m), encode(z), encode(a1), encode(a2)]
    return _challenge(b"p2pgames/v1/edwards-shares-proof\x00", canon.encode([context, seed]), points) == e


def sum_of(points: list[bytes]) -> bytes:
    total = NEUTRAL
    for data in points:
        total = add(total, point(data))
    return encode(total)


def reencryption_pass(deck: list[list[bytes]], joint_key: bytes, permutation: list[int], scalars: list[int]):
    """§C9.4: out[t] = [in[π(t)].C₁ + r_t·G, in[π(t)].C₂ + r_t·Y] (the first pass's C₁ is O)."""
    assert valid(joint_key)
    out = []
    for source, r in zip(permutation, scalars):
        c1, c2 = deck[source]
        first = NEUTRAL if c1 == encode(NEUTRAL) else point(c1)
        out.append([encode(add(first, multiply_base(r))), encode(add(point(c2), multiply_fixed(r % L, joint_key)))])
    return out


def opened(card: list[bytes], shares: list[bytes]) -> bytes:
    total = point(card[1])
    for share in shares:
        total = add(total, negate(point(share)))
    return encode(total)


def key_split(secret: int, holders: int) -> list[int]:
    """§C9.6: HMAC-SHA256 stream keyed by the secret, blocks of label ‖ counter (§C5.7)."""
    key = secret.to_bytes(32, "little")
    label = b"p2pgames/v1/edwards-key-split\x00" + canon.encode(holders)
    counter = 0

    def source(count: int) -> bytes:
        nonlocal counter
        assert count == 32
        block = hmac.digest(key, label + counter.to_bytes(8, "big"), "sha256")
        counter += 1
        return block

    shares = [draw_scalar(source) for _ in range(holders - 1)]
    return [*shares, (secret - sum(shares)) % L]

"""The deck's cryptography (SPEC §C3–§C6), key escrow (§C8, §B16) and the engine's random stream
(§D1), from the SPEC alone.

P-256 arithmetic is written out here in pure Python (x-only commutative encryption, §C5.3; the
escrow's commitments, §C8); sealing uses X25519, HKDF-SHA256 and ChaCha20-Poly1305 from
`cryptography`, as §C6 names them.
"""

import functools
import hashlib
import hmac
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import canon

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


class DeckError(ValueError):
    """Not a card value, a scalar out of range, an opening refused, a seal that does not open."""


def H(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# --- P-256 (§C5.1, §C5.3) ---------------------------------------------------------------------

def _rhs(x: int) -> int:
    return (x * x * x - 3 * x + B) % P


def _is_square(a: int) -> bool:
    return a == 0 or pow(a, (P - 1) // 2, P) == 1


def is_card_value(value) -> bool:
    if type(value) is not bytes or len(value) != 32:
        return False
    return _y_of(value) is not None


@functools.lru_cache(maxsize=1 << 16)  # (a deal's values are checked again by every step after)
def _y_of(value: bytes) -> int | None:
    """A y with (x, y) on the curve, x the value read as an integer, or None if there is none:
    the square root of x³ − 3x + b, p ≡ 3 (mod 4). The one check and the point encrypt needs."""
    x = int.from_bytes(value, "big")
    if x >= P:
        return None
    rhs = _rhs(x)
    y = pow(rhs, (P + 1) // 4, P)
    return y if y * y % P == rhs else None


def _double(pt):
    X, Y, Z = pt
    if Y == 0:
        return (0, 1, 0)
    ZZ = Z * Z % P
    M = 3 * (X - ZZ) * (X + ZZ) % P        # a = −3
    YY = Y * Y % P
    S = 4 * X * YY % P
    X3 = (M * M - 2 * S) % P
    Y3 = (M * (S - X3) - 8 * YY * YY) % P
    Z3 = 2 * Y * Z % P
    return (X3, Y3, Z3)


def _add(p1, p2):
    X1, Y1, Z1 = p1
    X2, Y2, Z2 = p2
    if Z1 == 0:
        return p2
    if Z2 == 0:
        return p1
    Z1Z1, Z2Z2 = Z1 * Z1 % P, Z2 * Z2 % P
    U1, U2 = X1 * Z2Z2 % P, X2 * Z1Z1 % P
    S1, S2 = Y1 * Z2 * Z2Z2 % P, Y2 * Z1 * Z1Z1 % P
    Hh, R = (U2 - U1) % P, (S2 - S1) % P
    if Hh == 0:
        return _double(p1) if R == 0 else (0, 1, 0)
    HH = Hh * Hh % P
    HHH = Hh * HH % P
    V = U1 * HH % P
    X3 = (R * R - HHH - 2 * V) % P
    Y3 = (R * (V - X3) - S1 * HHH) % P
    Z3 = Hh * Z1 * Z2 % P
    return (X3, Y3, Z3)


def _multiply(k: int, x: int, y: int):
    """k·(x, y) in Jacobian coordinates, by fixed 4-bit windows."""
    base = (x, y, 1)
    table = [(0, 1, 0), base]
    for _ in range(14):
        table.append(_add(table[-1], base))
    acc = (0, 1, 0)
    for shift in range(252, -1, -4):
        for _ in range(4):
            acc = _double(acc)
        digit = (k >> shift) & 15
        if digit:
            acc = _add(acc, table[digit])
    return acc


def _multiply_fixed(k: int, rows):
    """k·B from the rows of :func:`_fixed_rows` of a base B: one addition per 4 bits, no doubling."""
    acc = (0, 1, 0)
    for row in rows:
        digit = k & 15
        if digit:
            acc = _add(acc, row[digit])
        k >>= 4
    return acc


@functools.cache
def _fixed_rows(x: int):
    """For the point B with x-coordinate ``x`` (either one): rows[i][d] = d·16^i·B, i < 64."""
    base, rows = (x, pow(_rhs(x), (P + 1) // 4, P), 1), []
    for _ in range(64):
        row = [(0, 1, 0), base]
        for _ in range(14):
            row.append(_add(row[-1], base))
        rows.append(row)
        for _ in range(4):
            base = _double(base)
    return rows


def _affine(pt) -> tuple[int, int]:
    X, Y, Z = pt
    zinv = pow(Z, -1, P)
    return X * zinv * zinv % P, Y * zinv * zinv * zinv % P


def encrypt(value: bytes, k: int) -> bytes:
    """E_k(x) (§C5.3): the x-coordinate of k·P for either point P with x-coordinate `value`."""
    if type(value) is bytes and type(k) is int:
        return _encrypt_remembered(value, k)
    return _encrypt(value, k)


# A pure function, and costly in pure Python (1.5 ms): a deal's values come round again — the
# verifiers a seat made are checked by every replica, an audit redoes every pass, and the suite
# verifies each seat's transcript of one game — so the last ones computed are kept.
@functools.lru_cache(maxsize=1 << 16)
def _encrypt_remembered(value: bytes, k: int) -> bytes:
    return _encrypt(value, k)


def _encrypt(value, k) -> bytes:
    if not is_card_value(value):
        raise DeckError("not a card value")
    if not 1 <= k < N:
        raise DeckError("scalar out of range")
    x = int.from_bytes(value, "big")
    if value == VERIFIER_BASE:  # every lock key's verifier: a fixed base, its multiples made once
        return _affine(_multiply_fixed(k, _fixed_rows(x)))[0].to_bytes(32, "big")
    return _affine(_multiply(k, x, _y_of(value)))[0].to_bytes(32, "big")


@functools.lru_cache(maxsize=1 << 14)  # (a seat's few keys are inverted again for every card)
def inverse(k: int) -> int:
    return pow(k, N - 2, N)


def product(*keys: int) -> int:
    result = 1
    for k in keys:
        result = result * k % N
    return result


def scalar_bytes(k: int) -> bytes:
    return k.to_bytes(32, "big")


def scalar_from(data) -> int:
    """A 32-byte big-endian scalar in [1, n−1] (§C1), else DeckError."""
    if not isinstance(data, bytes) or len(data) != 32:
        raise DeckError("a scalar is 32 bytes")
    k = int.from_bytes(data, "big")
    if not 1 <= k < N:
        raise DeckError("scalar out of range")
    return k


def random_scalar() -> int:
    while True:
        k = int.from_bytes(secrets.token_bytes(32), "big")
        if 1 <= k < N:
            return k


def random_permutation(m: int) -> list[int]:
    items = list(range(m))
    for i in range(m - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


# A game's cards are hashed to the curve again by each re-shuffle, and by the check of each
# seat's transcript of that game: kept.
@functools.lru_cache(maxsize=1 << 14)
def card_point(deck_domain: str, name: str) -> tuple[bytes, int, tuple[bytes, ...]]:
    """(value, counter, rejected candidates) by try-and-increment (§C5.2)."""
    rejected = []
    counter = 0
    while True:
        candidate = H(b"p2pgames/v1/card\x00" + canon.encode([deck_domain, name, counter]))
        x = int.from_bytes(candidate, "big")
        if x < P and _is_square(_rhs(x)):
            return candidate, counter, tuple(rejected)
        rejected.append(candidate)
        counter += 1


VERIFIER_BASE = card_point("p2pgames/v1/verifier-base", "G0")[0]


# --- commitments (§C3), joint seed (§C4) ------------------------------------------------------

def commit(domain: str, game_id: bytes, seat: int, value, salt: bytes) -> bytes:
    return H(b"p2pgames/v1/commit\x00" + canon.encode([domain, game_id, seat, salt, value]))


def check_opening(commitment, domain, game_id, seat, value, salt) -> bool:
    if not (isinstance(salt, bytes) and len(salt) == 32 and isinstance(commitment, bytes) and len(commitment) == 32):
        return False
    try:
        return hmac.compare_digest(commit(domain, game_id, seat, value, salt), commitment)
    except canon.CanonError:
        return False


def combine(contributions: list[bytes]) -> bytes:
    if not contributions or any(not isinstance(c, bytes) or len(c) != 32 for c in contributions):
        raise DeckError("contributions must be one or more 32-byte strings")
    acc = bytes(32)
    for c in contributions:
        acc = bytes(a ^ b for a, b in zip(acc, c))
    return H(b"p2pgames/v1/joint-seed\x00" + acc)


# --- the engine's random stream (§D1) ---------------------------------------------------------

class Stream:
    def __init__(self, seed: bytes, counter: int = 0):
        self.seed, self.counter = seed, counter

    def block(self) -> int:
        value = H(b"p2pgames/v1/stream\x00" + self.seed + self.counter.to_bytes(8, "big"))
        self.counter += 1
        return int.from_bytes(value, "big")

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        while True:
            r = self.block() >> (256 - bits)
            if r < n:
                return r

    def shuffle(self, items: list) -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


# --- sealed private messages (§C6) ------------------------------------------------------------

def _message_key(shared: bytes, ephemeral_public: bytes, recipient_public: bytes) -> bytes:
    if shared == bytes(32):
        raise DeckError("all-zero shared secret")
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                info=b"p2pgames/v1/seal\x00" + ephemeral_public + recipient_public).derive(shared)


def seal(recipient_public: bytes, plaintext: bytes, associated_data: bytes, ephemeral_private: bytes | None = None) -> bytes:
    e = X25519PrivateKey.from_private_bytes(ephemeral_private) if ephemeral_private else X25519PrivateKey.generate()
    E = e.public_key().public_bytes_raw()
    key = _message_key(e.exchange(X25519PublicKey.from_public_bytes(recipient_public)), E, recipient_public)
    return E + ChaCha20Poly1305(key).encrypt(bytes(12), plaintext, associated_data)


def open_sealed(recipient_private: bytes, sealed: bytes, associated_data: bytes) -> bytes:
    if not isinstance(sealed, bytes) or len(sealed) < 48:
        raise DeckError("a sealed message is at least 48 bytes")
    me = X25519PrivateKey.from_private_bytes(recipient_private)
    E = sealed[:32]
    try:
        shared = me.exchange(X25519PublicKey.from_public_bytes(E))
    except ValueError as e:  # low-order point: all-zero shared secret
        raise DeckError("all-zero shared secret") from e
    key = _message_key(shared, E, me.public_key().public_bytes_raw())
    try:
        return ChaCha20Poly1305(key).decrypt(bytes(12), sealed[32:], associated_data)
    except InvalidTag as e:
        raise DeckError("the seal does not open") from e


def sealed_commitment(plaintext: bytes) -> bytes:
    return H(b"p2pgames/v1/sealed\x00" + plaintext)


# --- the audit of single passes (§C5.5) -------------------------------------------------------

def first_bad_multiset(inputs: list[bytes], outputs: list[bytes], factors: list[int]) -> int | None:
    """Index of the first output not matched by some E(in[i], factors[i]) (a multiset), or None."""
    remaining = {}
    for value, k in zip(inputs, factors):
        expected = encrypt(value, k)
        remaining[expected] = remaining.get(expected, 0) + 1
    for j, out in enumerate(outputs):
        if remaining.get(out, 0) == 0:
            return j
        remaining[out] -= 1
    return None


def first_bad_lock(inputs, outputs, verifiers, shuffle_key: int, lock_keys: list[int]) -> int | None:
    s_inv = inverse(shuffle_key)
    for i, (value, out, ver, k) in enumerate(zip(inputs, outputs, verifiers, lock_keys)):
        if encrypt(VERIFIER_BASE, k) != ver or encrypt(value, k * s_inv % N) != out:
            return i
    return None


def first_bad_shuffle_lock(inputs, outputs, verifiers, strip_key: int, lock_keys: list[int]) -> int | None:
    """§C5.5: the first output of a shuffle-lock pass whose verifier is wrong, that is no card value,
    or that, unlocked, is none of the inputs left; None if the pass is right."""
    remaining = {}
    for value in inputs:
        remaining[value] = remaining.get(value, 0) + 1
    for t, (out, ver, k) in enumerate(zip(outputs, verifiers, lock_keys)):
        if encrypt(VERIFIER_BASE, k) != ver or not is_card_value(out):
            return t
        unlocked = encrypt(out, strip_key * inverse(k) % N)
        if remaining.get(unlocked, 0) == 0:
            return t
        remaining[unlocked] -= 1
    return None


def values_from_stream(rng: bytes):
    """The reference's informative draws (§C5.7) from a given byte string: (draw_4, draw_32, used)."""
    pos = 0

    def take(n):
        nonlocal pos
        chunk = rng[pos:pos + n]
        if len(chunk) != n:
            raise DeckError("the stream ran out")
        pos += n
        return chunk

    return take, lambda: pos


def scalar_from_stream(rng: bytes) -> tuple[int, int]:
    take, used = values_from_stream(rng)
    while True:
        k = int.from_bytes(take(32), "big")
        if 1 <= k < N:
            return k, used()


def permutation_from_stream(rng: bytes, m: int) -> tuple[list[int], int]:
    take, used = values_from_stream(rng)
    items = list(range(m))
    for i in range(m - 1, 0, -1):
        limit = 2**32 - (2**32 % (i + 1))
        while True:
            r = int.from_bytes(take(4), "big")
            if r < limit:
                break
        j = r % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items, used()


# --- key escrow (§C8) and the seat's secrets it rebuilds (§B16) -------------------------------

G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)   # the P-256 generator


def share_commitment(share: int) -> bytes:
    """share·G, SEC 1 compressed: 0x02 or 0x03 by the parity of y, then x (§C8)."""
    x, y = _affine(_multiply(share, *G))
    return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")


def check_share(share: int, commitment: bytes) -> bool:
    """§C8 *check*: a scalar in [1, n−1] whose commitment is `commitment` byte for byte."""
    return 1 <= share < N and share_commitment(share) == commitment


class HmacStream:
    """A §C5.7 stream: blocks HMAC-SHA256(key, label ‖ i as 8 bytes), i = 0, 1, …, read by draws;
    a draw of n bytes takes the next ⌈n/32⌉ blocks and uses their first n bytes."""

    def __init__(self, key: bytes, label: bytes):
        self.key, self.label, self.counter = key, label, 0

    def take(self, n: int) -> bytes:
        chunk = b""
        while len(chunk) < n:
            chunk += hmac.new(self.key, self.label + self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self.counter += 1
        return chunk[:n]  # the rest of the last block is never used

    def scalar(self) -> int:
        """A random_scalar draw of 64 bytes (§C5.7's rejection sampling of 32-byte strings)."""
        return scalar_from_stream(self.take(64))[0]


def escrow_split(e: int, m: int) -> list[int]:
    """The shares of `e` for `m` holders (§C8 *split*)."""
    stream = HmacStream(scalar_bytes(e), b"p2pgames/v1/escrow-split\x00" + bytes([m]))
    while True:
        shares = [stream.scalar() for _ in range(m - 1)]
        last = (e - sum(shares)) % N
        if last:
            return shares + [last]


def escrow_commitments(e: int, m: int) -> list[bytes]:
    return [share_commitment(s) for s in escrow_split(e, m)]


def seat_stream(e: int, *label) -> HmacStream:
    """D(label…) of §B16: the §C5.7 stream keyed by the escrow secret as 32 bytes, its label
    canon(["p2pgames/seat-secret", label…])."""
    return HmacStream(scalar_bytes(e), canon.encode(["p2pgames/seat-secret", *label]))


def seat_deal_keys(e: int, deal: int, size: int, reshuffle: bool):
    """A seat's keys of deal `deal` from its escrow secret (§B16): (re-key key or None, shuffle
    key, permutation, [lock key per slot])."""
    stream = seat_stream(e, "deal", deal)
    rekey = stream.scalar() if reshuffle else None
    shuffle = stream.scalar()
    permutation = permutation_from_stream(stream.take(8 * size + 64), size)[0]
    return rekey, shuffle, permutation, [stream.scalar() for _ in range(size)]


def share_digest(share: bytes, context: bytes) -> bytes:
    """The digest of a share of a lock key, a leaf of its holder's tree (§B16)."""
    return H(b"p2pgames/v1/escrow-share\x00" + context + share)


def seed_shares(seed: bytes, size: int) -> list[int]:
    """shares_from_seed (§C8): the first `size` scalar draws of the seed's escrow-seed stream."""
    stream = HmacStream(seed, b"p2pgames/v1/escrow-seed\x00")
    return [stream.scalar() for _ in range(size)]


# §C8's Merkle tree: RFC 6962 §2.1 with H(x) = SHA-256("p2pgames/v1/merkle-tree" ‖ 0x00 ‖ x).

def _tree_hash(data: bytes) -> bytes:
    return H(b"p2pgames/v1/merkle-tree\x00" + data)


def _left_size(c: int) -> int:
    """k: the largest power of two below c (c ≥ 2)."""
    k = 1
    while k * 2 < c:
        k *= 2
    return k


def mth(leaves: list[bytes]) -> bytes:
    if len(leaves) == 1:
        return _tree_hash(b"\x00" + leaves[0])
    k = _left_size(len(leaves))
    return _tree_hash(b"\x01" + mth(leaves[:k]) + mth(leaves[k:]))


def tree_path(i: int, leaves: list[bytes]) -> list[bytes]:
    """PATH(i, leaves): the siblings from the leaf up."""
    if len(leaves) == 1:
        return []
    k = _left_size(len(leaves))
    if i < k:
        return tree_path(i, leaves[:k]) + [mth(leaves[k:])]
    return tree_path(i - k, leaves[k:]) + [mth(leaves[:k])]


def path_length(i: int, c: int) -> int:
    if c == 1:
        return 0
    k = _left_size(c)
    return 1 + (path_length(i, k) if i < k else path_length(i - k, c - k))


def check_path(leaf: bytes, i: int, c: int, path, root: bytes) -> bool:
    """§C8 *check path*: exactly path_length(i, c) hashes of 32 bytes, leading leaf i to `root`."""
    if not (0 <= i < c and isinstance(path, list) and len(path) == path_length(i, c)
            and all(isinstance(p, bytes) and len(p) == 32 for p in path)):
        return False

    def up(i, c, rest):  # the root of the subtree of c leaves holding leaf i, from the path's first items
        if c == 1:
            return _tree_hash(b"\x00" + leaf)
        k = _left_size(c)
        *below, sibling = rest
        if i < k:
            return _tree_hash(b"\x01" + up(i, k, below) + sibling)
        return _tree_hash(b"\x01" + sibling + up(i - k, c - k, below))
    return up(i, c, path) == root


def lock_leaves(game_id: bytes, author: int, deal: int, holder: int, shares: list[int]) -> list[bytes]:
    """A holder's leaves in `author`'s lock escrow of `deal` (§B16), slot order."""
    return [share_digest(scalar_bytes(share), canon.encode(["lock-share", game_id, author, deal, i, holder]))
            for i, share in enumerate(shares)]


def lock_escrow(game_id: bytes, author: int, deal: int, locks: list[int], holders: list[int], seeds: list[bytes],
                seal_of, fresh) -> tuple[list, list, list]:
    """A `lock-escrow`'s roots, offsets and boxes (§B16) for the lock keys `locks`: `seeds[j]`
    (32 fresh secret bytes) sealed to `holders[j]` (`seal_of(seat)`: its X25519 key; `fresh()`
    gives each box's ephemeral key), and the offsets that make the sums of the shares the keys."""
    shares = [seed_shares(seed, len(locks)) for seed in seeds]
    roots = [mth(lock_leaves(game_id, author, deal, h, mine)) for h, mine in zip(holders, shares)]
    offsets = [((k - sum(column)) % N).to_bytes(32, "big") for k, column in zip(locks, zip(*shares))]
    boxes = [seal(seal_of(h), seed, canon.encode(["lock-escrow", game_id, author, deal, h, len(holders)]), fresh())
             for h, seed in zip(holders, seeds)]
    return roots, offsets, boxes

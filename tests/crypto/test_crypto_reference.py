"""The constructions match an independent, slow, from-the-spec implementation.

The vectors were produced by the library itself; these tests recompute some of them from first
principles (pure-Python P-256 arithmetic, raw primitives) so the vectors can't silently encode a
library quirk that another implementation following protocol/SPEC.md (Part C) would not reproduce.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from p2pgames import canonical
from p2pgames import crypto

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"

# P-256 (SEC 2 / FIPS 186-4), written out independently of p2pgames.crypto.
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B


def lift(x: int) -> tuple[int, int] | None:
    rhs = (x**3 + A * x + B) % P
    y = pow(rhs, (P + 1) // 4, P)  # P ≡ 3 (mod 4)
    return (x, y) if y * y % P == rhs else None


def add(p1: tuple[int, int] | None, p2: tuple[int, int] | None) -> tuple[int, int] | None:
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % P == 0:
        return None
    if p1 == p2:
        slope = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return x3, (slope * (x1 - x3) - y1) % P


def multiply(k: int, point: tuple[int, int]) -> tuple[int, int] | None:
    result = None
    for bit in bin(k)[2:]:
        result = add(result, result)
        if bit == "1":
            result = add(result, point)
    return result


def reference_encrypt(x: bytes, k: int) -> bytes:
    point = lift(int.from_bytes(x, "big"))
    assert point is not None
    product = multiply(k, point)
    assert product is not None
    return product[0].to_bytes(32, "big")


def reference_card_point(deck_domain: str, name: str) -> bytes:
    counter = 0
    while True:
        digest = hashlib.sha256(b"p2pgames/v1/card\x00" + canonical.encode([deck_domain, name, counter])).digest()
        x = int.from_bytes(digest, "big")
        if x < P and lift(x) is not None:
            return digest
        counter += 1


def test_constants_are_p256() -> None:
    assert (crypto.FIELD_PRIME, crypto.CURVE_ORDER) == (P, N)
    generator = (
        0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
        0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
    )
    assert multiply(N, generator) is None  # sanity check of the reference arithmetic


def test_card_points_and_verifier_base_match_the_reference() -> None:
    for deck_domain, name in [("test", "card-0"), ("steam-court/2015", "Inspector"), ("beltpunk", "hat-07")]:
        assert crypto.card_point(deck_domain, name) == reference_card_point(deck_domain, name)
    assert crypto.VERIFIER_BASE == reference_card_point("p2pgames/v1/verifier-base", "G0")


def test_encrypt_matches_the_reference() -> None:
    x = crypto.card_point("test", "card-0")
    for k in [1, 2, 3, N - 1, N - 2, 0xDEADBEEF, crypto.random_scalar(b"\x42" * 32)]:
        assert crypto.encrypt(x, k) == reference_encrypt(x, k)


def test_deck_vector_encryptions_match_the_reference() -> None:
    data = json.loads((VECTOR_DIR / "crypto-deck.json").read_text(encoding="utf-8"))
    for case in data["cases"]:
        if case["kind"] == "encrypt":
            result = reference_encrypt(bytes.fromhex(case["x"]), int(case["scalar"], 16))
            assert result.hex() == case["result"]
        elif case["kind"] == "wrong_lock_key":
            assert reference_encrypt(crypto.VERIFIER_BASE, int(case["key"], 16)).hex() != case["verifier"]
        elif case["kind"] == "bad_card_value" and len(case["x"]) == 64:
            x = int(case["x"], 16)
            assert x >= P or lift(x) is None


def test_sealed_vectors_match_raw_primitives() -> None:
    data = json.loads((VECTOR_DIR / "crypto-sealed.json").read_text(encoding="utf-8"))
    for case in data["cases"]:
        if case["kind"] != "seal":
            continue
        h = bytes.fromhex
        shared = X25519PrivateKey.from_private_bytes(h(case["recipient_private"])).exchange(
            X25519PublicKey.from_public_bytes(h(case["ephemeral_public"]))
        )
        assert shared.hex() == case["shared_secret"]
        info = b"p2pgames/v1/seal\x00" + h(case["ephemeral_public"]) + h(case["recipient_public"])
        key = HKDF(hashes.SHA256(), 32, None, info).derive(shared)  # no salt = empty salt
        assert key.hex() == case["message_key"]
        sealed = h(case["sealed"])
        plaintext = ChaCha20Poly1305(key).decrypt(bytes(12), sealed[32:], h(case["associated_data"]))
        assert plaintext.hex() == case["plaintext"]
        assert hashlib.sha256(b"p2pgames/v1/sealed\x00" + plaintext).hexdigest() == case["commitment"]


def test_escrow_vectors_match_the_reference() -> None:
    """Shares add up to the secret mod n and each commitment is share·G, compressed (§C8)."""
    data = json.loads((VECTOR_DIR / "crypto-escrow.json").read_text(encoding="utf-8"))
    generator = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
                 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)
    for case in [c for c in data["cases"] if c["kind"] == "split"]:
        shares = [int(share, 16) for share in case["shares"]]
        assert len(shares) == case["holders"] and sum(shares) % N == int(case["secret"], 16)
        for share, commitment in zip(shares, case["commitments"]):
            x, y = multiply(share, generator)
            assert commitment == (bytes([2 + (y & 1)]) + x.to_bytes(32, "big")).hex()

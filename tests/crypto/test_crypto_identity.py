from __future__ import annotations

import hashlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import canonical
from p2pgames import crypto

ALICE = crypto.Identity.from_private_bytes(bytes(range(32)))
BOB = crypto.Identity.from_private_bytes(bytes(range(1, 33)))

payloads = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=40, deadline=None)
@given(payload=payloads, domain=st.text(min_size=1, max_size=20).filter(lambda d: "\x00" not in d))
def test_sign_then_verify(payload: object, domain: str) -> None:
    signature = ALICE.sign(domain, payload)
    assert len(signature) == 64
    ALICE.public_key.verify(domain, payload, signature)
    with pytest.raises(crypto.BadSignature):
        BOB.public_key.verify(domain, payload, signature)


@settings(max_examples=40, deadline=None)
@given(position=st.integers(0, 63), flip=st.integers(1, 255))
def test_any_changed_signature_byte_is_refused(position: int, flip: int) -> None:
    signature = bytearray(ALICE.sign("event", [1, "x"]))
    signature[position] ^= flip
    with pytest.raises(crypto.BadSignature):
        ALICE.public_key.verify("event", [1, "x"], bytes(signature))


@settings(max_examples=60, deadline=None)
@given(signature=st.one_of(st.binary(max_size=100), st.binary(min_size=64, max_size=64)))
def test_verify_only_ever_raises_bad_signature(signature: bytes) -> None:
    with pytest.raises(crypto.BadSignature):
        ALICE.public_key.verify("event", {"n": 1}, signature)


@pytest.mark.parametrize("signature", [None, 64, "a" * 64, [0] * 64, bytearray(64), memoryview(bytes(64))])
def test_verify_refuses_non_bytes_with_bad_signature(signature: object) -> None:
    with pytest.raises(crypto.BadSignature):
        ALICE.public_key.verify("event", 1, signature)  # type: ignore[arg-type]


def test_signature_is_bound_to_domain_and_payload() -> None:
    signature = ALICE.sign("hello", {"name": "Ada"})
    with pytest.raises(crypto.BadSignature, match="domain 'hellO'"):
        ALICE.public_key.verify("hellO", {"name": "Ada"}, signature)
    with pytest.raises(crypto.BadSignature):
        ALICE.public_key.verify("hello", {"name": "Eve"}, signature)
    # Tuples and lists encode alike, so a decoded payload verifies.
    ALICE.public_key.verify("hello", canonical.decode(canonical.encode({"name": "Ada"})), signature)


def test_a_signature_verified_once_is_remembered_for_exactly_its_key_domain_and_payload(monkeypatch) -> None:
    """The process remembers signatures it has verified (an envelope is often checked again); what
    it remembers never makes another key, domain, payload or signature pass, and a failure is
    never remembered."""
    from p2pgames.crypto import _identity

    monkeypatch.setattr(_identity, "_VERIFIED", {})  # (the process's own is left as it was)
    checked = []

    class Counting:
        def __init__(self, loaded):
            self.loaded = loaded

        def verify(self, signature, message):
            checked.append(message)
            return self.loaded.verify(signature, message)

    alice = crypto.PublicKey(ALICE.public_key.raw)
    object.__setattr__(alice, "_loaded", Counting(alice._loaded))
    signature = ALICE.sign("remember", {"n": 1})
    alice.verify("remember", {"n": 1}, signature)
    alice.verify("remember", {"n": 1}, signature)
    assert len(checked) == 1
    for domain, payload, signed in [("rememberX", {"n": 1}, signature), ("remember", {"n": 2}, signature),
                                    ("remember", {"n": 1}, signature[:-1] + bytes([signature[-1] ^ 1]))]:
        with pytest.raises(crypto.BadSignature):
            alice.verify(domain, payload, signed)
    with pytest.raises(crypto.BadSignature):
        BOB.public_key.verify("remember", {"n": 1}, signature)
    assert len(_identity._VERIFIED) == 1


def test_the_remembered_signatures_are_bounded(monkeypatch) -> None:
    from p2pgames.crypto import _identity

    monkeypatch.setattr(_identity, "_VERIFIED", {})
    monkeypatch.setattr(_identity, "_VERIFIED_MAX", 8)
    for n in range(20):
        ALICE.public_key.verify("bounded", n, ALICE.sign("bounded", n))
        assert len(_identity._VERIFIED) <= 8


def test_nothing_is_remembered_within_nothing_remembered_and_the_memos_come_back_after(monkeypatch) -> None:
    """A benchmark times the cryptography itself: within crypto.nothing_remembered no signature
    check, deck product or scalar inverse is looked up or kept, and the memos work again after it."""
    from p2pgames.crypto import _deck, _identity

    monkeypatch.setattr(_identity, "_VERIFIED", {})
    monkeypatch.setattr(_deck, "_products", {})
    signature = ALICE.sign("forget", 1)
    points = crypto.CardTable("tests/forget", ["a", "b"]).points
    key = int.from_bytes(hashlib.sha256(b"tests/forget inverse").digest(), "big") % crypto.CURVE_ORDER  # no other test's
    inverses = _deck._remembered_inverse.cache_info
    before = inverses()
    with crypto.nothing_remembered():
        for _ in range(2):
            ALICE.public_key.verify("forget", 1, signature)
            assert crypto.transform(points, 5) == crypto.transform(points, [5, 5])
            assert crypto.unlock(crypto.transform(points, key)[0], [key]) == points[0]
        assert _identity._VERIFIED == {} and _deck._products == {}
        assert inverses() == before
        with pytest.raises(crypto.BadSignature):
            ALICE.public_key.verify("forget", 2, signature)
    ALICE.public_key.verify("forget", 1, signature)
    crypto.transform(points, 5)
    assert len(_identity._VERIFIED) == 1 and set(_deck._products) == {(point, 5) for point in points}
    for _ in range(2):
        assert crypto.unlock(crypto.transform(points, key)[0], [key]) == points[0]
    assert inverses().hits == before.hits + 1 and inverses().misses == before.misses + 1


@pytest.mark.parametrize("domain", ["", "a\x00b", b"bytes"])
def test_bad_domains_are_refused(domain: object) -> None:
    with pytest.raises(ValueError):
        ALICE.sign(domain, 1)  # type: ignore[arg-type]


def test_unencodable_payload_is_the_callers_bug() -> None:
    with pytest.raises(canonical.CanonicalError):
        ALICE.sign("x", 1.5)


def test_private_bytes_round_trip_and_generate() -> None:
    assert crypto.Identity.from_private_bytes(ALICE.private_bytes()).public_key == ALICE.public_key
    injected = crypto.Identity.generate(bytes(range(32)))
    assert injected.public_key == ALICE.public_key
    assert crypto.Identity.generate().public_key != crypto.Identity.generate().public_key
    with pytest.raises(crypto.CryptoError):
        crypto.Identity.generate(b"short")
    for bad in [b"", bytes(31), bytes(33), "x" * 32]:
        with pytest.raises(crypto.CryptoError):
            crypto.Identity.from_private_bytes(bad)  # type: ignore[arg-type]


def test_identity_repr_does_not_leak_the_private_key() -> None:
    text = repr(ALICE)
    assert ALICE.private_bytes().hex() not in text
    assert ALICE.public_key.fingerprint() in text


def test_public_key_value_semantics() -> None:
    key = ALICE.public_key
    again = crypto.PublicKey(bytes(key.raw))
    assert key == again and hash(key) == hash(again)
    assert eval(repr(key), {"PublicKey": crypto.PublicKey}) == key
    assert crypto.PublicKey(bytearray(key.raw)) == key
    with pytest.raises(TypeError):
        crypto.PublicKey("00" * 32)  # type: ignore[arg-type]
    with pytest.raises(Exception):
        key.raw = bytes(32)  # type: ignore[misc]


def test_fingerprint_format() -> None:
    fingerprint = ALICE.public_key.fingerprint()
    assert re.fullmatch(r"[a-z2-7]{4}(-[a-z2-7]{4}){3}", fingerprint)
    assert fingerprint != BOB.public_key.fingerprint()
    assert crypto.fingerprint_matches(fingerprint, ALICE.public_key)
    assert not crypto.fingerprint_matches(fingerprint, BOB.public_key)


@settings(max_examples=60, deadline=None)
@given(text=st.one_of(st.text(max_size=30), st.none(), st.integers(), st.binary(max_size=20)))
def test_fingerprint_matches_is_false_for_garbage(text: object) -> None:
    assert crypto.fingerprint_matches(text, ALICE.public_key) is False

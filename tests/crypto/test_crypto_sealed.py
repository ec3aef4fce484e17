from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import crypto

RECIPIENT = crypto.SealKey.from_private_bytes(bytes(range(32)))
OTHER = crypto.SealKey.from_private_bytes(bytes(range(1, 33)))


@settings(max_examples=40, deadline=None)
@given(plaintext=st.binary(max_size=300), ad=st.binary(max_size=40))
def test_seal_round_trip(plaintext: bytes, ad: bytes) -> None:
    sealed = crypto.seal(RECIPIENT.public_bytes(), plaintext, ad)
    assert len(sealed) == len(plaintext) + crypto.SEAL_OVERHEAD
    assert crypto.open_sealed(RECIPIENT, sealed, ad) == plaintext
    with pytest.raises(crypto.SealError):
        crypto.open_sealed(OTHER, sealed, ad)
    with pytest.raises(crypto.SealError):
        crypto.open_sealed(RECIPIENT, sealed, ad + b"!")


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_tampering_is_refused(data: st.DataObject) -> None:
    sealed = bytearray(crypto.seal(RECIPIENT.public_bytes(), b"lock key 0123456789abcdef", b"ad"))
    position = data.draw(st.integers(0, len(sealed) - 1))
    sealed[position] ^= data.draw(st.integers(1, 255))
    with pytest.raises(crypto.SealError):
        crypto.open_sealed(RECIPIENT, bytes(sealed), b"ad")


@settings(max_examples=30, deadline=None)
@given(sealed=st.binary(max_size=60))
def test_garbage_is_refused_with_seal_error(sealed: bytes) -> None:
    with pytest.raises(crypto.SealError):
        crypto.open_sealed(RECIPIENT, sealed, b"")


def test_each_message_gets_a_fresh_ephemeral_key() -> None:
    first = crypto.seal(RECIPIENT.public_bytes(), b"same", b"")
    second = crypto.seal(RECIPIENT.public_bytes(), b"same", b"")
    assert first[:32] != second[:32] and first[32:] != second[32:]


def test_bad_recipient_keys() -> None:
    for bad in [b"", bytes(31), "x" * 32]:
        with pytest.raises(crypto.SealError):
            crypto.seal(bad, b"p", b"")  # type: ignore[arg-type]
    with pytest.raises(crypto.SealError, match="low-order"):
        crypto.seal(bytes(32), b"p", b"")
    with pytest.raises(crypto.SealError):
        crypto.open_sealed(RECIPIENT, "x" * 60, b"")  # type: ignore[arg-type]


def test_seal_key_round_trip_and_repr() -> None:
    again = crypto.SealKey.from_private_bytes(RECIPIENT.private_bytes())
    assert again.public_bytes() == RECIPIENT.public_bytes()
    assert crypto.SealKey.generate(bytes(range(32))).public_bytes() == RECIPIENT.public_bytes()
    assert crypto.SealKey.generate().public_bytes() != RECIPIENT.public_bytes()
    assert RECIPIENT.private_bytes().hex() not in repr(RECIPIENT)
    with pytest.raises(crypto.SealError):
        crypto.SealKey.from_private_bytes(bytes(31))


def test_sealed_commitment() -> None:
    assert len(crypto.sealed_commitment(b"x")) == 32
    assert crypto.sealed_commitment(b"x") != crypto.sealed_commitment(b"y")
    with pytest.raises(TypeError):
        crypto.sealed_commitment("x")  # type: ignore[arg-type]

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import crypto

values = st.one_of(st.integers(0, 1000), st.text(max_size=10), st.lists(st.integers(0, 60), max_size=5))


@settings(max_examples=50, deadline=None)
@given(
    domain=st.text(max_size=12),
    game_id=st.binary(max_size=16),
    seat=st.integers(0, 8),
    value=values,
    other=values,
)
def test_commitments_open_and_bind(domain: str, game_id: bytes, seat: int, value: object, other: object) -> None:
    commitment, salt = crypto.commit(domain, game_id, seat, value)
    assert len(commitment) == 32 and len(salt) == 32
    crypto.check_opening(commitment, domain, game_id, seat, value, salt)
    if other != value:
        with pytest.raises(crypto.BadCommitment):
            crypto.check_opening(commitment, domain, game_id, seat, other, salt)
    with pytest.raises(crypto.BadCommitment):
        crypto.check_opening(commitment, domain, game_id, seat + 1, value, salt)
    with pytest.raises(crypto.BadCommitment):
        crypto.check_opening(commitment, domain + "x", game_id, seat, value, salt)
    with pytest.raises(crypto.BadCommitment):
        crypto.check_opening(commitment, domain, game_id + b"\x00", seat, value, salt)
    with pytest.raises(crypto.BadCommitment):
        crypto.check_opening(commitment, domain, game_id, seat, value, bytes(a ^ 1 for a in salt))


def test_commitments_hide_equal_values_behind_fresh_salts() -> None:
    first, salt1 = crypto.commit("vote", b"g", 0, "yes")
    second, salt2 = crypto.commit("vote", b"g", 0, "yes")
    assert salt1 != salt2 and first != second


def test_bad_openings_raise_bad_commitment_only() -> None:
    commitment, salt = crypto.commit("vote", b"g", 0, "yes", bytes(32))
    for bad_salt in [b"", bytes(31), bytes(33), None]:
        with pytest.raises(crypto.BadCommitment, match="salt"):
            crypto.check_opening(commitment, "vote", b"g", 0, "yes", bad_salt)  # type: ignore[arg-type]
    with pytest.raises(crypto.BadCommitment):
        crypto.check_opening(commitment[:31], "vote", b"g", 0, "yes", salt)
    with pytest.raises(crypto.BadCommitment, match="canonically"):
        crypto.check_opening(commitment, "vote", b"g", 0, 1.5, salt)
    with pytest.raises(ValueError):
        crypto.commit("vote", b"g", 0, "yes", bytes(31))


def test_random_contribution() -> None:
    assert len(crypto.random_contribution()) == 32
    assert crypto.random_contribution() != crypto.random_contribution()
    assert crypto.random_contribution(bytes(range(40))) == bytes(range(32))
    with pytest.raises(crypto.CryptoError, match="ran out"):
        crypto.random_contribution(bytes(31))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.binary(min_size=32, max_size=32), min_size=1, max_size=6), st.randoms())
def test_joint_seed_depends_on_every_contribution_not_on_order(contributions: list[bytes], rnd) -> None:
    seed = crypto.combine_contributions(contributions)
    assert len(seed) == 32
    shuffled = list(contributions)
    rnd.shuffle(shuffled)
    assert crypto.combine_contributions(shuffled) == seed  # XOR commutes
    changed = list(contributions)
    changed[0] = bytes([changed[0][0] ^ 1]) + changed[0][1:]
    assert crypto.combine_contributions(changed) != seed


def test_combine_refuses_wrong_lengths() -> None:
    with pytest.raises(crypto.CryptoError, match="no contributions"):
        crypto.combine_contributions([])
    with pytest.raises(crypto.CryptoError, match="contribution 1"):
        crypto.combine_contributions([bytes(32), bytes(16)])
    with pytest.raises(crypto.CryptoError):
        crypto.combine_contributions(["x" * 32])  # type: ignore[list-item]

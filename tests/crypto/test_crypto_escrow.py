"""Key escrow (protocol/SPEC.md §C8): all holders rebuild the secret, fewer learn nothing of it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import crypto

scalars = st.integers(min_value=1, max_value=crypto.CURVE_ORDER - 1)
holder_counts = st.integers(min_value=2, max_value=12)


@settings(max_examples=40, deadline=None)
@given(secret=scalars, holders=holder_counts)
def test_all_shares_rebuild_the_secret_and_each_matches_its_commitment(secret: int, holders: int) -> None:
    shares = crypto.split_secret(secret, holders)
    commitments = crypto.escrow_commitments(secret, holders)
    assert len(shares) == len(commitments) == holders
    assert crypto.rebuild_secret(shares) == secret
    assert crypto.rebuild_secret(shares[::-1]) == secret
    assert all(crypto.check_share(share, commitment) for share, commitment in zip(shares, commitments))
    assert all(len(commitment) == crypto.SHARE_COMMITMENT_SIZE for commitment in commitments)


def test_the_split_is_derived_from_the_secret_and_the_count() -> None:
    secret = crypto.random_scalar(bytes(range(32)) * 4)
    assert crypto.split_secret(secret, 3) == crypto.split_secret(secret, 3)
    assert crypto.split_secret(secret, 3)[:2] != crypto.split_secret(secret, 4)[:2]
    assert crypto.split_secret(secret + 1, 3)[0] != crypto.split_secret(secret, 3)[0]


def test_a_wrong_share_is_refused_by_its_commitment() -> None:
    secret = crypto.random_scalar(bytes(range(1, 33)) * 4)
    shares = crypto.split_secret(secret, 4)
    commitments = crypto.escrow_commitments(secret, 4)
    assert not crypto.check_share(shares[1], commitments[0])
    assert not crypto.check_share(crypto.CURVE_ORDER - shares[0], commitments[0])
    assert not crypto.check_share(shares[0] + 1, commitments[0])
    for junk in (0, -1, crypto.CURVE_ORDER, "1", None, 1.0):
        assert crypto.check_share(junk, commitments[0]) is False  # type: ignore[arg-type]
    assert crypto.check_share(shares[0], commitments[0][:-1]) is False
    assert crypto.check_share(shares[0], "not bytes") is False  # type: ignore[arg-type]


@pytest.mark.parametrize("holders", [0, 1, 65, True, 2.0, "3"])
def test_an_escrow_has_two_to_sixty_four_holders(holders: object) -> None:
    with pytest.raises(crypto.CryptoError, match="holders"):
        crypto.split_secret(5, holders)  # type: ignore[arg-type]
    with pytest.raises(crypto.CryptoError, match="holders"):
        crypto.rebuild_secret([5] * holders if isinstance(holders, int) and holders < 70 else [5])


@pytest.mark.parametrize("secret", [0, crypto.CURVE_ORDER, -3, "5"])
def test_only_a_scalar_in_range_is_split(secret: object) -> None:
    with pytest.raises(crypto.CryptoError):
        crypto.split_secret(secret, 3)  # type: ignore[arg-type]


def test_shares_that_add_up_to_zero_are_refused() -> None:
    with pytest.raises(crypto.CryptoError, match="add up to 0"):
        crypto.rebuild_secret([1, crypto.CURVE_ORDER - 1])
    with pytest.raises(crypto.CryptoError, match="scalar"):
        crypto.rebuild_secret([1, 0])


def test_a_seed_gives_pseudo_random_shares_drawn_from_its_own_stream() -> None:
    seed = bytes(range(32))
    shares = crypto.shares_from_seed(seed, 5)
    assert len(shares) == 5 and len(set(shares)) == 5
    assert all(0 < share < crypto.CURVE_ORDER for share in shares)
    assert crypto.shares_from_seed(seed, 5) == shares and crypto.shares_from_seed(seed, 3) == shares[:3]
    draw = crypto.secret_stream(seed, b"p2pgames/v1/escrow-seed\x00")
    assert shares == tuple(crypto.random_scalar(draw(64)) for _ in range(5))
    assert not set(crypto.shares_from_seed(bytes(31) + b"\x01", 5)) & set(shares)


@pytest.mark.parametrize(("seed", "count"), [(bytes(31), 3), (bytes(33), 3), ("seed", 3), (bytes(32), 0), (bytes(32), True)])
def test_a_seed_is_32_bytes_and_gives_one_or_more_shares(seed: object, count: object) -> None:
    with pytest.raises(crypto.CryptoError):
        crypto.shares_from_seed(seed, count)  # type: ignore[arg-type]

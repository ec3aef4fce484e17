"""Key escrow: a seat's secret split among the other seats so that only all of them can rebuild it.

A seat that vanishes for good holds locks on the cards of its hand: without its keys nobody can
ever open them. So when a game starts each seat draws an *escrow secret* ``e`` (a P-256 scalar)
that every card key it will use is derived from, and gives each other seat one share of it. All
the others together can rebuild ``e`` (and so open the departed seat's cards); any smaller group —
the host included — learns nothing about it.

The scheme is Feldman's verifiable secret sharing with the threshold at the number of holders,
which is additive sharing: ``e = s_1 + … + s_m (mod n)``. Each share comes with its public
commitment ``s_j·G`` (``G`` the P-256 generator, the point in SEC 1 compressed form), so a
holder checks the share sealed to it at once (:func:`check_share`), and a share published to
rebuild the secret is checked by everyone against the same commitment. Any ``m − 1`` shares are
independent of ``e`` (the missing one makes every value of ``e`` equally likely), and the
commitments reveal only ``s_j·G``, from which nothing follows without discrete logarithms.

The shares are derived from ``e`` itself (:func:`split_secret`): the first ``m − 1`` from the
stream HMAC-SHA256(e, label) — pseudo-random to anyone without ``e`` — and the last is what makes
the sum. So whoever learns ``e`` (everyone, when the seat publishes it after the game, or the
holders when they rebuild it) can recompute every share and commitment and check the seat's signed
escrow against it, and its card keys against the keys it used: a seat that escrowed something
other than the secret its keys came from is caught then (protocol/SPEC.md §C8).

A seat's *lock keys* are escrowed another way, many at once (§B16): each holder gets one 32-byte
seed, whose stream gives it one pseudo-random share per key (:func:`shares_from_seed`); a key is
the sum of every holder's share and a public offset. What is signed of a holder's shares is one
Merkle root over their digests (:func:`share_digest`, :mod:`p2pgames.crypto._merkle`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from . import _domains
from ._deck import CURVE_ORDER, random_scalar, scalar_to_bytes
from ._errors import CryptoError
from ._random import secret_stream

__all__ = [
    "SHARE_COMMITMENT_SIZE",
    "MAX_ESCROW_HOLDERS",
    "split_secret",
    "share_commitment",
    "check_share",
    "escrow_commitments",
    "rebuild_secret",
    "share_digest",
    "ESCROW_SEED_SIZE",
    "shares_from_seed",
]

#: A share's commitment: the point ``s·G`` in SEC 1 compressed form.
SHARE_COMMITMENT_SIZE = 33
#: More holders than any table has seats (Steam Court's party: 12 seats, 11 holders).
MAX_ESCROW_HOLDERS = 64
#: A holder's seed of a lock escrow: the 32-byte key of the stream its shares are drawn from.
ESCROW_SEED_SIZE = 32

_CURVE = ec.SECP256R1()


def _holders(count: int) -> int:
    if type(count) is not int or not 2 <= count <= MAX_ESCROW_HOLDERS:
        # One holder would simply hold the secret: with two players there is no escrow.
        raise CryptoError(f"an escrow needs 2 to {MAX_ESCROW_HOLDERS} holders, not {count!r}")
    return count


def split_secret(secret: int, holders: int) -> tuple[int, ...]:
    """The ``holders`` shares of ``secret`` (a scalar in [1, n−1]), each in [1, n−1], summing to it.

    Share ``j`` (0-based) for ``j < holders − 1`` is the ``j``-th scalar drawn (by
    :func:`~p2pgames.crypto.random_scalar`'s rejection sampling, 64 bytes a draw) from
    HMAC-SHA256(secret as 32 bytes, ``p2pgames/v1/escrow-split\\0`` ‖ holders as one byte ‖
    counter); the last share is ``secret − Σ others (mod n)``, and should it be 0 (probability
    1/n) the draws go on from where they stopped and the split is made again. Deterministic:
    the same secret and count give the same shares. Raises :class:`CryptoError` if ``secret``
    is not a scalar in range or ``holders`` is not 2…64.
    """
    _holders(holders)
    draw = secret_stream(scalar_to_bytes(_scalar(secret)), _domains.ESCROW_SPLIT + bytes([holders]))
    while True:
        shares = [random_scalar(draw(64)) for _ in range(holders - 1)]
        last = (secret - sum(shares)) % CURVE_ORDER
        if last:
            return (*shares, last)


def share_commitment(share: int) -> bytes:
    """``share·G`` in SEC 1 compressed form (33 bytes): what a share is checked against.

    Raises :class:`CryptoError` if ``share`` is not a scalar in [1, n−1].
    """
    key = ec.derive_private_key(_scalar(share), _CURVE)
    return key.public_key().public_bytes(Encoding.X962, PublicFormat.CompressedPoint)


def check_share(share: int, commitment: bytes) -> bool:
    """Whether ``share`` is the scalar ``commitment`` commits to. Never raises on bad input."""
    if type(share) is not int or not 0 < share < CURVE_ORDER or not isinstance(commitment, bytes):
        return False
    return share_commitment(share) == commitment


def escrow_commitments(secret: int, holders: int) -> tuple[bytes, ...]:
    """The commitment of each of :func:`split_secret`'s shares, in the same order."""
    return tuple(share_commitment(share) for share in split_secret(secret, holders))


def share_digest(share: int, context: bytes) -> bytes:
    """SHA-256(``p2pgames/v1/escrow-share\\0`` ‖ ``context`` ‖ ``share`` as 32 bytes): a share's
    commitment where a hash serves (the leaves of a holder's tree of lock-key shares, §B16). It
    hides the share because the share is a pseudo-random scalar (:func:`shares_from_seed`);
    ``context`` (canonical bytes naming the dealer, the holder and what is
    split) keeps one share's digest from standing for another's. Raises :class:`CryptoError`
    if ``share`` is not a scalar in [1, n−1]."""
    return hashlib.sha256(_domains.ESCROW_SHARE + context + scalar_to_bytes(_scalar(share))).digest()


def shares_from_seed(seed: bytes, count: int) -> tuple[int, ...]:
    """The ``count`` shares a lock-escrow seed gives (§B16): share ``i`` is the ``i``-th scalar drawn
    (by :func:`~p2pgames.crypto.random_scalar`'s rejection sampling, 64 bytes a draw) from
    HMAC-SHA256(seed, ``p2pgames/v1/escrow-seed\\0`` ‖ counter). Each is pseudo-random to whoever
    lacks the seed; the first ``count`` shares of a longer list are the same. Raises
    :class:`CryptoError` if ``seed`` is not 32 bytes or ``count`` is not a positive int.
    """
    if type(count) is not int or count < 1:
        raise CryptoError(f"a seed gives one or more shares, not {count!r}")
    draw = secret_stream(seed, _domains.ESCROW_SEED)
    return tuple(random_scalar(draw(64)) for _ in range(count))


def rebuild_secret(shares: Sequence[int]) -> int:
    """The secret whose shares are ``shares`` (all of them, in any order): their sum mod n.

    Raises :class:`CryptoError` if there are fewer than 2 shares, a share is not a scalar in
    [1, n−1], or the sum is 0 (no secret of a real split: a share is wrong).
    """
    _holders(len(shares))
    total = sum(_scalar(share) for share in shares) % CURVE_ORDER
    if not total:
        raise CryptoError("these shares add up to 0: one of them is not a share of the secret")
    return total


def _scalar(value: object) -> int:
    if type(value) is not int or not 0 < value < CURVE_ORDER:
        raise CryptoError("an escrow share or secret is a scalar in [1, n−1]")
    return value

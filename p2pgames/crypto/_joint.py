"""Pieces of joint randomness: each peer's contribution and the seed they combine into.

The session runs commit-then-open with :func:`~p2pgames.crypto.commit` so that no peer can choose
its contribution after seeing the others'; as long as one peer's contribution is uniformly random,
so is the combined seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from . import _domains
from ._errors import CryptoError
from ._random import ByteSource

__all__ = ["random_contribution", "combine_contributions", "CONTRIBUTION_SIZE"]

CONTRIBUTION_SIZE = 32


def random_contribution(rng_bytes: bytes | None = None) -> bytes:
    """32 random bytes to contribute (from ``os.urandom``, or the first 32 of ``rng_bytes``).

    Raises :class:`CryptoError` if ``rng_bytes`` is shorter than 32 bytes.
    """
    return ByteSource(rng_bytes).take(CONTRIBUTION_SIZE)


def combine_contributions(contributions: Sequence[bytes]) -> bytes:
    """The 32-byte joint seed of the peers' opened contributions, given in seat order.

    Seed = SHA-256(``b"p2pgames/v1/joint-seed\\x00"`` ‖ XOR of all contributions). Raises
    :class:`CryptoError` if there are none or any is not 32 bytes.
    """
    if not contributions:
        raise CryptoError("no contributions to combine")
    combined = 0
    for seat, contribution in enumerate(contributions):
        if not isinstance(contribution, bytes) or len(contribution) != CONTRIBUTION_SIZE:
            raise CryptoError(
                f"contribution {seat} is not {CONTRIBUTION_SIZE} bytes: {contribution!r:.80}"
            )
        combined ^= int.from_bytes(contribution, "big")
    xor = combined.to_bytes(CONTRIBUTION_SIZE, "big")
    return hashlib.sha256(_domains.JOINT_SEED + xor).digest()

"""Lock keys sealed to one seat (protocol/SPEC.md §B6.2): the context a sealed key is bound to,
and what its recipient — or anyone given the recipient's sealing key as evidence — finds in it."""

from __future__ import annotations

from typing import Any

from p2pgames import canonical
from p2pgames.crypto import (
    CryptoError,
    SealError,
    SealKey,
    open_sealed,
    scalar_from_bytes,
    scalar_to_bytes,
    sealed_commitment,
)

__all__ = ["sealed_key_problem", "sealing_context", "opened_scalar"]


def sealed_key_problem(
    crypto: Any, index: int, sender: int, seal_key: SealKey, box: bytes, commitment: bytes, context: bytes,
) -> int | str:
    """Open a lock key ``sender`` sealed to ``seal_key``'s owner for position ``index`` of deal
    ``crypto``, and check it (§B6.2): the key if it is right, else what is wrong with it, as the
    end of "sealed a key for slot N that …". The recipient and anyone holding its sealing key (a
    fault's evidence) reach the same answer."""
    key = opened_scalar(seal_key, box, context)
    if isinstance(key, str):
        return key
    if sealed_commitment(scalar_to_bytes(key)) != commitment:
        return "is not the key it committed to"
    if not crypto.check_published_key(index, sender, key):
        return "does not match its verifier"
    return key


def sealing_context(game_id: bytes, slot: int, sender: int, to: int) -> bytes:
    """The associated data a sealed key is bound to, so it can't be replayed elsewhere."""
    return canonical.encode(["sealed-key", game_id, slot, sender, to])


def opened_scalar(seal_key: SealKey, box: bytes, context: bytes) -> int | str:
    """The scalar sealed to ``seal_key`` in ``box`` (bound to ``context``): a lock key, an escrow
    share. Else why there is none, as the end of "sealed … that …": it "does not open", or "is no
    scalar" (not 32 bytes in [1, n−1])."""
    try:
        plain = open_sealed(seal_key, box, context)
    except SealError:
        return "does not open"
    try:
        return scalar_from_bytes(plain)
    except CryptoError:
        return "is no scalar"

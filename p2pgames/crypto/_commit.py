"""Hash commitments: hide a value now, open it later, bound to a game, a seat and a purpose."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from .. import canonical
from . import _domains
from ._errors import BadCommitment
from ._random import ByteSource

__all__ = ["commit", "check_opening", "COMMITMENT_SIZE", "SALT_SIZE"]

COMMITMENT_SIZE = 32
SALT_SIZE = 32


def _commitment(domain: str, game_id: bytes, seat: int, value: Any, salt: bytes) -> bytes:
    preimage = canonical.encode([domain, game_id, seat, salt, value])
    return hashlib.sha256(_domains.COMMIT + preimage).digest()


def commit(
    domain: str, game_id: bytes, seat: int, value: Any, salt: bytes | None = None
) -> tuple[bytes, bytes]:
    """Commit to ``value``; return ``(commitment, salt)``.

    ``commitment`` is SHA-256(``b"p2pgames/v1/commit\\x00"`` ‖ canonical ``[domain, game_id, seat,
    salt, value]``). ``salt`` is 32 fresh random bytes unless given (for tests and vectors); keep it
    secret until the opening. Raises :class:`ValueError` for a salt that is not 32 bytes, and
    :class:`~p2pgames.canonical.CanonicalError` if the tuple can't be encoded canonically.
    """
    if salt is None:
        salt = ByteSource(None).take(SALT_SIZE)
    elif not isinstance(salt, bytes) or len(salt) != SALT_SIZE:
        raise ValueError(f"a commitment salt is {SALT_SIZE} bytes")
    return _commitment(domain, game_id, seat, value, salt), salt


def check_opening(
    commitment: bytes, domain: str, game_id: bytes, seat: int, value: Any, salt: bytes
) -> None:
    """Check that ``(value, salt)`` opens ``commitment`` for ``domain``, ``game_id`` and ``seat``.

    Returns ``None`` if it does. Raises :class:`BadCommitment` if it doesn't — including a
    commitment or salt that is not 32 bytes and a value that can't be encoded canonically, since
    no honest opening looks like that.
    """
    if not isinstance(commitment, bytes) or len(commitment) != COMMITMENT_SIZE:
        raise BadCommitment(f"a commitment is {COMMITMENT_SIZE} bytes")
    if not isinstance(salt, bytes) or len(salt) != SALT_SIZE:
        raise BadCommitment(f"a commitment salt is {SALT_SIZE} bytes")
    try:
        expected = _commitment(domain, game_id, seat, value, salt)
    except canonical.CanonicalError as error:
        raise BadCommitment(f"the opened value can't be encoded canonically: {error}") from None
    if not hmac.compare_digest(expected, commitment):
        raise BadCommitment(
            f"opening does not match the commitment for domain {domain!r}, seat {seat}"
        )
